import type { ChatModel } from "@memory/api";

/** One decision shown to the model: an older fact, and what the rules said. */
export interface ConfirmationQuestion {
  key: string;
  older: string;
  rulesSupersede: boolean;
}

/** The model's verdicts by key, or why there are none (the rules then stand). */
export type ConfirmationResult =
  | { verdicts: Map<string, { replaces: boolean; reason: string }> }
  | { failure: string };

const SYSTEM = [
  "You maintain an assistant's long-term memory of facts about a user and the people and things around them.",
  "A new fact was just stored. For each older fact, decide whether the new fact REPLACES it:",
  "the older fact is about the same subject and the same attribute, and is no longer true now.",
  "Facts about different people, additive facts (also, another) and facts that can both be true do not replace.",
  'Answer with JSON only: {"verdicts":[{"key":"<key>","replaces":true|false,"reason":"<short reason>"}]}, one verdict per older fact.',
].join(" ");

/** The verdicts of a parsed reply, or why the reply is not valid. */
function parseVerdicts(
  text: string,
  asked: ReadonlySet<string>,
): Map<string, { replaces: boolean; reason: string }> | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return "the reply is not JSON";
  }
  const verdicts = (parsed as { verdicts?: unknown } | null)?.verdicts;
  if (!Array.isArray(verdicts)) return 'the reply has no "verdicts" array';
  const result = new Map<string, { replaces: boolean; reason: string }>();
  for (const verdict of verdicts as unknown[]) {
    const { key, replaces, reason } = (verdict ?? {}) as Record<string, unknown>;
    if (typeof key !== "string" || !asked.has(key) || typeof replaces !== "boolean") {
      return `a verdict is not {key of an asked fact, replaces: boolean}: ${JSON.stringify(verdict)}`;
    }
    result.set(key, { replaces, reason: typeof reason === "string" ? reason.slice(0, 200) : "" });
  }
  return result;
}

/**
 * Asks the model about the decisions close to the line, in one request bounded by `timeoutMs`
 * (aborted past it). Any failure (an error, a timeout, a reply that is not the expected JSON)
 * is returned as `failure`: the caller keeps the rules' decisions and the store goes on.
 */
export async function confirmWithChat(
  model: ChatModel,
  newer: string,
  questions: readonly ConfirmationQuestion[],
  timeoutMs: number,
): Promise<ConfirmationResult> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${timeoutMs} ms (conflict_confirm_timeout_ms)`));
    }, timeoutMs);
  });
  const user = JSON.stringify({
    new_fact: newer,
    older_facts: questions.map((question) => ({ key: question.key, text: question.older })),
  });
  try {
    const reply = await Promise.race([
      model.complete(
        [
          { role: "system", content: SYSTEM },
          { role: "user", content: user },
        ],
        { json: true, temperature: 0, signal: controller.signal },
      ),
      timeout,
    ]);
    const verdicts = parseVerdicts(reply, new Set(questions.map((question) => question.key)));
    return typeof verdicts === "string" ? { failure: verdicts } : { verdicts };
  } catch (error) {
    return { failure: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
