import type { EmbeddingProvider, Memory } from "@memory/api";
import { createTestEmbedder, InMemoryMemory } from "@memory/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalEmbeddings, type LocalEmbeddingProvider } from "../src/local/index.js";

/**
 * The default thresholds (min_score 0.3 for recall, 0.4 for the memory context) on a realistic
 * personal store, through the shared recall engine (the reference backend runs the same engine
 * as SQLite and PostgreSQL): unrelated questions get nothing, related ones get their memory.
 */
const FACTS: Record<string, string> = {
  dog: "The user has a dog named Rex, a three-year-old beagle.",
  job: "The user works as a nurse at the Lyon university hospital.",
  coffee: "The user drinks dark roast coffee every morning, no sugar.",
  allergy: "The user is allergic to peanuts.",
  sister: "The user's sister Anna lives in Toronto.",
  editor: "The user writes code in Neovim with a custom Lua config.",
  car: "The user drives a blue 2019 Toyota Corolla.",
  birthday: "The user's birthday is on March 14.",
  language: "The user is learning Japanese and practises every evening.",
  running: "The user runs a half marathon every spring.",
  diet: "The user has been vegetarian since 2015.",
  music: "The user plays the cello in a community orchestra.",
  travel: "Next summer the user plans a trip to Iceland.",
  meeting: "The weekly team meeting moved to Thursdays at 10 am.",
  password: "The user keeps passwords in a password manager, never in notes.",
};

const RELATED: [question: string, key: string][] = [
  ["What is the name of my dog?", "dog"],
  ["Where do I work?", "job"],
  ["How do I take my coffee?", "coffee"],
  ["Am I allergic to anything?", "allergy"],
  ["Which city does my sister live in?", "sister"],
  ["What editor do I use for code?", "editor"],
  ["What car do I drive?", "car"],
  ["When is my birthday?", "birthday"],
  ["Which language am I learning?", "language"],
  ["When is the team meeting?", "meeting"],
];

const UNRELATED = [
  "quantum chromodynamics lecture notes",
  "How tall is the Eiffel Tower?",
  "Explain the rules of cricket",
  "What is the capital of Australia?",
  "Recommend a recipe for lemon cheesecake",
  "photosynthesis in desert succulents",
];

async function storeFacts(embedder: EmbeddingProvider): Promise<Memory> {
  const memory = new InMemoryMemory({ embedder });
  for (const [key, content] of Object.entries(FACTS)) await memory.store({ key, content });
  return memory;
}

function checks(name: string, embedder: () => EmbeddingProvider) {
  describe(`default thresholds with the ${name} embedder`, () => {
    let memory: Memory;
    beforeAll(async () => {
      memory = await storeFacts(embedder());
    }, 120_000);

    it("returns nothing for unrelated questions (min_score 0.3)", async () => {
      for (const question of UNRELATED) {
        const results = await memory.recall(question);
        expect(
          results.map((entry) => `${entry.key} ${entry.score?.toFixed(3)}`),
          question,
        ).toEqual([]);
      }
    });

    it("returns the memory a related question is about, first (min_score 0.3 and 0.4)", async () => {
      for (const [question, key] of RELATED) {
        const results = await memory.recall(question);
        expect(results[0]?.key, question).toBe(key);
        const context = await memory.recall(question, { minScore: 0.4 });
        expect(context[0]?.key, `${question} (memory context threshold)`).toBe(key);
      }
    });
  });
}

let local: LocalEmbeddingProvider;
beforeAll(async () => {
  local = createLocalEmbeddings();
  await local.init();
}, 120_000);
afterAll(async () => {
  await local.close();
});

checks("offline local (USE lite)", () => local);
checks("test", () => createTestEmbedder({ dimensions: 256 }));
