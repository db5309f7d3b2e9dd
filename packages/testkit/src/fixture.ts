import type { EmbeddingProvider, Memory, RetrievalSettings } from "@memory/api";
import { afterEach, expect } from "vitest";
import type { ConformanceOptions, FactoryContext, SharedStore } from "./conformance-options.js";
import { requireFeature, UnmetDeclarationError } from "./declarations.js";

/**
 * Tracks the instances a group opens and closes them after each test, so a failing assertion
 * never leaks a file handle or a connection pool.
 */
export function useInstances(options: ConformanceOptions) {
  const open: Memory[] = [];
  afterEach(async () => {
    await Promise.allSettled(open.splice(0).map((memory) => memory.close()));
  });
  const create = async (
    embedder?: EmbeddingProvider,
    settings?: Partial<RetrievalSettings>,
  ): Promise<Memory> => {
    const memory = await options.create({
      ...(embedder ? { embedder } : {}),
      ...(settings ? { settings } : {}),
    });
    open.push(memory);
    return memory;
  };
  return {
    create,
    /** A fresh instance opened with the whole context (e.g. an injected clock). */
    async createWith(context: FactoryContext): Promise<Memory> {
      const memory = await options.create(context);
      open.push(memory);
      return memory;
    },
    /**
     * A fresh instance opened with `embedder` that must have vector search (the `vectorSearch`
     * precondition: fails, never skips, when the backend then has none).
     */
    async createVector(
      embedder: EmbeddingProvider,
      settings?: Partial<RetrievalSettings>,
    ): Promise<Memory> {
      const memory = await create(embedder, settings);
      requireFeature(options, memory, "vectorSearch");
      return memory;
    },
    /** A shared store whose every `open` is tracked and closed after the test. */
    async shared(): Promise<{
      open(embedder?: EmbeddingProvider): Promise<Memory>;
      openWith(context: FactoryContext): Promise<Memory>;
      location: SharedStore["location"];
    }> {
      if (!options.createShared)
        throw new UnmetDeclarationError(
          options.name,
          "sharedStore",
          "the createShared() option is missing",
          "pass createShared (one store, opened several times), or remove the feature from supports",
        );
      const store = await options.createShared();
      return {
        location: store.location,
        async open(embedder?: EmbeddingProvider) {
          const memory = await store.open(embedder ? { embedder } : {});
          open.push(memory);
          return memory;
        },
        async openWith(context: FactoryContext) {
          const memory = await store.open(context);
          open.push(memory);
          return memory;
        },
      };
    },
  };
}

/** Waits long enough for the millisecond clock to move, so updatedAt can differ. */
export async function nextMillisecond(): Promise<void> {
  const start = Date.now();
  while (Date.now() <= start + 1) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** Collects an async iterable into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** Runs `fn` and returns the error it throws (fails the test when it does not throw). */
export async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected the operation to throw, but it succeeded");
}

/** Keys of entries, in order. */
export function keys(entries: readonly { key: string }[]): string[] {
  return entries.map((entry) => entry.key);
}

/**
 * Fails the test unless the factory passes `context.settings` on to the backend: every factory
 * must (a declared group never skips because its setup was ignored). Checked on a throwaway
 * instance with `searchMode: "bm25"`: a recall without a mode then reports mode `bm25`.
 */
export async function expectSettingsApplied(instances: {
  create(embedder?: EmbeddingProvider, settings?: Partial<RetrievalSettings>): Promise<Memory>;
}): Promise<void> {
  const memory = await instances.create(undefined, { searchMode: "bm25" });
  await memory.store({ key: "settings-probe", content: "settings probe" });
  const [hit] = await memory.recall("probe");
  expect(
    hit?.explain?.mode,
    "the conformance factory must pass context.settings on to the backend",
  ).toBe("bm25");
}
