import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { exchangeKey, mineConversations } from "../src/index.js";
import { storeFactory } from "./support/stores.js";

const stores = storeFactory();
afterEach(() => stores.cleanup());
const folder = fileURLToPath(new URL("./fixtures/mine/", import.meta.url));
const codex = fileURLToPath(new URL("./fixtures/mine/codex-rollout.jsonl", import.meta.url));
const EXCHANGES = 15;

describe.each([
  ["markdown", () => stores.markdown()],
  ["postgres", () => stores.postgres()],
] as const)("mine on %s through the library", (_name, open) => {
  it("imports every fixture with its own times, and a rerun changes no count", async () => {
    const memory = open();
    const report = await mineConversations(memory, [folder]);
    expect(report).toMatchObject({ exchanges: EXCHANGES, stored: EXCHANGES });
    expect(await memory.count()).toBe(EXCHANGES);
    const entry = await memory.get(exchangeKey(codex, "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5", 1));
    expect(entry).toMatchObject({
      content: "User: Fix it.\nAssistant: Fixed: the parser keeps the offset now.",
      category: "conversation",
      sessionId: "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5",
      createdAt: "2025-10-29T08:05:00.000Z",
      updatedAt: "2025-10-29T08:06:00.000Z",
    });
    const again = await mineConversations(memory, [folder]);
    expect(again.stored).toBe(EXCHANGES);
    expect(await memory.count()).toBe(EXCHANGES);
  });
});
