import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createMarkdownMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function run(
  script: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", fixture(script), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** What the writer fixture leaves for `prefix`: key -> content. */
function expectedOf(prefix: string, count: number): Map<string, string> {
  const expected = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    expected.set(
      `${prefix}-${i}`,
      `entry ${i} ${i % 3 === 0 ? "updated" : "written"} by ${prefix}`,
    );
    if (i % 5 === 4) expected.delete(`${prefix}-${i - 1}`);
  }
  return expected;
}

describe("several processes and a person editing one file", () => {
  it.each(["noindex", "index"])(
    "loses no library write and no editor save when the editor follows the lock protocol (%s)",
    async (index) => {
      const root = tempDir();
      const count = 120;
      const [a, b, editor] = await Promise.all([
        run("writer.ts", [root, "a", String(count), index]),
        run("writer.ts", [root, "b", String(count), index]),
        run("editor.ts", [root, "80", "7"]),
      ]);
      for (const result of [a, b, editor]) {
        expect(result.stderr).toBe("");
        expect(result.code).toBe(0);
      }
      const edited = JSON.parse(editor.stdout.replace(/^done /, "")) as string[];
      expect(edited).toHaveLength(80);
      const text = readFileSync(join(root, "MEMORY.md"), "utf8");
      for (const line of edited) expect(text).toContain(`${line}\n`);
      const memory = createMarkdownMemory({ root, index: index === "index" });
      const expected = new Map([...expectedOf("a", count), ...expectedOf("b", count)]);
      const all = await memory.list({ limit: 10_000 });
      expect(new Map(all.map((entry) => [entry.key, entry.content]))).toEqual(expected);
      expect(await memory.problems()).toEqual([]);
      if (index === "index") {
        // The index the processes kept up to date agrees with the files.
        expect(await memory.indexStatus()).toMatchObject({ current: true });
        const found = await memory.recall("written", { mode: "bm25", limit: 1000, minScore: 0 });
        expect(new Set(found.map((entry) => entry.key))).toEqual(
          new Set(
            [...expected].filter(([, content]) => content.includes("written")).map(([key]) => key),
          ),
        );
      }
      await memory.close();
    },
    600_000,
  );

  it("never overwrites an editor's save that lands between the library's read and its write", async () => {
    const root = tempDir();
    let edits = 0;
    const memory = createMarkdownMemory({
      root,
      index: false,
      // The editor saves (without the lock) after the library read the file and prepared its
      // write: the compare-and-swap must see it and write again on top of the save.
      beforeCommit: () => {
        if (edits >= 3) return;
        edits++;
        const file = join(root, "MEMORY.md");
        let text = "";
        try {
          text = readFileSync(file, "utf8");
        } catch {}
        writeFileSync(file, `${text}Saved by the editor ${edits}\n`);
      },
    });
    await memory.store({ key: "k1", content: "first" });
    await memory.store({ key: "k2", content: "second" });
    await memory.forget("k1");
    const text = readFileSync(join(root, "MEMORY.md"), "utf8");
    for (const n of [1, 2, 3]) expect(text).toContain(`Saved by the editor ${n}\n`);
    expect((await memory.list()).map((entry) => entry.key)).toEqual(["k2"]);
    await memory.close();
  });
});
