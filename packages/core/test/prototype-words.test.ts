import { describe, expect, it } from "vitest";
import { createInMemoryDriver, createMemoryFacade, readFact } from "../src/index.js";

// Words that are also names of Object.prototype's members: looked up in a plain object literal,
// "constructor" found the Object function (a store of "... said the constructor" threw in the
// conflict check and was lost). Every word table is now without a prototype (lookup-table.ts).
const WORDS = Object.getOwnPropertyNames(Object.prototype).filter((name) => /^[a-z]/i.test(name));

describe("words named like Object.prototype's members", () => {
  it("are read as words in facts", () => {
    expect(WORDS).toContain("constructor");
    for (const word of WORDS) {
      for (const text of [
        `My favourite colour is grey, said the ${word}`,
        `The ${word} moved to Rome`,
        `I am a ${word}`,
        `My ${word} is ${word}`,
        `The user's ${word.toLowerCase()} ${word.toLowerCase()}s every day`,
      ]) {
        const fact = readFact(text);
        // Nothing read from the text is a function's source.
        expect(JSON.stringify(fact)).not.toContain("native code");
      }
    }
  });

  it("are stored, conflict-checked, recalled and related like any other", async () => {
    await using memory = createMemoryFacade(createInMemoryDriver(), {
      settings: { searchMode: "bm25", graphExpansion: true },
      logger: () => {},
    });
    await memory.store({ key: "colour", content: "My favourite colour is blue" });
    for (const [index, word] of WORDS.entries()) {
      await memory.store({
        key: `said-${index}`,
        content: `My favourite colour is grey, said the ${word}`,
      });
    }
    expect(await memory.count()).toBeGreaterThanOrEqual(WORDS.length);
    await memory.relate("said-0", "colour", "constructor");
    const found = await memory.recall("favourite colour constructor", { limit: 5, minScore: 0 });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((entry) => Number.isFinite(entry.score))).toBe(true);
  });
});
