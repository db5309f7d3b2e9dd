import { createTestEmbedder } from "@memory/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresMemory } from "../src/index.js";
import { admin, schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("batch");
afterAll(() => schemas.dropAll());

const CONFLICTS = { conflictMode: "combined" } as const;

describe("store with conflict detection on PostgreSQL: one transaction, one embedding", () => {
  it("leaves neither the entry nor its supersession when the write batch fails", async () => {
    const schema = schemas.next();
    await using memory = createPostgresMemory({
      connectionString: TEST_URL,
      schema,
      embedder: createTestEmbedder({ dimensions: 256 }),
      ...CONFLICTS,
    });
    await memory.store({ key: "diet-1", content: "The user is vegetarian" });
    // Another session makes every supersession fail, as a full disk or a lost connection would
    // mid-batch: the supersession runs after the new entry's upsert, in the same transaction.
    await admin(
      `CREATE FUNCTION "${schema}".refuse_supersession() RETURNS trigger LANGUAGE plpgsql AS
       $$ BEGIN RAISE EXCEPTION 'supersession refused'; END $$`,
    );
    await admin(
      `CREATE TRIGGER refuse_supersession BEFORE UPDATE OF superseded_by ON "${schema}".memories
       FOR EACH ROW WHEN (NEW.superseded_by IS NOT NULL)
       EXECUTE FUNCTION "${schema}".refuse_supersession()`,
    );
    await expect(
      memory.store({ key: "diet-2", content: "The user is not vegetarian" }),
    ).rejects.toThrow(/supersession refused/);
    expect(await memory.get("diet-2")).toBeNull();
    expect((await memory.get("diet-1"))!.supersededBy).toBeUndefined();
    expect(await memory.count({ includeSuperseded: true })).toBe(1);
    // Without the trigger the same store writes both, in one batch.
    await admin(`DROP TRIGGER refuse_supersession ON "${schema}".memories`);
    const newer = await memory.store({ key: "diet-2", content: "The user is not vegetarian" });
    expect(newer.conflict!.superseded).toEqual(["diet-1"]);
    expect((await memory.get("diet-1"))!.supersededBy).toBe("diet-2");
  });

  it("embeds the text of a conflict-checked store once, and its vector is stored", async () => {
    const embedder = createTestEmbedder({ dimensions: 256 });
    await using memory = createPostgresMemory({
      connectionString: TEST_URL,
      schema: schemas.next(),
      embedder,
      ...CONFLICTS,
    });
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

  it("keeps an entry's id and creation time when it is stored again, even by two stores at once", async () => {
    await using memory = createPostgresMemory({
      connectionString: TEST_URL,
      schema: schemas.next(),
    });
    const [a, b] = await Promise.all([
      memory.store({ key: "same", content: "first writer" }),
      memory.store({ key: "same", content: "second writer" }),
    ]);
    // The later upsert waited for the earlier one's row, then updated it: one id, one creation.
    expect(b.id).toBe(a.id);
    expect(b.createdAt).toBe(a.createdAt);
    const again = await memory.store({ key: "same", content: "third writer" });
    expect(again.id).toBe(a.id);
    expect(again.createdAt).toBe(a.createdAt);
  });
});
