import { MemoryError } from "@memory/api";
import { describe, expect, it, vi } from "vitest";
import { createLangGraphStore, VALUE_MARKER } from "../src/index.js";
import { sqliteMemory } from "./helpers.js";

async function expectInvalid(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(MemoryError.hasCode(error, "INVALID_INPUT"), String(error)).toBe(true);
  expect((error as Error).message).toMatch(message);
}

describe("namespaces", () => {
  it("stores a tuple namespace as its labels joined with '.' and reads it back as the tuple", async () => {
    const memory = sqliteMemory();
    const store = createLangGraphStore({ memory });
    await store.put(["users", "42", "prefs"], "theme", { text: "dark mode" });

    expect(store.namespaceOf(["users", "42", "prefs"])).toBe("users.42.prefs");
    const [entry] = await memory.list({ namespace: "users.42.prefs" });
    expect(entry?.key).toBe("theme");
    expect(entry?.category).toBe("core");
    expect(await store.listNamespaces()).toEqual([["users", "42", "prefs"]]);
    expect((await store.get(["users", "42", "prefs"], "theme"))?.namespace).toEqual([
      "users",
      "42",
      "prefs",
    ]);
  });

  it("refuses labels that would make the mapping ambiguous or break our namespace rules, with INVALID_INPUT", async () => {
    const store = createLangGraphStore({ memory: sqliteMemory() });
    await expectInvalid(store.batch([{ namespace: ["a.b"], key: "k", value: { x: 1 } }]), /period/);
    await expectInvalid(
      store.batch([{ namespace: [], key: "k", value: { x: 1 } }]),
      /at least one label/,
    );
    await expectInvalid(store.batch([{ namespace: ["a", ""], key: "k" }]), /non-empty string/);
    await expectInvalid(store.batch([{ namespace: ["a\u0007b"], key: "k" }]), /not valid/);
    await expectInvalid(store.search(["x".repeat(300)]), /256/);
    await expectInvalid(store.search(["users"], { limit: -1 }), /limit/);
  });

  it("runs nothing of a batch that holds one invalid operation", async () => {
    const memory = sqliteMemory();
    const store = createLangGraphStore({ memory });
    await expectInvalid(
      store.batch([
        { namespace: ["ok"], key: "first", value: { text: "written?" } },
        { namespace: ["ok"], key: "second", value: ["not", "an", "object"] as never },
      ]),
      /must be a JSON object/,
    );
    await expectInvalid(
      store.batch([
        { namespace: ["ok"], key: "first", value: { text: "written?" } },
        { matchConditions: [{ matchType: "infix" as never, path: ["ok"] }], limit: 5, offset: 0 },
      ]),
      /match type "infix"/,
    );
    await expectInvalid(
      store.batch([
        { namespace: ["ok"], key: "first", value: { text: "written?" } },
        { namespacePrefix: ["ok"], filter: "kind" as never },
      ]),
      /filter must be an object/,
    );
    expect(await memory.count({ namespace: "ok" })).toBe(0);
  });

  it("keeps two roots apart on one memory", async () => {
    const memory = sqliteMemory();
    const agentA = createLangGraphStore({ memory, rootNamespace: "agent-a" });
    const agentB = createLangGraphStore({ memory, rootNamespace: "agent-b" });
    await agentA.put(["users", "1"], "note", { text: "from agent A" });
    await agentB.put(["users", "1"], "note", { text: "from agent B" });

    expect((await agentA.get(["users", "1"], "note"))?.value.text).toBe("from agent A");
    expect((await agentB.search(["users"])).map((item) => item.value.text)).toEqual([
      "from agent B",
    ]);
    expect(await agentA.listNamespaces()).toEqual([["users", "1"]]);
    expect((await memory.list({ namespace: "agent-a.users.1" }))[0]?.key).toBe("note");
  });

  it("lists namespaces with prefix and suffix (with '*'), maxDepth, limit and offset", async () => {
    const store = createLangGraphStore({ memory: sqliteMemory() });
    for (const namespace of [
      ["users", "1", "facts"],
      ["users", "1", "prefs"],
      ["users", "2", "facts"],
      ["teams", "x", "facts"],
      ["users"],
    ]) {
      await store.put(namespace, "k", { text: namespace.join(" ") });
    }
    expect(await store.listNamespaces({ prefix: ["users"] })).toEqual([
      ["users"],
      ["users", "1", "facts"],
      ["users", "1", "prefs"],
      ["users", "2", "facts"],
    ]);
    expect(await store.listNamespaces({ suffix: ["facts"] })).toEqual([
      ["teams", "x", "facts"],
      ["users", "1", "facts"],
      ["users", "2", "facts"],
    ]);
    expect(await store.listNamespaces({ prefix: ["*", "1"] })).toEqual([
      ["users", "1", "facts"],
      ["users", "1", "prefs"],
    ]);
    expect(await store.listNamespaces({ maxDepth: 2 })).toEqual([
      ["teams", "x"],
      ["users"],
      ["users", "1"],
      ["users", "2"],
    ]);
    expect(await store.listNamespaces({ limit: 2, offset: 1 })).toEqual([
      ["users"],
      ["users", "1", "facts"],
    ]);
  });
});

