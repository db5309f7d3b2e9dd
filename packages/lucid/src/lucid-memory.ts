import { facadeOptionsFrom, MemoryFacade } from "@memory/core";
import { createSqliteDriver } from "@memory/sqlite";
import { decorateWithLucid } from "./lucid-driver.js";
import type { LucidMemoryOptions } from "./lucid-options.js";

/**
 * `@memory/core`'s facade over the local store's driver decorated with the external `lucid`
 * command ({@link decorateWithLucid}): writes go to the local store and are copied to the tool in
 * the background; recall asks the tool only when the local store found little, and never fails or
 * waits longer than the recall timeout because of it.
 */
export class LucidMemory extends MemoryFacade {
  constructor(options: LucidMemoryOptions = {}) {
    const sqlite = options.sqlite ?? {};
    super(
      decorateWithLucid(options.local ?? createSqliteDriver(sqlite), options),
      facadeOptionsFrom(sqlite),
    );
  }
}

/** Creates a {@link LucidMemory}; nothing is opened or run until the first operation. */
export function createLucidMemory(options: LucidMemoryOptions = {}): LucidMemory {
  return new LucidMemory(options);
}
