import { InvalidInputError } from "@memory/api";

/**
 * The JSON object Claude Code writes to a command hook's stdin. Every event carries
 * `session_id`, `transcript_path`, `cwd` and `hook_event_name`; `UserPromptSubmit` adds `prompt`,
 * `SessionStart` adds `source` (startup, resume, clear, compact), `Stop` adds `stop_hook_active`.
 * Unknown fields are ignored, so newer Claude Code versions keep working.
 */
export interface HookPayload {
  sessionId?: string;
  transcriptPath?: string;
  cwd?: string;
  hookEventName?: string;
  prompt?: string;
  source?: string;
  stopHookActive?: boolean;
}

const STRING_FIELDS = {
  session_id: "sessionId",
  transcript_path: "transcriptPath",
  cwd: "cwd",
  hook_event_name: "hookEventName",
  prompt: "prompt",
  source: "source",
} as const;

/** Parses a hook's stdin; an empty stdin is an empty payload (a hook run by hand). */
export function parseHookPayload(text: string): HookPayload {
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(
      "The hook's stdin is not JSON: Claude Code writes one JSON object (session_id, prompt, ...).",
      { cause: error },
    );
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new InvalidInputError("The hook's stdin must be one JSON object.");
  }
  const record = parsed as Record<string, unknown>;
  const payload: HookPayload = {};
  for (const [field, name] of Object.entries(STRING_FIELDS)) {
    const value = record[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") {
      throw new InvalidInputError(`The hook payload's ${field} must be a string.`);
    }
    payload[name] = value;
  }
  if (typeof record.stop_hook_active === "boolean")
    payload.stopHookActive = record.stop_hook_active;
  return payload;
}
