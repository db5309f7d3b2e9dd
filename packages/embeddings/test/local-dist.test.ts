/**
 * The built package: dist/local.mjs must find dist/use-lite-worker.mjs next to itself and run it
 * with plain Node (no tsx). Skipped until `npx tsdown` has produced dist/.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import type * as LocalModule from "../src/local/index.js";

const run = promisify(execFile);
const distLocal = new URL("../dist/local.mjs", import.meta.url);
const distWorker = new URL("../dist/use-lite-worker.mjs", import.meta.url);
const built = existsSync(fileURLToPath(distLocal)) && existsSync(fileURLToPath(distWorker));

function dot(a: number[], b: number[]): number {
  return a.reduce((sum, value, index) => sum + value * (b[index] as number), 0);
}

describe.skipIf(!built)("local provider from the built package (dist/)", () => {
  it("embeds in dist/use-lite-worker.mjs without blocking the caller", async () => {
    const local = (await import(distLocal.href)) as typeof LocalModule;
    const provider = local.createLocalEmbeddings();
    try {
      let ticks = 0;
      let done = false;
      const tick = (): void => {
        ticks++;
        if (!done) setTimeout(tick, 0);
      };
      setTimeout(tick, 0);
      const [car, automobile, bananas] = await provider.embed([
        "The car would not start this morning.",
        "My automobile failed to start today.",
        "Bananas are rich in potassium.",
      ]);
      done = true;
      // The first call also starts the worker and loads the model, all off this thread.
      expect(ticks).toBeGreaterThan(20);
      expect(dot(car!, automobile!)).toBeGreaterThan(dot(car!, bananas!) + 0.3);
      const worker = (provider as unknown as { worker?: { handle: Worker } }).worker?.handle;
      expect(worker).toBeDefined();
      expect(provider.fingerprint).toBe("local:use-lite:512");
    } finally {
      await provider.close();
    }
  }, 60_000);

  it("runs under plain node and lets the process exit while the worker is idle", async () => {
    const script = `
      const { createLocalEmbeddings } = await import(${JSON.stringify(distLocal.href)});
      const provider = createLocalEmbeddings();
      const [vector] = await provider.embed(["built and exiting"]);
      console.log(vector.length);
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      timeout: 45_000,
    });
    expect(stdout.trim()).toBe("512");
  }, 60_000);
});
