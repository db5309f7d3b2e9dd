/** The shape both data sets (LoCoMo, life.json) are replayed in. */
import type { MemoryContextOptions } from "../memory-context.js";

/**
 * The context settings memory.toml sets (`auto_recall`, `auto_recall_limit`,
 * `auto_recall_min_score`); the benchmark leaves them unset (buildMemoryContext's defaults).
 * The usage replay (bench/usage-replay) also sets `track` and `usageDemotion`.
 */
export type ContextSettings = Pick<
  MemoryContextOptions,
  "recall" | "limit" | "minScore" | "track" | "usageDemotion"
>;

export type Role = "user" | "assistant";

/** One message of a session, with where it came from (a LoCoMo dia_id, a life.json turn id). */
export interface LoopMessage {
  role: Role;
  text: string;
  origin: string;
}

export interface LoopSession {
  id: string;
  /** The session's date (the `dated` clock starts the session here). */
  date: Date;
  messages: LoopMessage[];
}

/** A conversation: one user's namespace and store, its sessions in order, and its "today". */
export interface LoopConversation {
  id: string;
  sessions: LoopSession[];
  /** When the questions are asked in `dated` mode. */
  askedAt: Date;
}
