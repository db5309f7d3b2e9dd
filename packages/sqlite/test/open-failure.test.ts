import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

describe("open failures", () => {
  it("names the file when it is not a database", async () => {
    const path = join(tempDir(), "brain.db");
    writeFileSync(path, "this is not a sqlite database, just text ".repeat(200));
    const memory = createSqliteMemory({ path });
    const error = await memory.store({ key: "k", content: "v" }).catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "BACKEND_UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toMatch(/not a database/);
    await memory.close();
  });

  it("names the file when its directory cannot be created", async () => {
    const blocker = join(tempDir(), "file");
    writeFileSync(blocker, "x");
    const path = join(blocker, "memory", "brain.db");
    const error = await createSqliteMemory({ path })
      .count()
      .catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "BACKEND_UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toContain(path);
  });

  it("falls back to the none backend, loudly, with fallbackToNone", async () => {
    const path = join(tempDir(), "brain.db");
    writeFileSync(path, "garbage ".repeat(1000));
    const logged: string[] = [];
    const memory = createSqliteMemory({
      path,
      fallbackToNone: true,
      logger: (message) => logged.push(message),
    });
    await expect(memory.store({ key: "k", content: "v" })).resolves.toMatchObject({ key: "k" });
    expect(await memory.recall("v")).toEqual([]);
    expect(memory.name).toBe("none");
    const health = await memory.healthCheck();
    expect(health).toMatchObject({ ok: false, backend: "none" });
    expect(logged.join("\n")).toMatch(/NONE BACKEND.*brain\.db/);
    await memory.close();
  });
});
