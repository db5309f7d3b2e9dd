import { join } from "node:path";
import {
  Annotation,
  END,
  type LangGraphRunnableConfig,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { createLangGraphStore } from "../src/index.js";
import { sqliteMemory, tempDir } from "./helpers.js";

// A graph with no model: "learn" writes what the user says into the store, "recall" searches
// the store for the question and answers from what it finds. Both read the store from the
// node's config, as LangGraph hands it to every node of a graph compiled with `{ store }`.
const State = Annotation.Root({
  userId: Annotation<string>(),
  message: Annotation<string>(),
  answer: Annotation<string>(),
  seen: Annotation<number>(),
});
type GraphState = typeof State.State;

async function learn(state: GraphState, config: LangGraphRunnableConfig) {
  const store = config.store;
  if (!store) throw new Error("the graph was compiled without a store");
  const namespace = ["users", state.userId, "facts"];
  const fact = /^remember (\w+): (.+)$/.exec(state.message);
  if (fact) {
    const [, topic, text] = fact as unknown as [string, string, string];
    const previous = await store.get(namespace, topic);
    await store.put(namespace, topic, {
      text,
      topic,
      revision: ((previous?.value.revision as number | undefined) ?? 0) + 1,
    });
  }
  const forget = /^forget (\w+)$/.exec(state.message);
  if (forget) await store.delete(namespace, forget[1] as string);
  return {};
}

async function recall(state: GraphState, config: LangGraphRunnableConfig) {
  const store = config.store;
  if (!store) throw new Error("the graph was compiled without a store");
  const found = await store.search(["users", state.userId], { query: state.message, limit: 1 });
  const all = await store.search(["users", state.userId], { limit: 100 });
  return { answer: (found[0]?.value.text as string | undefined) ?? "nothing", seen: all.length };
}

function buildGraph(store: ReturnType<typeof createLangGraphStore>) {
  return new StateGraph(State)
    .addNode("learn", learn)
    .addNode("recall", recall)
    .addEdge(START, "learn")
    .addEdge("learn", "recall")
    .addEdge("recall", END)
    .compile({ store });
}

describe("a LangGraph StateGraph over the store", () => {
  it("writes in one node and recalls in the next, per user, through a real SQLite file", async () => {
    const memory = sqliteMemory();
    const graph = buildGraph(createLangGraphStore({ memory }));

    await graph.invoke({ userId: "ada", message: "remember allergy: Ada is allergic to peanuts" });
    await graph.invoke({ userId: "ada", message: "remember city: Ada lives in Lisbon" });
    await graph.invoke({
      userId: "bob",
      message: "remember allergy: Bob is allergic to shellfish",
    });

    const ada = await graph.invoke({ userId: "ada", message: "which city does Ada live in?" });
    expect(ada.answer).toBe("Ada lives in Lisbon");
    expect(ada.seen).toBe(2);
    const bob = await graph.invoke({ userId: "bob", message: "is Bob allergic to anything?" });
    expect(bob.answer).toBe("Bob is allergic to shellfish");
    expect(bob.seen).toBe(1);

    // The items are ordinary entries of the memory, in the mapped namespace.
    const entries = await memory.list({ namespace: "users.ada.facts" });
    expect(entries.map((entry) => entry.key).sort()).toEqual(["allergy", "city"]);
  });

  it("updates an item in place (same createdAt, next revision) and deletes it from a node", async () => {
    const memory = sqliteMemory();
    const store = createLangGraphStore({ memory });
    const graph = buildGraph(store);

    await graph.invoke({ userId: "ada", message: "remember city: Ada lives in Lisbon" });
    const first = await store.get(["users", "ada", "facts"], "city");
    await graph.invoke({ userId: "ada", message: "remember city: Ada moved to Porto" });
    const second = await store.get(["users", "ada", "facts"], "city");
    expect(second?.value).toEqual({ text: "Ada moved to Porto", topic: "city", revision: 2 });
    expect(second?.createdAt.getTime()).toBe(first?.createdAt.getTime());
    expect(second?.updatedAt.getTime()).toBeGreaterThanOrEqual(first?.updatedAt.getTime() ?? 0);

    const after = await graph.invoke({ userId: "ada", message: "forget city" });
    expect(after.seen).toBe(0);
    expect(await store.get(["users", "ada", "facts"], "city")).toBeNull();
  });

  it("keeps what a graph learned for a new process: a second store over the reopened file", async () => {
    const path = join(tempDir(), "brain.db");
    const writer = sqliteMemory(path);
    await buildGraph(createLangGraphStore({ memory: writer })).invoke({
      userId: "ada",
      message: "remember pet: Ada has a cat called Miso",
    });
    await writer.close();

    const reader = sqliteMemory(path);
    const result = await buildGraph(createLangGraphStore({ memory: reader })).invoke({
      userId: "ada",
      message: "what is the name of Ada's cat?",
    });
    expect(result.answer).toBe("Ada has a cat called Miso");
  });
});
