export { MAX_MESSAGE_CHARS } from "./exchanges.js";
export {
  DRY_RUN_PREVIEWS,
  exchangeKey,
  type MinedEntryPreview,
  type MineOptions,
  type MineReport,
  mineConversations,
} from "./mine-conversations.js";
export { MINE_FORMATS, type MineFormat, type MineSkip, type MineSkipCode } from "./mine-types.js";
export { MAX_RECORD_BYTES } from "./read-lines.js";
export {
  SYNTHESIS_KINDS,
  SYNTHESIS_SYSTEM_PROMPT,
  SYNTHESIS_TRIPLES_SYSTEM_PROMPT,
  type SynthesisReport,
  synthesizedFactKey,
} from "./synthesize.js";
