/** The shape both data sets (LoCoMo, life.json) are replayed in. */

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
