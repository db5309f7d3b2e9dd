import type { MemoryEntry, RecallExplain } from "@memory/api";
import { z } from "zod";
import { category, named, timestamp } from "./fields.js";
import { EntryRelationSchema } from "./relations.js";
import { UsageRecordExportSchema } from "./usage-stats.js";

export const RecallExplainSchema = named(
  "RecallExplain",
  z
    .object({
      mode: z.enum(["hybrid", "bm25", "embedding"]),
      source: z.enum(["keyword", "vector", "hybrid", "like", "recent", "external"]),
      strategy: z.enum(["rrf", "weighted"]).optional(),
      keywordRank: z.number().optional(),
      keywordScore: z.number().optional().describe("Raw BM25 with the namespace's statistics."),
      keywordRelevance: z.number().optional().describe("Keyword part of relevance, 0..1."),
      vectorRank: z.number().optional(),
      cosine: z.number().optional(),
      vectorRelevance: z.number().optional().describe("Vector part of relevance, 0..1."),
      rrf: z.number().optional().describe("Rank-fusion value that ordered the result (rrf only)."),
      intent: z
        .number()
        .optional()
        .describe(
          "Factor from what the query asks (a question meeting a question, a when-question meeting a time, a named speaker); absent when 1.",
        ),
      context: z
        .number()
        .optional()
        .describe(
          "What the entry's session (adjacent turns, its best other match) added to its relevance; absent when nothing.",
        ),
      graph: z
        .object({
          lift: z.number(),
          via: z.array(
            z.object({ from: z.string(), type: z.string(), through: z.string().optional() }),
          ),
        })
        .optional()
        .describe(
          "graph_expansion: what following relations from the best candidates added to its relevance, and through which edges; absent when nothing.",
        ),
      fused: z
        .number()
        .describe("Relevance before decay, 0..1 (its own, adjusted by intent, raised by context)."),
      decay: z.number(),
      importance: z.number().optional(),
      earlyReturn: z.boolean().optional(),
      degraded: z.string().optional(),
      superseded: z
        .object({
          by: z.string(),
          decidedBy: z.enum(["rules", "chat", "manual", "version"]).optional(),
          rule: z.string().optional(),
          reason: z.string().optional(),
        })
        .optional()
        .describe("A superseded result (includeSuperseded): by which key and why."),
      contradicts: z
        .array(z.string())
        .optional()
        .describe(
          "Keys of the entries this one contradicts (its contradicts relations); it ranks above those returned with it.",
        ),
      usage: z
        .object({
          pinned: z.boolean().optional(),
          boost: z.number().optional(),
          halfLifeFactor: z.number().optional(),
        })
        .optional()
        .describe(
          "What usage did to the ranking (docs/usage.md): a pin's boost, a demotion (negative), a stretched half-life; absent when nothing.",
        ),
    })
    .describe("The parts of a recall score."),
);

/** How the conflict rules read a fact (`FactReading` of @memory/api). */
const FactReadingSchema = z.object({
  subject: z.string().optional(),
  attribute: z.string().optional(),
  cardinality: z.enum(["single", "multi"]).optional(),
  value: z.string().optional(),
  negated: z.boolean(),
  markers: z.array(z.enum(["additive", "ended", "change"])),
  ends: z.array(z.string()).optional(),
  note: z.string().optional(),
});

export const ConflictDecisionSchema = named(
  "ConflictDecision",
  z
    .object({
      mode: z.enum(["rules", "jaccard", "combined"]),
      threshold: z.number(),
      policy: z.enum(["supersede", "flag", "link"]).optional(),
      reading: FactReadingSchema.optional().describe("How the new entry was read."),
      fallback: z.string().optional(),
      flagged: z.array(z.string()).optional(),
      linked: z
        .array(z.string())
        .optional()
        .describe('conflict_policy = "link": keys the entry now contradicts (a relation).'),
      confirmation: z
        .object({ asked: z.number(), answered: z.number(), failure: z.string().optional() })
        .optional(),
      superseded: z.array(z.string()).describe("Keys of the older entries it superseded."),
      candidates: z.array(
        z.object({
          key: z.string(),
          jaccard: z.number(),
          cosine: z.number().optional(),
          bm25: z.number(),
          similarity: z.number(),
          signals: z.object({
            negationReversal: z.number(),
            preferenceChange: z.number(),
            temporalShift: z.number(),
            total: z.number(),
          }),
          score: z.number(),
          differentSubject: z.string().optional(),
          superseded: z.boolean(),
          reading: FactReadingSchema.optional(),
          rule: z.string().optional(),
          reason: z.string().optional(),
          decidedBy: z.enum(["rules", "chat"]).optional(),
          flagged: z.boolean().optional(),
          linked: z.boolean().optional(),
        }),
      ),
    })
    .describe(
      "A conflict check: how the new entry and each older one were read, which were superseded and why (similarity kept as evidence).",
    ),
);

