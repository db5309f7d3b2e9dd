/**
 * `@memory/lifecycle/agent-loop-eval`: the agent-loop evaluation of issue 25 (LoCoMo replayed
 * through `autosaveTurn` and `buildMemoryContext`, derived follow-up questions, a scripted life).
 * Used by `pnpm --filter @memory/lifecycle bench:agent-loop` and `memory eval --agent-loop`;
 * measurement only. The `dated` clock replaces the process's global `Date` (clock.ts): run it in
 * a process of its own.
 */
export { type ClockMode, installShiftedClock, resetClock } from "./clock.js";
export type {
  FollowUpAnswer,
  FollowUpRates,
  FollowUpSummary,
} from "./follow-up-measure.js";
export {
  deriveFollowUp,
  deriveFollowUps,
  type FollowUp,
  type FollowUpDerivation,
  pronounFor,
} from "./follow-ups.js";
export {
  defaultLifeScenario,
  type LifeQuestion,
  type LifeScenario,
  lifeConversation,
  lifeScenarioSchema,
  loadLifeScenario,
  mentions,
} from "./life-data.js";
export type { LifeAnswer, LifeRates, LifeSummary } from "./life-measure.js";
export {
  isLocomoDocument,
  LOCOMO_CATEGORIES,
  type LocomoConversation,
  LocomoDataError,
  type LocomoQuestion,
  type LocomoSample,
  type LocomoSession,
  type LocomoSplit,
  type LocomoTurn,
  loadLocomo,
  locomoSplit,
  locomoTimeToIso,
  loopConversation,
  normalizeEvidence,
  parseLocomoDate,
  readLocomo,
  readLocomoSample,
  turnText,
} from "./locomo-data.js";
export type { LocomoAnswer, LocomoSummary } from "./locomo-measure.js";
export type {
  ContextSettings,
  LoopConversation,
  LoopMessage,
  LoopSession,
} from "./loop-session.js";
export type { LoopContextStats } from "./replay.js";
export {
  agentLoopReport,
  followUpTable,
  lifeTable,
  locomoTable,
  loopTable,
  type ModeResult,
} from "./report.js";
export {
  type AgentLoopEvalOptions,
  type AgentLoopEvalResult,
  type AgentLoopStore,
  runAgentLoopEval,
} from "./run-agent-loop-eval.js";
