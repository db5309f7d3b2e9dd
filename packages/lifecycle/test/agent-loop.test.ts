import type { Memory } from "@memory/api";
import { createTestEmbedder } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { autosaveTurn, buildMemoryContext, discoveryQuery } from "../src/index.js";
import { realBackends } from "./real-backends.js";

/** The README's loop: the context before the message, the turn autosaved after the reply. */
async function turn(
  memory: Memory,
  userMessage: string,
  assistantReply: string,
  sessionId: string,
) {
  const context = await buildMemoryContext(memory, userMessage, { sessionId });
  await autosaveTurn(memory, { userMessage, assistantReply, sessionId });
  return context;
}

const contents = (context: { entries: { content: string }[] }) =>
  context.entries.map((entry) => entry.content).join("\n");

describe.each(realBackends())("the agent loop on %s", (_name, open) => {
  it("keeps the user's facts current across sessions and never shows filler replies", async () => {
    const memory = open({ embedder: createTestEmbedder() });
    await turn(memory, "I live in Berlin with my wife Anna.", "Sure, noted!", "s1");
    await turn(memory, "My sister Maya lives in Hamburg.", "Got it.", "s1");
    await turn(memory, "I work at Acme as a backend engineer.", "Great, thanks!", "s1");
    await turn(memory, "We moved to Munich last month.", "Sure, noted!", "s2");

    // a new conversation gets the same memory: the session id identifies, it does not filter
    const context = await buildMemoryContext(memory, "Where do I live now?", { sessionId: "s3" });
    const text = contents(context);
    expect(text).toContain("Munich");
    expect(text).not.toContain("I live in Berlin");
    expect(text).not.toMatch(/Sure, noted|Got it|Great, thanks/);

    const work = await buildMemoryContext(memory, "Where does the user work?", { sessionId: "s3" });
    expect(contents(work)).toContain("Acme");
    expect(contents(work)).not.toMatch(/Sure, noted|Got it|Great, thanks/);
  });

  it("promotes a changed fact without trigger words and reports what it superseded", async () => {
    const memory = open();
    const first = await autosaveTurn(memory, { userMessage: "I drink coffee every morning." });
    expect(first.promoted.map((entry) => entry.category)).toEqual(["core"]);
    const second = await autosaveTurn(memory, { userMessage: "I quit coffee last week." });
    expect(second.superseded).toEqual([first.promoted[0]!.key]);
    const questions = await autosaveTurn(memory, { userMessage: "What should I drink instead?" });
    expect(questions.promoted).toEqual([]);
  });

  it("reads a follow-up with the session's previous message, and fails open", async () => {
    const memory = open();
    await autosaveTurn(
      memory,
      { userMessage: "Maya works as a paediatric nurse in Hamburg.", sessionId: "facts" },
      { promote: false },
    );
    await autosaveTurn(memory, {
      userMessage: "What does Maya do for a living?",
      sessionId: "chat",
    });
    const query = await discoveryQuery(memory, "and where does she work?", {
      sessionId: "chat",
      now: new Date(),
    });
    expect(query.split("\n")).toEqual([
      "and where does she work?",
      "What does Maya do for a living?",
    ]);
    const broken = { list: () => Promise.reject(new Error("disk gone")) };
    await expect(
      discoveryQuery(broken, "and where does she work?", { sessionId: "chat", now: new Date() }),
    ).resolves.toBe("and where does she work?");
    const context = await buildMemoryContext(memory, "and where does she work?", {
      sessionId: "chat",
    });
    expect(contents(context)).toContain("Hamburg");
  });

  it("gives no context to a question about a name it never heard of", async () => {
    const memory = open();
    await turn(memory, "I went hiking with my sister Maya last weekend.", "Nice!", "s1");
    await turn(memory, "Maya loves the mountains near Innsbruck.", "Noted.", "s1");
    const known = await buildMemoryContext(memory, "Where did Maya go hiking?");
    expect(contents(known)).toContain("hiking");
    // shares "hiking" and "weekend", but the store never heard of John
    const unknown = await buildMemoryContext(memory, "Where did John go hiking last weekend?");
    expect(unknown.entries).toEqual([]);
    // a statement naming a newcomer still gets what matches it
    const statement = await buildMemoryContext(
      memory,
      "John went hiking with my sister Maya last weekend.",
    );
    expect(contents(statement)).toContain("hiking");
  });

  it("keeps what a turn told before it asked, and leaves out a turn that only asks", async () => {
    const memory = open();
    await turn(
      memory,
      "I've got lots of kids' books, mostly classics. What's your favourite?",
      "Dune!",
      "s1",
    );
    await turn(memory, "Wow! Which books do you like?", "Mostly novels.", "s1");
    const context = await buildMemoryContext(memory, "Which kids' books do I have?");
    expect(contents(context)).toContain("kids' books");
    expect(contents(context)).not.toContain("Which books do you like");
  });

  it("promotes each clause of a compound fact, so a change leaves the other clause current", async () => {
    const memory = open();
    const saved = await autosaveTurn(memory, {
      userMessage:
        "My sister Clara lives in Hamburg and works as a nurse at the university hospital.",
    });
    expect(saved.promoted.map((entry) => entry.content)).toEqual([
      "My sister Clara lives in Hamburg",
      "My sister Clara works as a nurse at the university hospital.",
    ]);
    const promoted = await autosaveTurn(memory, {
      userMessage: "Clara got promoted to head nurse of the cardiology ward.",
    });
    expect(promoted.superseded).toEqual([saved.promoted[1]!.key]);
    const job = contents(await buildMemoryContext(memory, "What does my sister do for a living?"));
    expect(job).toContain("head nurse of the cardiology ward");
    // the turn that told the old job is as stale as the old job
    expect(job).not.toContain("works as a nurse at the university hospital");
    const city = contents(await buildMemoryContext(memory, "Where does Clara live?"));
    expect(city).toContain("Clara lives in Hamburg");
  });

  it("leaves out the current conversation's last turns: the agent has them already", async () => {
    const memory = open();
    await turn(memory, "Let's talk about my garden in Graz.", "Sure!", "chat");
    const context = await buildMemoryContext(memory, "What about my garden in Graz?", {
      sessionId: "chat",
    });
    expect(contents(context)).not.toContain("Let's talk about my garden");
    const later = await buildMemoryContext(memory, "What about my garden in Graz?", {
      sessionId: "another",
    });
    expect(contents(later)).toContain("my garden in Graz");
  });

  it("answers a question for a kind of thing with the user's facts of that kind", async () => {
    const memory = open();
    await turn(memory, "I'm learning Spanish on Duolingo every evening.", "Nice!", "s1");
    await turn(memory, "My colleague Marco plays football every Wednesday.", "Noted.", "s1");
    await turn(memory, "I gave up Spanish and started Italian.", "Got it.", "s2");
    const context = await buildMemoryContext(memory, "Which language am I learning?");
    expect(context.entries[0]!.content).toContain("Italian");
    expect(contents(context)).not.toContain("learning Spanish");
    const sport = await buildMemoryContext(memory, "What sport do I do?");
    expect(contents(sport)).not.toContain("Marco");
  });
});
