import type { UsageEvent } from "@memory/api";
import { describe, expect, it } from "vitest";
import { createMemoryFacade, InMemoryDriver } from "../src/index.js";
import { attributeReply } from "../src/usage/reply-attribution.js";
import { applyUsageEvents, RECENT_QUERIES_KEPT, usageQuery } from "../src/usage/usage-stats.js";

const used = (query: string, at: string): UsageEvent => ({
  recallId: "r",
  namespace: "default",
  key: "k",
  kind: "used",
  at,
  query: usageQuery(query, false)!,
  source: "recall",
});

describe("usage statistics", () => {
  it("count distinct days and queries, the same query in other case and spacing once", () => {
    const record = applyUsageEvents(undefined, [
      used("Where do I live?", "2026-03-01T10:00:00.000Z"),
      used("where  do i live?", "2026-03-01T11:00:00.000Z"),
      used("What is my job?", "2026-03-02T09:00:00.000Z"),
    ]);
    expect(record.stats).toMatchObject({ used: 3, queries: 2, days: 2 });
    expect(record.lastUsedDay).toBe("2026-03-02");
    expect(record.stats.lastUsedAt).toBe("2026-03-02T09:00:00.000Z");
  });

  it("keep a bounded list of query hashes: a query used again after 32 others counts again", () => {
    const at = "2026-03-01T10:00:00.000Z";
    let record = applyUsageEvents(undefined, [used("first", at)]);
    for (let index = 0; index < RECENT_QUERIES_KEPT; index++)
      record = applyUsageEvents(record, [used(`other ${index}`, at)]);
    expect(record.recentQueries).toHaveLength(RECENT_QUERIES_KEPT);
    record = applyUsageEvents(record, [used("first", at)]);
    expect(record.stats.queries).toBe(RECENT_QUERIES_KEPT + 2);
  });

  it("hash queries unless the text is to be kept; a match-all query has none", () => {
    expect(usageQuery("Where?", false)).toMatch(/^sha256:[0-9a-f]{32}$/);
    expect(usageQuery("Where?", true)).toBe("Where?");
    expect(usageQuery(" * ", false)).toBeUndefined();
  });
});

describe("reply attribution", () => {
  const results = [
    { key: "coffee", content: "The user drinks black coffee every morning" },
    { key: "tea", content: "The user drinks green tea in the evening" },
    { key: "ok", content: "User: ok" },
  ];

  it("credits the result whose distinctive words the reply quotes; shared words show nothing", () => {
    expect(
      attributeReply(results, "The user drinks it black, with coffee beans from Kenya."),
    ).toEqual({ used: ["coffee"], ignored: ["tea"] });
    // "user" and "drinks" are in both results: quoting them credits neither.
    expect(attributeReply(results, "The user drinks a lot.")).toEqual({
      used: [],
      ignored: ["coffee", "tea"],
    });
  });
});

describe("recording usage", () => {
  it("a failing event write is logged and never fails or delays the recall", async () => {
    const driver = new InMemoryDriver();
    const messages: string[] = [];
    const memory = createMemoryFacade(driver, { logger: (message) => messages.push(message) });
    await memory.store({ key: "coffee", content: "black coffee" });
    driver.usage.record = async () => {
      throw new Error("disk full");
    };
    const results = await memory.recall("coffee");
    expect(results.map((entry) => entry.key)).toEqual(["coffee"]);
    expect(results.recallId).toBeDefined();
    await memory.flush();
    expect(messages.join("\n")).toMatch(/1 recall event\(s\) not recorded: disk full/);
    await memory.close();
  });
});
