import {
  RECALL_DROP_REASONS,
  type RecallDropReason,
  type RecallTrace,
  type RecallTraceCandidate,
  type RecallTraceSettings,
} from "@memory/api";
import type { MemoryContextTrace } from "@memory/lifecycle";
import { z } from "zod";
import { MemoryEntrySchema, RecallExplainSchema } from "./entry.js";
import { named } from "./fields.js";

const reasons = Object.keys(RECALL_DROP_REASONS) as [RecallDropReason, ...RecallDropReason[]];

/** `explain: "full"` on a recall or a context request. */
export const explainField = z
  .enum(["full"])
  .optional()
  .describe(
    'With "full", the response also has `trace`: every candidate, kept or dropped with the reason and the numbers ("why, and why not?").',
  );

export const RecallTraceCandidateSchema = named(
  "RecallTraceCandidate",
  z.object({
    key: z.string(),
    namespace: z.string(),
    category: z.string(),
    preview: z.string().describe("The first 120 characters of the content."),
    sessionId: z.string().optional(),
    kept: z.boolean(),
    reason: z
      .enum(reasons)
      .optional()
      .describe(
        `Why not, when dropped: ${reasons.join(", ")} (more may come: show \`detail\` for any).`,
      ),
    detail: z.string().optional().describe("The reason with its numbers, or what kept it."),
    score: z.number(),
    explain: RecallExplainSchema,
  }),
);

const TraceSettingsSchema = z.object({
  mode: z.enum(["hybrid", "bm25", "embedding"]),
  mergeStrategy: z.enum(["rrf", "weighted"]),
  weights: z.object({ keyword: z.number(), vector: z.number() }),
  rrfK: z.number(),
  minScore: z.number(),
  limit: z.number(),
  pool: z.number(),
  candidateMultiplier: z.number(),
  halfLifeDays: z.number(),
  vectorCalibration: z.object({ floor: z.number(), full: z.number() }),
  intentWeights: z.object({
    questionPenalty: z.number(),
    temporalBoost: z.number(),
    speakerBoost: z.number(),
  }),
  contextWeights: z.object({ neighbor: z.number(), session: z.number() }),
  ftsEarlyReturnScore: z.number(),
});

export const RecallTraceSchema = named(
  "RecallTrace",
  z.object({
    query: z.string(),
    namespace: z.string(),
    settings: TraceSettingsSchema.describe("The numbers the recall ran with."),
    intent: z.object({ question: z.boolean(), when: z.boolean(), terms: z.array(z.string()) }),
    source: RecallExplainSchema.shape.source,
    degraded: z.string().optional(),
    stages: z.array(
      z.object({
        name: z.enum([
          "recent",
          "keyword",
          "vector",
          "context",
          "finalize",
          "like",
          "filter",
          "collections",
          "graph",
        ]),
        count: z.number(),
        detail: z.string().optional(),
      }),
    ),
    candidates: z
      .array(RecallTraceCandidateSchema)
      .describe("Kept first (result order), then dropped, best score first."),
    results: z.array(MemoryEntrySchema),
    focus: z
      .object({
        key: z.string(),
        exists: z.boolean(),
        candidate: RecallTraceCandidateSchema.optional(),
        keywordRelevance: z.number().optional(),
        cosine: z.number().optional(),
        vectorRelevance: z.number().optional(),
        verdict: z.string().describe("Why the key is, or is not, in the results."),
      })
      .optional(),
  }),
);

export const ContextTraceSchema = named(
  "ContextTrace",
  z.object({
    message: z.string(),
    discoveryQuery: z.string().optional(),
    settings: z.object({
      recall: z.boolean(),
      limit: z.number(),
      minScore: z.number(),
      namedMinScore: z
        .number()
        .describe("The threshold of a question that names someone the store knows."),
      includeNeighbours: z.boolean(),
      coreLimit: z.number(),
      includeConversation: z.boolean(),
      includeReplies: z.boolean(),
      includeQuestions: z.boolean(),
      maxChars: z.number(),
      maxEntryChars: z.number(),
    }),
    recalls: z.array(
      z.object({ purpose: z.enum(["message", "discovery", "fallback"]), trace: RecallTraceSchema }),
    ),
    candidates: z
      .array(RecallTraceCandidateSchema)
      .describe("The block's entries first, then every other entry looked at, with its reason."),
  }),
);

/** The wire shapes say what the contract returns, field for field (see wire/entry.ts). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const traceFieldsMatch: Same<keyof z.output<typeof RecallTraceSchema>, keyof RecallTrace> = true;
const candidateFieldsMatch: Same<
  keyof z.output<typeof RecallTraceCandidateSchema>,
  keyof RecallTraceCandidate
> = true;
const settingsFieldsMatch: Same<
  keyof z.output<typeof TraceSettingsSchema>,
  keyof RecallTraceSettings
> = true;
const contextFieldsMatch: Same<
  keyof z.output<typeof ContextTraceSchema>,
  keyof MemoryContextTrace
> = true;
void traceFieldsMatch;
void candidateFieldsMatch;
void settingsFieldsMatch;
void contextFieldsMatch;
