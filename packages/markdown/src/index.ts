export {
  type ConsolidateMemoryFileOptions,
  consolidateMemoryFile,
  FILE_CONSOLIDATION_DEFAULTS,
  FILE_CONSOLIDATION_SYSTEM_PROMPT,
  type FileConsolidationReport,
} from "./consolidation/consolidate-memory-file.js";
export {
  ConsolidationError,
  type ConsolidationRefusal,
} from "./consolidation/consolidation-error.js";
export { type TraceResult, traceLine, traceUnit } from "./consolidation/trace-lines.js";
export { unifiedDiff } from "./consolidation/unified-diff.js";
export {
  createMemoryFromConfig,
  describeStore,
  markdownOptionsFromConfig,
  markdownRoot,
  unhonouredSettings,
} from "./create-memory-from-config.js";
export { HISTORY_DIR } from "./files/history.js";
export { TreeLock, type TreeLockOptions, withTreeLock } from "./files/tree-lock.js";
export {
  CONVERSATION_PREFIX,
  type EntryLine,
  type EntryMetadata,
  formatEntryLine,
  parseEntryLine,
} from "./format/entry-line.js";
export {
  CORE_FILE,
  decodeNamespace,
  encodeNamespace,
  entryFile,
  MEMORY_DIR,
  NAMESPACES_DIR,
  STATE_DIR,
} from "./format/layout.js";
export {
  CHUNK_OVERLAP_TOKENS,
  CHUNK_TOKENS,
  type FileProblem,
  type FreeTextChunk,
  type ParsedMarkdown,
  parseMarkdownFile,
} from "./format/markdown-file.js";
export { MarkdownDriver } from "./markdown-driver.js";
export {
  createMarkdownMemory,
  MarkdownMemory,
  type MarkdownRecallResult,
} from "./markdown-memory.js";
export {
  MARKDOWN_DEFAULTS,
  type MarkdownDriverOptions,
  type MarkdownMemoryOptions,
} from "./markdown-options.js";
export type { RowSource } from "./markdown-tree.js";
export {
  MAX_SEGMENT_LINES,
  type ReadSegmentOptions,
  readSegment,
  type Segment,
} from "./read-segment.js";
export type { MemoryFileText, ReplaceFileOptions, ReplaceFileResult } from "./tree-files.js";
