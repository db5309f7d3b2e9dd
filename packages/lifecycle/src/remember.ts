import type { ChatModel, Memory, MemoryEntry } from "@memory/api";
import { computeImportance, shouldAutosave } from "@memory/core";
import { z } from "zod";
import { autosaveKey } from "./autosave-turn.js";
import { completeJson } from "./chat-json.js";
import { modelTripleSchema, triplePrompt } from "./knowledge-graph/predicates.js";
import {
  emptyTripleReport,
  type TripleReport,
  writeTriples,
} from "./knowledge-graph/write-triples.js";

/** What a durable fact is about. */
export const FACT_KINDS = ["preference", "decision", "biographical", "project", "fact"] as const;
export type FactKind = (typeof FACT_KINDS)[number];

/** The JSON the model must answer: `{ "facts": [...] }` (an empty list is a valid answer). */
export const extractedFactsSchema = z.object({
  facts: z
    .array(
      z.object({
        key: z
          .string()
          .trim()
          .min(1)
          .max(80)
          .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "use letters, digits, _ . - only")
          .optional(),
        content: z.string().trim().min(1).max(2000),
        kind: z.enum(FACT_KINDS),
        importance: z.number().min(0).max(1).optional(),
        /** Knowledge-graph triples the fact states (docs/knowledge-graph.md). */
        triples: z.array(modelTripleSchema).max(10).optional(),
      }),
    )
    .max(20),
});
export type ExtractedFact = z.infer<typeof extractedFactsSchema>["facts"][number];

/** One conversation turn to remember. */
export interface RememberTurn {
  userMessage: string;
  assistantReply?: string;
  sessionId?: string;
  namespace?: string;
}

export interface RememberOptions {
  chatModel: ChatModel;
  /** Extra model calls after an unusable answer (default 1; `[memory] remember_retries`). */
  retries?: number;
  now?: () => Date;
  signal?: AbortSignal;
  /**
   * Ask for knowledge-graph triples in the same call and store them (default true;
   * docs/knowledge-graph.md). Off: the prompt does not mention them and none is stored.
   */
  triples?: boolean;
}

/** What {@link remember} stored. */
export interface RememberResult {
  /** The raw turn (`conversation` entry); null when the autosave filter rejected the turn. */
  turn: MemoryEntry | null;
  /** The facts, stored as `core` entries (empty when the turn holds none). */
  facts: (MemoryEntry & { kind: FactKind })[];
  /** Model calls made (0 when the turn was filtered). */
  attempts: number;
  /** The knowledge-graph triples stored, closed and dropped (empty when `triples` is off). */
  triples: TripleReport;
}

export const REMEMBER_SYSTEM_PROMPT = [
  "You extract durable facts about the user from one conversation turn, for a long-term memory.",
  "Durable: preferences, decisions, biographical facts, lasting project facts. Not durable:",
  "greetings, questions, one-off requests, what the assistant said about itself.",
  'Answer with only a JSON object: {"facts": [{"key": "short_snake_case_id", "content": "one',
  'self-contained sentence in the third person", "kind": "preference" | "decision" |',
  '"biographical" | "project" | "fact", "importance": 0..1}]}. "key" and "importance" are',
  'optional. Use the same key for the same subject (e.g. "user_editor"). No facts: {"facts": []}.',
].join(" ");

/** The remember prompt with the knowledge-graph sentence (the default). */
export const REMEMBER_TRIPLES_SYSTEM_PROMPT = `${REMEMBER_SYSTEM_PROMPT} ${triplePrompt()}`;

function turnText(turn: RememberTurn): string {
  const user = turn.userMessage.trim();
  const reply = turn.assistantReply?.trim();
  return reply ? `User: ${user}\nAssistant: ${reply}` : user;
}

/** The first words of a text as a key part: folded, `_`-joined, at most 6 words and 48 chars. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .split("_")
    .slice(0, 6)
    .join("_")
    .slice(0, 48);
}

/** The stored key of a fact: the model's key, else `fact_<kind>_<first words>` (stable). */
export function factKey(fact: ExtractedFact): string {
  if (fact.key !== undefined) return fact.key;
  const words = slug(fact.content);
  return `fact_${fact.kind}_${words === "" ? "note" : words}`;
}

/**
 * Remembers one turn: first stores it as it is (a `conversation` entry, so nothing is lost
 * whatever the model does), then asks the chat model for the durable facts in it and stores each
 * as a `core` entry with `memory.store` (an upsert on the fact's key; conflict handling on store
 * applies when the backend has it). The answer must be JSON of {@link extractedFactsSchema};
 * an unusable answer is asked again (`retries`), then a `ChatOutputError` names the stored turn.
 * Turns the autosave filter rejects (empty, `[cron:`, `[Memory context]`...) are not stored and
 * not sent to the model.
 */
export async function remember(
  memory: Memory,
  turn: RememberTurn,
  options: RememberOptions,
): Promise<RememberResult> {
  const now = (options.now ?? (() => new Date()))();
  const text = turnText(turn);
  if (!shouldAutosave(turn.userMessage))
    return { turn: null, facts: [], attempts: 0, triples: emptyTripleReport() };
  const withTriples = options.triples ?? true;
  const scope = {
    ...(turn.namespace === undefined ? {} : { namespace: turn.namespace }),
    ...(turn.sessionId === undefined ? {} : { sessionId: turn.sessionId }),
  };
  const stored = await memory.store({
    key: autosaveKey("conversation", now),
    content: text,
    category: "conversation",
    importance: computeImportance(text, "conversation"),
    ...scope,
  });
  const { value, attempts } = await completeJson(
    options.chatModel,
    [
      {
        role: "system",
        content: withTriples ? REMEMBER_TRIPLES_SYSTEM_PROMPT : REMEMBER_SYSTEM_PROMPT,
      },
      { role: "user", content: text },
    ],
    extractedFactsSchema,
    {
      task: "remember",
      check: ({ facts }) => {
        const keys = facts.map(factKey);
        const repeated = keys.filter((key, index) => keys.indexOf(key) !== index);
        return repeated.length > 0
          ? [`two facts have the key ${repeated[0]}: give each fact its own key`]
          : [];
      },
      retries: options.retries ?? 1,
      ...(options.signal ? { signal: options.signal } : {}),
      context: `The turn is stored as ${stored.key}; no fact was stored.`,
      details: { turnKey: stored.key, namespace: stored.namespace },
    },
  );
  const facts: RememberResult["facts"] = [];
  for (const fact of value.facts) {
    const entry = await memory.store({
      key: factKey(fact),
      content: fact.content,
      category: "core",
      importance: fact.importance ?? computeImportance(fact.content, "core"),
      ...scope,
    });
    facts.push({ ...entry, kind: fact.kind });
  }
  const validFrom = now.toISOString();
  const triples = withTriples
    ? await writeTriples(
        memory,
        value.facts.flatMap((fact) =>
          (fact.triples ?? []).map((triple) => ({
            ...triple,
            sourceKey: factKey(fact),
            validFrom,
          })),
        ),
        scope,
      )
    : emptyTripleReport();
  return { turn: stored, facts, attempts, triples };
}
