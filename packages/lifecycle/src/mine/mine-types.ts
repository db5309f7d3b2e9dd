/** The conversation formats `mine` reads (docs/mine.md). */
export const MINE_FORMATS = [
  "claude-code",
  "codex",
  "chatgpt",
  "claude-ai",
  "slack",
  "text",
] as const;
export type MineFormat = (typeof MINE_FORMATS)[number];

/** Who said a message, reduced to the two sides of an exchange. */
export type MinedRole = "user" | "assistant";

/** One message as a format reader yields it: text already cleaned, tool calls summarised. */
export interface MinedMessage {
  role: MinedRole;
  /** The speaker's name when the source has one (Slack). */
  speaker?: string;
  text: string;
  /** Tool calls made in this message, by name: summarised as one line per exchange. */
  tools?: string[];
  /** Attached files and images, by name: summarised as one line per exchange. */
  attachments?: string[];
  /** UTC ISO-8601 (milliseconds), from the source; absent when the source has no time. */
  time?: string;
  /** 1-based line of the message in its file (JSON exports: the line its conversation starts). */
  line: number;
}

/** One conversation of a file: a session, a ChatGPT/Claude.ai conversation, a Slack channel. */
export interface MinedConversation {
  /** Stable within the file: the source's own id when it has one, else its position. */
  id: string;
  /** The entries' `sessionId`. */
  sessionId: string;
  title?: string;
  /** Time of the conversation itself: used for messages that carry none (ChatGPT roots). */
  time?: string;
  messages: MinedMessage[];
}

/** Why a file, a line or a conversation was not imported. */
export interface MineSkip {
  path: string;
  /** 1-based; absent for a whole-file problem. */
  line?: number;
  code: MineSkipCode;
  reason: string;
}

export type MineSkipCode =
  | "UNREADABLE"
  | "BINARY"
  | "INVALID_UTF8"
  | "MALFORMED"
  | "TOO_LARGE"
  | "SYMLINK"
  | "UNKNOWN_FORMAT"
  | "REJECTED";

/** Where a reader reports what it skips; it never throws for bad input. */
export type SkipSink = (skip: Omit<MineSkip, "path"> & { path?: string }) => void;
