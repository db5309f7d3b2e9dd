export {
  createMemoryFromConfig,
  describeStore,
  doctorHints,
  lucidOptionsFromConfig,
} from "./create-memory-from-config.js";
export { externalKey } from "./external-results.js";
export { fillTemplate, LucidCommandError, type LucidFailureKind } from "./lucid-cli.js";
export { type ContextLine, type ParsedContext, parseLucidContext } from "./lucid-context-parser.js";
export { decorateWithLucid } from "./lucid-driver.js";
export { createLucidMemory, LucidMemory } from "./lucid-memory.js";
export {
  DEFAULT_CONTEXT_ARGS,
  DEFAULT_STORE_ARGS,
  LUCID_DEFAULTS,
  type LucidMemoryOptions,
  type ResolvedLucidOptions,
  resolveLucidOptions,
} from "./lucid-options.js";
export {
  categoryOfTag,
  TAG_CATEGORIES,
  tagOfCategory,
  UNKNOWN_TAG_CATEGORY,
} from "./tag-categories.js";
