import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { SCHEMA_VERSION } from "../src/migrations/schema.js";
import { tempDbPath } from "./helpers.js";

describe("schema v9: relations", () => {
  it("upgrades a v8 file on open: every row kept, relations stored and cascaded from then on", async () => {
    const path = tempDbPath();
    const first = createSqliteMemory({ path, logger: () => {} });
    await first.store({ key: "cause", content: "The server ran out of disk" });
    await first.store({ key: "effect", content: "The nightly backup failed" });
    await first.close();
    // The file as v8 left it: no relations table, no cleanup trigger.
    const raw = new Database(path);
    raw.exec(`DROP TRIGGER memories_relations_cleanup; DROP TABLE relations;
      UPDATE meta SET value = '8' WHERE key = 'schema_version';`);
    raw.close();

    const memory = createSqliteMemory({ path, logger: () => {} });
    expect((await memory.get("cause"))!.content).toBe("The server ran out of disk");
    expect(await memory.count()).toBe(2);
    await memory.relate("cause", "effect", "causes", { weight: 0.8 });
    expect(await memory.relations("effect", { direction: "in" })).toMatchObject([
      { from: "cause", to: "effect", type: "causes", weight: 0.8 },
    ]);
    await memory.forget("effect");
    expect(await memory.relations("cause")).toEqual([]);
    await memory.close();
    const check = new Database(path, { readonly: true });
    expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(SCHEMA_VERSION),
    });
    expect(check.prepare("SELECT count(*) AS n FROM relations").get()).toEqual({ n: 0 });
    check.close();
  });

  it("keeps an edge's metadata as JSON and refuses SQL in keys and types as plain data", async () => {
    const memory = createSqliteMemory({ path: tempDbPath(), logger: () => {} });
    const key = "x'); DROP TABLE relations; --";
    await memory.store({ key, content: "a hostile key" });
    await memory.store({ key: "plain", content: "a plain key" });
    await memory.relate(key, "plain", "mentions", { metadata: { quote: 'it\'s "fine"' } });
    expect(await memory.relations("plain")).toMatchObject([
      { from: key, metadata: { quote: 'it\'s "fine"' } },
    ]);
    await memory.close();
  });
});
