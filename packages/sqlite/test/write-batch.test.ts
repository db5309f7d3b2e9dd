import { createTestEmbedder } from "@memory/testkit";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

const CONFLICTS = { conflictMode: "combined" } as const;

describe("store with conflict detection on SQLite: one transaction, one embedding", () => {
  it("leaves neither the entry nor its supersession when the write batch fails", async () => {
    const path = tempDbPath();
    await using memory = createSqliteMemory({
      path,
      embedder: createTestEmbedder({ dimensions: 256 }),
      ...CONFLICTS,
    });
    await memory.store({ key: "diet-1", content: "The user is vegetarian" });
    // Another connection makes every supersession fail, as a full disk or a crash would mid-batch:
    // the supersession runs after the new entry's insert, in the same transaction.
    const other = new Database(path);
    other
      .prepare(
        `CREATE TRIGGER refuse_supersession BEFORE UPDATE OF superseded_by ON memories
         BEGIN SELECT RAISE(ABORT, 'supersession refused'); END`,
      )
      .run();
    await expect(
      memory.store({ key: "diet-2", content: "The user is not vegetarian" }),
    ).rejects.toThrow(/supersession refused/);
    expect(await memory.get("diet-2")).toBeNull();
    expect((await memory.get("diet-1"))!.supersededBy).toBeUndefined();
    expect(await memory.count({ includeSuperseded: true })).toBe(1);
    // Without the trigger the same store writes both, in one batch.
    other.prepare("DROP TRIGGER refuse_supersession").run();
    other.close();
    const newer = await memory.store({ key: "diet-2", content: "The user is not vegetarian" });
    expect(newer.conflict!.superseded).toEqual(["diet-1"]);
    expect((await memory.get("diet-1"))!.supersededBy).toBe("diet-2");
  });

  it("embeds the text of a conflict-checked store once, and its vector is stored", async () => {
    const embedder = createTestEmbedder({ dimensions: 256 });
    await using memory = createSqliteMemory({ path: tempDbPath(), embedder, ...CONFLICTS });
    await memory.store({ key: "editor-1", content: "The user's favourite editor is Vim" });
    const before = embedder.calls;
    const newer = await memory.store({
      key: "editor-2",
      content: "The user's favourite editor is now Neovim",
    });
    expect(newer.conflict!.superseded).toEqual(["editor-1"]);
    expect(newer.conflict!.candidates[0]!.cosine).toBeGreaterThan(0);
    expect(embedder.calls - before).toBe(1);
    expect((await memory.get("editor-2", { withEmbedding: true }))!.embedding).toHaveLength(256);
    expect((await memory.healthCheck()).pendingEmbeddings).toBe(0);
  });
});
