export {
  AUTOSAVE_REPLY_CHARS,
  type AutosaveSkip,
  type AutosaveTurnInput,
  type AutosaveTurnOptions,
  type AutosaveTurnResult,
  autosaveKey,
  autosaveTurn,
} from "./autosave-turn.js";
export {
  buildMemoryContext,
  MEMORY_CONTEXT_DEFAULTS,
  MEMORY_CONTEXT_HEADER,
  type MemoryContext,
  type MemoryContextOptions,
} from "./memory-context.js";
