import { Annotation, type LangGraphRunnableConfig, START, StateGraph } from "@langchain/langgraph";
import { createLangGraphStore } from "@memory/langgraph";
import { createSqliteMemory } from "@memory/sqlite";

// Long-term memory for a LangGraph graph, kept in a SQLite file (the path is the first argument).
await using memory = createSqliteMemory({ path: process.argv[2] ?? ".memory/langgraph.db" });
const store = createLangGraphStore({ memory });

const State = Annotation.Root({
  user: Annotation<string>(),
  message: Annotation<string>(),
  answer: Annotation<string[]>(),
});

async function remember(state: typeof State.State, config: LangGraphRunnableConfig) {
  const fact = /^remember (\w+): (.+)$/.exec(state.message);
  if (fact?.[1] && fact[2]) {
    await config.store?.put(["users", state.user, "facts"], fact[1], { text: fact[2] });
  }
  return {};
}

async function recall(state: typeof State.State, config: LangGraphRunnableConfig) {
  if (state.message.startsWith("remember ")) return { answer: [] };
  const found = await config.store?.search(["users", state.user], { query: state.message });
  return { answer: (found ?? []).map((item) => `${item.key}: ${item.value.text}`) };
}

const graph = new StateGraph(State)
  .addNode("remember", remember)
  .addNode("recall", recall)
  .addEdge(START, "remember")
  .addEdge("remember", "recall")
  .compile({ store });

await graph.invoke({ user: "ada", message: "remember allergy: Ada is allergic to peanuts" });
await graph.invoke({ user: "ada", message: "remember city: Ada lives in Lisbon" });
const { answer } = await graph.invoke({ user: "ada", message: "is Ada allergic to anything?" });
console.log(answer.join("\n")); // allergy: Ada is allergic to peanuts
