import { type ChatModel, type Memory, MemoryError } from "@memory/api";
import { computeImportance } from "@memory/core";
import { z } from "zod";
import { completeJson } from "../chat-json.js";
import { modelTripleSchema, triplePrompt } from "../knowledge-graph/predicates.js";
import type { StoredTriple } from "../knowledge-graph/triple-record.js";
import {
  emptyTripleReport,
  type TripleInput,
  type TripleReport,
  writeTriples,
} from "../knowledge-graph/write-triples.js";
import { slug } from "../remember.js";

/** What `--synthesize` extracts: lasting facts a later session needs. */
export const SYNTHESIS_KINDS = ["decision", "preference", "milestone", "problem"] as const;

/** A conversation's text sent to the model is cut here, at an exchange boundary. */
export const SYNTHESIS_INPUT_CHARS = 24_000;

export const synthesisSchema = z.object({
  facts: z
    .array(
      z.object({
        content: z.string().trim().min(1).max(2000),
        kind: z.enum(SYNTHESIS_KINDS),
        /** 1-based number of the exchange the fact comes from, as numbered in the prompt. */
        exchange: z.number().int().min(1),
        /** Knowledge-graph triples the fact states (docs/knowledge-graph.md). */
        triples: z.array(modelTripleSchema).max(10).optional(),
      }),
    )
    .max(20),
});

export const SYNTHESIS_SYSTEM_PROMPT = [
  "You read a past conversation between a user and an assistant, cut into numbered exchanges,",
  "and extract the durable facts a later session needs: decisions taken, the user's preferences,",
  "milestones reached, problems found (and how they were solved). Not durable: greetings,",
  "questions without an answer, one-off requests. Answer with only a JSON object:",
  '{"facts": [{"content": "one self-contained sentence", "kind": "decision" | "preference" |',
  '"milestone" | "problem", "exchange": <the number of the exchange it comes from>}]}.',
  'No durable fact: {"facts": []}.',
].join(" ");

/** The synthesis prompt with the knowledge-graph sentence (the default). */
export const SYNTHESIS_TRIPLES_SYSTEM_PROMPT = `${SYNTHESIS_SYSTEM_PROMPT} ${triplePrompt()}`;

/** One imported conversation, as `mine` hands it to synthesis. */
export interface SynthesisSource {
  sessionId: string;
  namespace: string;
  /** `createdAt`: the exchange's own time, the `validFrom` of the triples read from it. */
  exchanges: { key: string; content: string; createdAt?: string }[];
}

export interface SynthesisReport {
  /** Facts the model returned. */
  extracted: number;
  /** Facts stored as core entries. */
  saved: number;
  /** Conversations whose model call failed, plus facts whose store failed. */
  failed: number;
  /** What failed, one line each (the import itself is kept). */
  problems: string[];
  /** The knowledge-graph triples stored, closed and dropped. */
  triples: TripleReport;
}

/**
 * The key of a fact: its source exchange's key, `/fact/`, its kind and first words. The prefix
 * before `/fact/` is the link to the exchange it came from (`memory get <that key>`), until
 * relations land; the same fact extracted again upserts the same key.
 */
export function synthesizedFactKey(exchangeKey: string, kind: string, content: string): string {
  return `${exchangeKey}/fact/${kind}_${slug(content) || "note"}`;
}

/**
 * The exchanges the model is shown: from the first, while they fit in SYNTHESIS_INPUT_CHARS
 * (at least one, cut to the bound). `mine` keeps only these while it imports, so synthesis never
 * holds a whole export's text in memory.
 */
export function promptExchanges<T extends { content: string }>(exchanges: readonly T[]): T[] {
  const kept: T[] = [];
  let size = 0;
  for (const exchange of exchanges) {
    const length = exchange.content.length + 20;
    if (size + length > SYNTHESIS_INPUT_CHARS && kept.length > 0) break;
    kept.push(exchange);
    size += length;
  }
  return kept;
}

function prompt(source: SynthesisSource): string {
  return source.exchanges
    .map((exchange, position) =>
      `## Exchange ${position + 1}\n${exchange.content}`.slice(0, SYNTHESIS_INPUT_CHARS),
    )
    .join("\n\n");
}

/**
 * Extracts durable facts from imported conversations, one model call per conversation, and
 * stores each with `memory.store` as a `core` entry (so conflict handling on store applies).
 * Every failure is counted and described; none throws, so the import that ran before stays.
 */
export async function synthesize(
  memory: Memory,
  sources: readonly SynthesisSource[],
  options: {
    chatModel: ChatModel;
    signal?: AbortSignal;
    /** Ask for knowledge-graph triples in the same call (default true). */
    triples?: boolean;
    /** The time of triples from exchanges without their own time (default now). */
    now?: () => Date;
  },
): Promise<SynthesisReport> {
  const report: SynthesisReport = {
    extracted: 0,
    saved: 0,
    failed: 0,
    problems: [],
    triples: emptyTripleReport(),
  };
  const withTriples = options.triples ?? true;
  const knownTriples = new Map<string, StoredTriple[]>();
  const now = options.now ?? (() => new Date());
  for (const source of sources) {
    if (options.signal?.aborted) break;
    let facts: z.infer<typeof synthesisSchema>["facts"];
    try {
      ({
        value: { facts },
      } = await completeJson(
        options.chatModel,
        [
          {
            role: "system",
            content: withTriples ? SYNTHESIS_TRIPLES_SYSTEM_PROMPT : SYNTHESIS_SYSTEM_PROMPT,
          },
          { role: "user", content: prompt(source) },
        ],
        synthesisSchema,
        {
          task: "mine-synthesize",
          check: ({ facts }) =>
            facts
              .filter((fact) => fact.exchange > source.exchanges.length)
              .map(
                (fact) =>
                  `exchange ${fact.exchange} does not exist (the last is ${source.exchanges.length})`,
              ),
          ...(options.signal ? { signal: options.signal } : {}),
          context: `The conversation ${source.sessionId} stays imported; no fact was extracted from it.`,
        },
      ));
    } catch (error) {
      if (!MemoryError.isInstance(error)) throw error;
      report.failed++;
      report.problems.push(`${source.sessionId}: ${error.message}`);
      continue;
    }
    report.extracted += facts.length;
    const triples: TripleInput[] = [];
    for (const fact of facts) {
      const exchange = source.exchanges[fact.exchange - 1]!;
      const key = synthesizedFactKey(exchange.key, fact.kind, fact.content);
      try {
        await memory.store({
          key,
          content: fact.content,
          category: "core",
          namespace: source.namespace,
          sessionId: source.sessionId,
          importance: computeImportance(fact.content, "core"),
        });
        report.saved++;
        if (withTriples) {
          const validFrom = exchange.createdAt ?? now().toISOString();
          for (const triple of fact.triples ?? [])
            triples.push({ ...triple, sourceKey: key, validFrom });
        }
      } catch (error) {
        if (!MemoryError.isInstance(error)) throw error;
        report.failed++;
        report.problems.push(`${exchange.key}: ${error.message}`);
      }
    }
    try {
      await writeTriples(
        memory,
        triples,
        { namespace: source.namespace, sessionId: source.sessionId },
        report.triples,
        knownTriples,
      );
    } catch (error) {
      if (!MemoryError.isInstance(error)) throw error;
      report.failed++;
      report.problems.push(`${source.sessionId} (triples): ${error.message}`);
    }
  }
  return report;
}
