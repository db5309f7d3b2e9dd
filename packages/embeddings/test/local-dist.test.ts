/**
 * The built package: dist/local.mjs must find dist/use-lite-worker.mjs next to itself and run it
 * with plain Node (no tsx). Fails, saying what to build, when dist/ is missing: a silent skip
 * would let CI pass without ever testing what users install.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Worker } from "node:worker_threads";
import { beforeAll, describe, expect, it } from "vitest";
import type * as LocalModule from "../src/local/index.js";

const run = promisify(execFile);
const distLocal = new URL("../dist/local.mjs", import.meta.url);
const distWorker = new URL("../dist/use-lite-worker.mjs", import.meta.url);

function requireBuilt(): void {
  const missing = [distLocal, distWorker]
    .map((url) => fileURLToPath(url))
    .filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `${missing.join(" and ")} missing: build @memory/embeddings first (\`pnpm exec turbo run build --filter @memory/embeddings\`, or \`npx tsdown\` in packages/embeddings).`,
    );
  }
}

function dot(a: number[], b: number[]): number {
  return a.reduce((sum, value, index) => sum + value * (b[index] as number), 0);
}

describe("local provider from the built package (dist/)", () => {
  beforeAll(requireBuilt);

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
  }, 120_000); // starts a worker and loads the model: sized for a busy 2-core machine

  it("runs under plain node and lets the process exit while the worker is idle", async () => {
    const script = `
      const { createLocalEmbeddings } = await import(${JSON.stringify(distLocal.href)});
      const provider = createLocalEmbeddings();
      const [vector] = await provider.embed(["built and exiting"]);
      console.log(vector.length);
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      // Kills a hung child before the test's own timeout; a loaded machine needs far less.
      timeout: 100_000,
    });
    expect(stdout.trim()).toBe("512");
  }, 120_000);
});
