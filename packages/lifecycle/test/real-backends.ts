import type { Memory, RetrievalSettings } from "@memory/api";
import { createInMemoryMemory } from "@memory/testkit";
import { afterEach } from "vitest";
import { type StoreOptions, storeFactory } from "./support/stores.js";

export type BackendOptions = StoreOptions;

/** Library options (camelCase) to memory.toml names (the reference backend takes those). */
function toml(settings: Partial<RetrievalSettings> = {}): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(settings).map(([name, value]) => [
      name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
      value,
    ]),
  );
}

/**
 * The backends the lifecycle scenarios run on: the reference in-memory one, a real SQLite file,
 * a real PostgreSQL schema and a real Markdown tree of their own, closed and removed after each
 * test.
 */
export function realBackends(): [string, (options?: BackendOptions) => Memory][] {
  const stores = storeFactory();
  afterEach(() => stores.cleanup());
  return [
    [
      "reference",
      (options = {}) =>
        stores.track(
          createInMemoryMemory({
            ...(options.embedder ? { embedder: options.embedder } : {}),
            settings: toml(options.settings),
          }),
        ),
    ],
    ["sqlite", (options = {}) => stores.sqlite(options)],
    ["postgres", (options = {}) => stores.postgres(options)],
    ["markdown", (options = {}) => stores.markdown(options)],
  ];
}