export const SupersessionRecordSchema = named(
  "SupersessionRecord",
  z
    .object({
      by: z.string(),
      at: timestamp,
      decidedBy: z.enum(["rules", "chat", "manual", "version"]),
      rule: z.string().optional(),
      reason: z.string().optional(),
    })
    .describe("Why an entry is superseded: by which key, which rule, when (docs/history.md)."),
);

export const ConflictRecordSchema = named(
  "ConflictRecord",
  z
    .object({
      decidedAt: timestamp,
      mode: z.enum(["rules", "jaccard", "combined"]),
      policy: z.enum(["supersede", "flag", "link"]).optional(),
      reading: FactReadingSchema.optional(),
      fallback: z.string().optional(),
      superseded: z.array(z.string()),
      flagged: z.array(z.string()).optional(),
      linked: z
        .array(z.string())
        .optional()
        .describe('conflict_policy = "link": keys the entry now contradicts (a relation).'),
      candidatesSeen: z.number().int(),
      candidates: z.array(
        z.object({
          key: z.string(),
          score: z.number(),
          superseded: z.boolean(),
          flagged: z.boolean().optional(),
          linked: z.boolean().optional(),
          reading: FactReadingSchema.optional(),
          rule: z.string().optional(),
          reason: z.string().optional(),
          decidedBy: z.enum(["rules", "chat"]).optional(),
        }),
      ),
    })
    .describe(
      "What conflict detection decided when the entry was stored, kept with it (the first candidates only).",
    ),
);

export const MemoryEntrySchema = named(
  "MemoryEntry",
  z.object({
    id: z.string(),
    key: z.string(),
    content: z.string(),
    category,
    namespace: z.string(),
    sessionId: z.string().optional(),
    importance: z.number().min(0).max(1).optional(),
    supersededBy: z.string().optional(),
    supersessionRecord: SupersessionRecordSchema.optional(),
    conflictRecord: ConflictRecordSchema.optional(),
    relations: z
      .array(EntryRelationSchema)
      .optional()
      .describe("Export only: the entry's outgoing relations (export format 2)."),
    pinned: z
      .boolean()
      .optional()
      .describe(
        "Pinned by a person: always eligible for the context, boosted in ranking, never pruned; absent when not pinned.",
      ),
    snoozedUntil: timestamp
      .optional()
      .describe("Snoozed: left out of recall and the context until this instant."),
    usage: UsageRecordExportSchema.optional().describe(
      "Export only, on backends that track usage: the entry's usage statistics.",
    ),
    createdAt: timestamp,
    updatedAt: timestamp,
    score: z.number().optional().describe("Recall only."),
    explain: RecallExplainSchema.optional().describe("Recall only."),
    embedding: z.array(z.number()).optional().describe("Only when asked for."),
    source: z
      .object({
        path: z.string(),
        startLine: z.number().int(),
        endLine: z.number().int(),
        collection: z.string().optional(),
        title: z.string().optional(),
        context: z.string().optional(),
        contentType: z.string().optional(),
      })
      .optional()
      .describe(
        "Recall only: the file and lines the result comes from (Markdown backend files; a collection's notes, with collection, title and contentType).",
      ),
    conflict: ConflictDecisionSchema.optional().describe(
      "Store only, with conflict_mode on: the conflict check of the stored entry.",
    ),
    keptVersion: z
      .string()
      .optional()
      .describe(
        "Store only: the key a same-key store kept the previous content under (<key>::history:<n>); see GET /v1/memories/{key}/history.",
      ),
  }),
);

/**
 * The wire shapes must say what the contract returns, field for field: adding a field to
 * `RecallExplain` or `MemoryEntry` in @memory/api without adding it here fails the typecheck
 * (the document would otherwise omit a field the API sends).
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Keys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };
const explainFieldsMatch: Same<
  Keys<z.output<typeof RecallExplainSchema>>,
  Keys<RecallExplain>
> = true;
const entryFieldsMatch: Same<Keys<z.output<typeof MemoryEntrySchema>>, Keys<MemoryEntry>> = true;
void explainFieldsMatch;
void entryFieldsMatch;