describe("values", () => {
  it("returns the value exactly as put, whatever its strings hold", async () => {
    const memory = sqliteMemory();
    const store = createLangGraphStore({ memory });
    const value = {
      text: `a line\n${VALUE_MARKER}{"fake":true}`,
      nested: { list: [1, "two", { three: null }], empty: {} },
      unicode: "Zoë 東京 🎉",
      flag: false,
    };
    await store.put(["docs"], "tricky", value);
    expect((await store.get(["docs"], "tricky"))?.value).toEqual(value);
    // The content starts with the recall text: the strings of the value, then the JSON line.
    const entry = await memory.get("tricky", { namespace: "docs" });
    expect(entry?.content.startsWith("a line\n")).toBe(true);
  });

  it("matches a query against the value's strings only, never its keys or the stored JSON", async () => {
    const store = createLangGraphStore({ memory: sqliteMemory() });
    await store.put(["docs"], "note", { category: "travel", text: "Trains leave from Oriente" });
    expect((await store.search(["docs"], { query: "oriente" })).map((item) => item.key)).toEqual([
      "note",
    ]);
    expect(await store.search(["docs"], { query: "category" })).toEqual([]);
    expect(await store.search(["docs"], { query: "text" })).toEqual([]);
  });

  it("stores a { text } value as the bare text, and reads another program's entry as { text }", async () => {
    const memory = sqliteMemory();
    const store = createLangGraphStore({ memory });
    await store.put(["users", "7"], "plain", { text: "Ada is allergic to peanuts" });
    expect((await memory.get("plain", { namespace: "users.7" }))?.content).toBe(
      "Ada is allergic to peanuts",
    );
    await memory.store({ key: "cli-note", content: "Stored from the CLI", namespace: "users.7" });
    expect((await store.get(["users", "7"], "cli-note"))?.value).toEqual({
      text: "Stored from the CLI",
    });
  });

  it("keeps the value line when the bare text would read back as something else", async () => {
    const memory = sqliteMemory();
    const store = createLangGraphStore({ memory });
    const lookalike = { text: `notes\n${VALUE_MARKER}7b7d` }; // its last line looks like a value line
    const unindexed = { text: "kept out of recall" };
    await store.put(["docs"], "lookalike", lookalike);
    await store.put(["docs"], "unindexed", unindexed, false);
    expect((await store.get(["docs"], "lookalike"))?.value).toEqual(lookalike);
    expect((await store.get(["docs"], "unindexed"))?.value).toEqual(unindexed);
    expect(await store.search(["docs"], { query: "recall" })).toEqual([]);
    const stored = await memory.get("unindexed", { namespace: "docs" });
    expect(stored?.content.startsWith(VALUE_MARKER)).toBe(true);
  });

  it("refuses a value that JSON cannot hold, with INVALID_INPUT", async () => {
    const store = createLangGraphStore({ memory: sqliteMemory() });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expectInvalid(store.put(["docs"], "cycle", cyclic), /cannot be written as JSON/);
    await expectInvalid(store.put(["docs"], "big", { n: 1n } as never), /JSON/);
  });

  it("keeps a changed value's previous version out of items, and refuses the version key form", async () => {
    const memory = sqliteMemory();
    const store = createLangGraphStore({ memory });
    await store.put(["users"], "ada", { text: "lives in Berlin" });
    await store.put(["users"], "ada", { text: "lives in Lisbon" });
    expect((await memory.history("ada", { namespace: "users" })).length).toBe(2);
    const found = await store.search(["users"]);
    expect(found.map((item) => [item.key, item.value.text])).toEqual([["ada", "lives in Lisbon"]]);
    const queried = await store.search(["users"], { query: "Berlin" });
    expect(queried).toEqual([]);
    await expectInvalid(store.put(["users"], "ada::history:1", { text: "forged" }), /reserved/);
  });

  it("does not close the memory on stop()", async () => {
    const memory = sqliteMemory();
    const store = createLangGraphStore({ memory });
    await store.stop();
    await memory.store({ key: "still", content: "open" });
    expect(await memory.count()).toBe(1);
  });
});

