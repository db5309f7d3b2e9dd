// Two conversations with memory, offline: a scripted mock model (from `ai/test`) plays the LLM.
// In an application, pass a real model instead, e.g. `openai("gpt-4.1-mini")` from @ai-sdk/openai.
import { memoryMiddleware, memoryTools } from "@memory/ai-sdk";
import { createSqliteMemory } from "@memory/sqlite";
import { generateText, stepCountIs, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const say = (text) => ({
  content: [{ type: "text", text }],
  finishReason: { unified: "stop", raw: "stop" },
  usage,
  warnings: [],
});
const call = (toolName, input) => ({
  content: [{ type: "tool-call", toolCallId: "call-1", toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage,
  warnings: [],
});

const memory = createSqliteMemory({ path: "chat-memory.db" });
try {
  // Conversation 1: the model decides to save a fact with the memory_store tool.
  const first = await generateText({
    model: new MockLanguageModelV3({
      doGenerate: [
        call("memory_store", {
          content: "The user's favourite language is Rust",
          category: "core",
        }),
        say("Got it, Rust it is."),
      ],
    }),
    tools: memoryTools(memory, { namespace: "user-42" }),
    prompt: "Remember that my favourite language is Rust.",
    stopWhen: stepCountIs(3),
  });
  console.log("tool:", first.steps[0].toolResults[0].output.text);

  // Conversation 2: the middleware puts what memory knows in front of the call.
  const model = new MockLanguageModelV3({ doGenerate: [say("Your favourite is Rust.")] });
  const second = await generateText({
    model: wrapLanguageModel({
      model,
      middleware: memoryMiddleware(memory, { namespace: "user-42", autosave: true }),
    }),
    prompt: "What is my favourite language?",
  });
  console.log("model saw:", model.doGenerateCalls[0].prompt[0].content);
  console.log("answer:", second.text);
  console.log("saved turns:", await memory.count({ namespace: "user-42" }));
} finally {
  await memory.close();
}
