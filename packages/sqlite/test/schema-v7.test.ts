import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { SCHEMA_VERSION } from "../src/migrations/schema.js";
import { tempDbPath } from "./helpers.js";

describe("schema v7: decision records", () => {
  it("upgrades a v6 file on open: rows kept without a record, new decisions recorded", async () => {
    const path = tempDbPath();
    const first = createSqliteMemory({ path, logger: () => {} });
    await first.store({ key: "diet-1", content: "The user is vegetarian" });
    await first.store({ key: "diet-2", content: "The user is not vegetarian" });
    await first.close();
    // The file as v6 left it: no record columns (the mark itself is older than v7).
    const raw = new Database(path);
    raw.exec(`ALTER TABLE memories DROP COLUMN conflict_record;
      ALTER TABLE memories DROP COLUMN supersession_record;
      UPDATE meta SET value = '6' WHERE key = 'schema_version';`);
    raw.close();

    const memory = createSqliteMemory({ path, logger: () => {} });
    const old = await memory.get("diet-1");
    expect(old).toMatchObject({ content: "The user is vegetarian", supersededBy: "diet-2" });
    expect(old!.supersessionRecord).toBeUndefined();
    expect((await memory.get("diet-2"))!.conflictRecord).toBeUndefined();
    await memory.store({ key: "home-1", content: "The user lives in Berlin" });
    const newer = await memory.store({ key: "home-2", content: "The user lives in Munich" });
    expect((await memory.get("home-2"))!.conflictRecord).toEqual(newer.conflictRecord);
    expect((await memory.get("home-1"))!.supersessionRecord).toMatchObject({ by: "home-2" });
    await memory.close();
    const check = new Database(path, { readonly: true });
    // Upgraded through v7 to the current version.
    expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(SCHEMA_VERSION),
    });
    check.close();
  });
});