describe("search", () => {
  it("applies the filter before the limit: matching items ranked below many others still come back", async () => {
    const store = createLangGraphStore({ memory: sqliteMemory() });
    for (let index = 0; index < 30; index += 1) {
      await store.put(["notes"], `noise-${index}`, {
        text: `pizza pizza pizza tasting ${index}`,
        kind: "noise",
      });
    }
    for (let index = 0; index < 4; index += 1) {
      await store.put(["notes"], `fact-${index}`, {
        text: `a long note that mentions pizza once among many other words ${index}`,
        kind: "fact",
      });
    }
    const results = await store.search(["notes"], {
      query: "pizza",
      filter: { kind: "fact" },
      limit: 3,
    });
    expect(results).toHaveLength(3);
    expect(results.every((item) => item.value.kind === "fact")).toBe(true);
    const unfiltered = await store.search(["notes"], { query: "pizza", limit: 3 });
    expect(unfiltered.every((item) => item.value.kind === "noise")).toBe(true);
  });

  it("searches every namespace under the prefix (not a sibling sharing its text) and ranks by calibrated score", async () => {
    const store = createLangGraphStore({ memory: sqliteMemory() });
    await store.put(["users", "1"], "a", { text: "Ada likes green tea" });
    await store.put(["users", "2"], "b", { text: "Bob drinks green tea and black tea every day" });
    await store.put(["users", "2", "deep"], "c", { text: "green tea ceremony notes" });
    await store.put(["users1"], "d", { text: "green tea in the sibling namespace" });
    await store.put(["users", "3"], "e", { text: "nothing about drinks" });

    const results = await store.search(["users"], { query: "green tea", limit: 10 });
    expect(results.map((item) => item.key).sort()).toEqual(["a", "b", "c"]);
    for (const item of results) {
      expect(item.score).toBeGreaterThan(0);
      expect(item.score).toBeLessThanOrEqual(1);
    }
    const scores = results.map((item) => item.score as number);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    expect(results.find((item) => item.key === "c")?.namespace).toEqual(["users", "2", "deep"]);
  });

  it("matches only the indexed fields; index: false leaves an item to filters and listings", async () => {
    const store = createLangGraphStore({ memory: sqliteMemory(), indexFields: ["title"] });
    await store.put(["docs"], "indexed", { title: "Quarterly report", body: "secret zebra" });
    await store.put(["docs"], "hidden", { title: "Quarterly plan" }, false);
    await store.put(["docs"], "override", { title: "x", body: "zebra crossing" }, ["body"]);

    expect((await store.search(["docs"], { query: "zebra" })).map((item) => item.key)).toEqual([
      "override",
    ]);
    expect((await store.search(["docs"], { query: "quarterly" })).map((item) => item.key)).toEqual([
      "indexed",
    ]);
    const filtered = await store.search(["docs"], { filter: { title: "Quarterly plan" } });
    expect(filtered.map((item) => item.key)).toEqual(["hidden"]);
    expect(filtered[0]?.score).toBeUndefined();
  });

  it("without a query returns items newest first, with filter operators, offset and limit", async () => {
    const store = createLangGraphStore({ memory: sqliteMemory() });
    // Only Date is faked: each put gets its own second, so "newest first" has one right answer.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      for (let rank = 1; rank <= 6; rank += 1) {
        vi.setSystemTime(Date.parse("2026-11-01T00:00:00.000Z") + rank * 1000);
        await store.put(["scores"], `item-${rank}`, { rank, tag: rank % 2 === 0 ? "even" : "odd" });
      }
    } finally {
      vi.useRealTimers();
    }
    const even = await store.search(["scores"], { filter: { tag: "even" } });
    expect(even.map((item) => item.value.rank).sort()).toEqual([2, 4, 6]);
    const ranked = await store.search(["scores"], {
      filter: { rank: { $gte: 2, $lt: 6 }, tag: { $ne: "odd" } },
    });
    expect(ranked.map((item) => item.value.rank).sort()).toEqual([2, 4]);
    const inList = await store.search(["scores"], { filter: { rank: { $in: [1, 5] } } });
    expect(inList.map((item) => item.value.rank).sort()).toEqual([1, 5]);
    const all = await store.search(["scores"], { limit: 100 });
    expect(all.map((item) => item.value.rank)).toEqual([6, 5, 4, 3, 2, 1]);
    const page = await store.search(["scores"], { limit: 2, offset: 3 });
    expect(page.map((item) => item.value.rank)).toEqual([3, 2]);
  });
});

