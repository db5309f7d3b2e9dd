// An agent with a long-term session and memory tools, offline: a scripted model provider plays
// the LLM. In an application, leave `modelProvider` out (OpenAI) and give the agent a model name.
import { AgentMemorySession, memoryFunctionTools } from "@memory/openai-agents";
import { createSqliteMemory } from "@memory/sqlite";
import { Agent, Runner, setTracingDisabled, Usage } from "@openai/agents";

setTracingDisabled(true); // the scripted run has nothing to trace

// Answers in order: a call of memory_store, then a message.
const script = [
  {
    type: "function_call",
    callId: "call_1",
    name: "memory_store",
    status: "completed",
    arguments: JSON.stringify({ content: "The user deploys on Fridays" }),
  },
  {
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: "Noted: you deploy on Fridays." }],
  },
];
const modelProvider = {
  getModel: () => ({
    getResponse: async () => ({ usage: new Usage(), output: [script.shift()] }),
    getStreamedResponse: () => {
      throw new Error("not streamed");
    },
  }),
};

const memory = createSqliteMemory({ path: "agent-memory.db" });
try {
  const agent = new Agent({
    name: "assistant",
    instructions: "Save lasting facts about the user with memory_store.",
    model: "scripted",
    tools: memoryFunctionTools(memory, { namespace: "user-42" }),
  });
  const session = new AgentMemorySession(memory, { sessionId: "chat-1", namespace: "user-42" });
  const result = await new Runner({ modelProvider }).run(agent, "I deploy on Fridays.", {
    session,
  });
  console.log("answer:", result.finalOutput);

  // The conversation is in memory: a later process finds it again, and can search it.
  const items = await new AgentMemorySession(memory, {
    sessionId: "chat-1",
    namespace: "user-42",
  }).getItems();
  console.log("history:", items.map((item) => item.type ?? "message").join(", "));
  const [hit] = await session.search("Fridays deploy");
  console.log("found:", hit.item.content);
  console.log(
    "fact:",
    (await memory.recall("deploy", { namespace: "user-42", categories: ["core"] }))[0].content,
  );
} finally {
  await memory.close();
}
