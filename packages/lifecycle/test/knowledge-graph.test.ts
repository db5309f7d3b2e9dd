import type { Memory } from "@memory/api";
import { MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import {
  buildMemoryContext,
  ChatOutputError,
  knowledgeGraph,
  parseTriple,
  REMEMBER_TRIPLES_SYSTEM_PROMPT,
  remember,
} from "../src/index.js";
import { synthesize } from "../src/mine/synthesize.js";
import { chatModelFor, useChatFixture } from "./support/stores.js";

const chat = useChatFixture();
const { stores } = chat;

const answer = (...facts: unknown[]) => ({ content: JSON.stringify({ facts }) });
const T1 = new Date("2026-03-01T10:00:00.000Z");
const T2 = new Date("2026-06-01T10:00:00.000Z");
const at = (date: Date) => () => date;
const summary = (graph: Awaited<ReturnType<typeof knowledgeGraph>>) =>
  graph.triples.map((triple) => `${triple.subject} ${triple.predicate} ${triple.object}`);

/** Two turns: the user lives in Paris and likes hiking, then moves to Lyon and likes climbing. */
async function moveScenario(memory: Memory) {
  const chatModel = chatModelFor(chat.server.baseURL);
  chat.server.reply(
    answer(
      {
        key: "user_city",
        content: "The user lives in Paris",
        kind: "biographical",
        triples: [{ subject: "user", predicate: "lives_in", object: "Paris" }],
      },
      {
        key: "user_hobby_hiking",
        content: "The user likes hiking",
        kind: "preference",
        triples: [{ subject: "I", predicate: "likes", object: "hiking" }],
      },
    ),
    answer(
      {
        key: "user_city",
        content: "The user lives in Lyon",
        kind: "biographical",
        triples: [{ subject: "user", predicate: "lives_in", object: "Lyon" }],
      },
      {
        key: "user_hobby_climbing",
        content: "The user likes climbing",
        kind: "preference",
        triples: [{ subject: "user", predicate: "likes", object: "climbing" }],
      },
    ),
  );
  const first = await remember(
    memory,
    { userMessage: "I live in Paris and I love hiking" },
    { chatModel, now: at(T1) },
  );
  const second = await remember(
    memory,
    { userMessage: "I moved to Lyon, and took up climbing" },
    { chatModel, now: at(T2) },
  );
  return { first, second };
}

async function expectMoveGraph(memory: Memory) {
  const { first, second } = await moveScenario(memory);
  expect(first.triples.stored.map((triple) => triple.key)).toEqual([
    "triple:user|lives_in|paris",
    "triple:user|likes|hiking",
  ]);
  expect(second.triples.closed.map((triple) => [triple.key, triple.validTo])).toEqual([
    ["triple:user|lives_in|paris", T2.toISOString()],
  ]);
  const now = await knowledgeGraph(memory, "user", { now: at(new Date("2026-07-01T00:00:00Z")) });
  expect(summary(now)).toEqual(["user likes climbing", "user lives_in lyon", "user likes hiking"]);
  const before = await knowledgeGraph(memory, "User", { asOf: "2026-04-01" });
  // Same validFrom: by key.
  expect(summary(before)).toEqual(["user likes hiking", "user lives_in paris"]);
  expect(before.triples[1]).toMatchObject({
    objectName: "Paris",
    validFrom: T1.toISOString(),
    validTo: T2.toISOString(),
  });
  expect((await knowledgeGraph(memory, "me", { asOf: "2026-01-01" })).triples).toEqual([]);
  // The closed triple stays, with its interval, for `asOf` reads.
  const paris = await memory.get("triple:user|lives_in|paris");
  expect(paris?.category).toBe("triple");
  expect(paris && parseTriple(paris)?.validTo).toBe(T2.toISOString());
  // Provenance: each triple is derived from the fact that stated it.
  const edges = await memory.relations("triple:user|lives_in|lyon", { direction: "out" });
  expect(edges.map((edge) => [edge.to, edge.type])).toEqual([["user_city", "derived_from"]]);
  // Triples stay out of recall unless their category is asked for.
  const recalled = await memory.recall("lives_in lyon paris", { limit: 10, minScore: 0 });
  expect(recalled.map((entry) => entry.category)).not.toContain("triple");
  expect(recalled.length).toBeGreaterThan(0);
  const asked = await memory.recall("lives_in lyon", {
    categories: ["triple"],
    limit: 10,
    minScore: 0,
  });
  expect(asked.map((entry) => entry.key)).toContain("triple:user|lives_in|lyon");
  // Nor in the memory context: the fact is there, its triple is not.
  const context = await buildMemoryContext(memory, "Where do I live now, lyon or paris?");
  expect(context.text).toContain("The user lives in Lyon");
  expect(context.text).not.toContain("lives_in");
  expect(context.entries.map((entry) => entry.category)).not.toContain("triple");
}

describe("knowledge-graph triples from remember (loopback OpenAI-compatible server)", () => {
  it("SQLite: a new city closes the old one, likes accumulate, asOf reads before and after", async () => {
    await expectMoveGraph(stores.sqlite());
    expect(chat.server.requests).toHaveLength(2);
    const system = chat.server.requests[0]?.body.messages as { role: string; content: string }[];
    expect(system[0]?.content).toBe(REMEMBER_TRIPLES_SYSTEM_PROMPT);
    expect(system[0]?.content).toContain("lives_in");
  });

  it("PostgreSQL: the same graph", async () => {
    await expectMoveGraph(stores.postgres());
  });

  it("Markdown: the same graph", async () => {
    await expectMoveGraph(stores.markdown());
  });

  it("drops and counts an unknown predicate and a nameless subject; stores the rest", async () => {
    const memory = stores.sqlite();
    chat.server.reply(
      answer({
        key: "user_colour",
        content: "The user's favourite colour is green and they speak Basque",
        kind: "preference",
        triples: [
          { subject: "user", predicate: "favourite_colour", object: "green" },
          { subject: "!!!", predicate: "likes", object: "green" },
          { subject: "user", predicate: "Speaks", object: "Basque" },
        ],
      }),
    );
    const result = await remember(
      memory,
      { userMessage: "Green is my colour; I speak Basque" },
      { chatModel: chatModelFor(chat.server.baseURL), now: at(T1) },
    );
    expect(result.triples.dropped).toEqual({ predicate: 1, name: 1 });
    expect(result.triples.stored.map((triple) => triple.key)).toEqual([
      "triple:user|speaks|basque",
    ]);
    expect(await memory.count({ categories: ["triple"] })).toBe(1);
    expect(result.facts.map((fact) => fact.key)).toEqual(["user_colour"]);
  });

  it("malformed triples in the answer: a typed error, and no fact or triple is stored", async () => {
    const memory = stores.sqlite();
    const malformed = answer({
      content: "The user works at Acme",
      kind: "biographical",
      triples: [{ subject: "user", predicate: "works_at" }],
    });
    chat.server.reply(malformed, malformed);
    const error = await remember(
      memory,
      { userMessage: "I work at Acme" },
      { chatModel: chatModelFor(chat.server.baseURL), now: at(T1) },
    ).catch((caught: unknown) => caught);
    expect(ChatOutputError.isInstance(error)).toBe(true);
    expect((error as ChatOutputError).problems.join(" ")).toMatch(/facts\.0\.triples\.0\.object/);
    expect(await memory.count({ categories: ["triple"] })).toBe(0);
    expect(await memory.count({ categories: ["core"] })).toBe(0);
  });

  it("the same triple said again is confirmed, not duplicated; a value that returns gets a new entry", async () => {
    const memory = stores.sqlite();
    const city = (name: string) =>
      answer({
        key: "user_city",
        content: `The user lives in ${name}`,
        kind: "biographical",
        triples: [{ subject: "user", predicate: "lives_in", object: name }],
      });
    chat.server.reply(city("Paris"), city("Paris"), city("Lyon"), city("Paris"));
    const chatModel = chatModelFor(chat.server.baseURL);
    const times = ["2026-01-01", "2026-02-01", "2026-03-01", "2026-04-01"].map(
      (day) => new Date(`${day}T00:00:00.000Z`),
    );
    const results = [];
    for (const time of times)
      results.push(
        await remember(memory, { userMessage: "where I live" }, { chatModel, now: at(time) }),
      );
    expect(results[1]?.triples).toMatchObject({ confirmed: 1, stored: [] });
    expect(results[3]?.triples.stored.map((triple) => triple.key)).toEqual([
      "triple:user|lives_in|paris@2026-04-01T00:00:00.000Z",
    ]);
    expect(await memory.count({ categories: ["triple"] })).toBe(3);
    const graph = (asOf: string) =>
      knowledgeGraph(memory, "user", { asOf }).then((found) => summary(found));
    expect(await graph("2026-02-15")).toEqual(["user lives_in paris"]);
    expect(await graph("2026-03-15")).toEqual(["user lives_in lyon"]);
    expect(await graph("2026-04-15")).toEqual(["user lives_in paris"]);
  });

  it("triples: false leaves them out of the prompt and the store", async () => {
    const memory = stores.sqlite();
    chat.server.reply(
      answer({
        content: "The user lives in Oslo",
        kind: "biographical",
        triples: [{ subject: "user", predicate: "lives_in", object: "Oslo" }],
      }),
    );
    const result = await remember(
      memory,
      { userMessage: "I live in Oslo" },
      { chatModel: chatModelFor(chat.server.baseURL), triples: false },
    );
    expect(result.triples.stored).toEqual([]);
    expect(await memory.count({ categories: ["triple"] })).toBe(0);
    const system = chat.server.requests[0]?.body.messages as { content: string }[];
    expect(system[0]?.content).not.toContain("lives_in");
  });
});

describe("knowledge-graph triples from mine --synthesize", () => {
  it("conversations mined out of order: the older value ends where the newer one starts", async () => {
    const memory = stores.sqlite();
    await memory.store({ key: "chat-b/1", content: "I joined Acme", category: "conversation" });
    await memory.store({ key: "chat-a/1", content: "I work at Initech", category: "conversation" });
    const job = (company: string) =>
      answer({
        content: `Melanie works at ${company}`,
        kind: "milestone",
        exchange: 1,
        triples: [
          { subject: "Melanie's", predicate: "works_at", object: company },
          { subject: "Melanie", predicate: "friend", object: `${company} Bob` },
        ],
      });
    chat.server.reply(job("Acme"), job("Initech"));
    const report = await synthesize(
      memory,
      [
        {
          sessionId: "b",
          namespace: "default",
          exchanges: [
            { key: "chat-b/1", content: "I joined Acme", createdAt: "2026-05-01T00:00:00.000Z" },
          ],
        },
        {
          sessionId: "a",
          namespace: "default",
          exchanges: [
            {
              key: "chat-a/1",
              content: "I work at Initech",
              createdAt: "2025-01-01T00:00:00.000Z",
            },
          ],
        },
      ],
      { chatModel: chatModelFor(chat.server.baseURL) },
    );
    expect(report).toMatchObject({ extracted: 2, saved: 2, failed: 0 });
    expect(report.triples.stored).toHaveLength(4);
    expect(report.triples.stored[2]).toMatchObject({
      subject: "melanie",
      object: "initech",
      validFrom: "2025-01-01T00:00:00.000Z",
      validTo: "2026-05-01T00:00:00.000Z",
    });
    expect(report.triples.closed).toEqual([]);
    const graph = (asOf: string) =>
      knowledgeGraph(memory, "Melanie", { asOf }).then((found) => summary(found));
    expect(await graph("2025-06-01")).toEqual([
      "melanie friend initech bob",
      "melanie works_at initech",
    ]);
    expect(await graph("2026-06-01")).toEqual([
      "melanie friend acme bob",
      "melanie works_at acme",
      "melanie friend initech bob",
    ]);
    // The object side: the triples about Acme name it as their object.
    expect(summary(await knowledgeGraph(memory, "the Acme", { asOf: "2026-06-01" }))).toEqual([
      "melanie works_at acme",
    ]);
  });
});

describe("knowledgeGraph input", () => {
  it("an empty entity, a nameless one and a bad asOf are INVALID_INPUT", async () => {
    const memory = stores.sqlite();
    for (const call of [
      () => knowledgeGraph(memory, "  "),
      () => knowledgeGraph(memory, "1234"),
      () => knowledgeGraph(memory, "Melanie", { asOf: "yesterday" }),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(MemoryError.hasCode(error, "INVALID_INPUT")).toBe(true);
    }
  });
});