describe("options", () => {
  it("refuses a missing memory, a bad category, a minScore outside 0..1 and bad indexFields", () => {
    const memory = sqliteMemory();
    const invalid = (run: () => unknown, message: RegExp) => {
      let caught: unknown;
      try {
        run();
      } catch (error) {
        caught = error;
      }
      expect(MemoryError.hasCode(caught, "INVALID_INPUT"), String(caught)).toBe(true);
      expect((caught as Error).message).toMatch(message);
    };
    invalid(() => createLangGraphStore({} as never), /needs \{ memory \}/);
    invalid(() => createLangGraphStore({ memory, category: "not a name" }), /category/);
    invalid(() => createLangGraphStore({ memory, minScore: 2 }), /minScore/);
    invalid(() => createLangGraphStore({ memory, indexFields: "text" as never }), /indexFields/);
    invalid(() => createLangGraphStore({ memory, rootNamespace: "" }), /namespace/);
  });

  it("writes entries in the configured category and passes minScore to recall", async () => {
    const memory = sqliteMemory();
    const store = createLangGraphStore({ memory, category: "agent-notes" });
    await store.put(["notes"], "tea", {
      text: "Green tea is best brewed at 80 degrees, never boiling",
    });
    expect((await memory.get("tea", { namespace: "notes" }))?.category).toBe("agent-notes");

    const found = await store.search(["notes"], { query: "green tea" });
    expect(found).toHaveLength(1);
    const score = found[0]?.score as number;
    const strict = createLangGraphStore({ memory, minScore: Math.min(1, score + 0.01) });
    expect(await strict.search(["notes"], { query: "green tea" })).toEqual([]);
    const lenient = createLangGraphStore({ memory, minScore: Math.max(0, score - 0.01) });
    expect(await lenient.search(["notes"], { query: "green tea" })).toHaveLength(1);
  });
});
