import { z } from "zod";
import { HISTORY_VERSIONS_DEFAULT, HISTORY_VERSIONS_MAX } from "../key-versions.js";

/**
 * The `[memory]` table of `memory.toml`. Keys follow the seed configuration (snake_case); every
 * key can be overridden by the environment variable `MEMORY_<KEY>` (e.g. `MEMORY_SEARCH_MODE`).
 */
export const memorySettingsSchema = z
  .object({
    /** Backend package to load: `@memory/<backend>` (`none` is built in). */
    backend: z.enum(["sqlite", "postgres", "markdown", "lucid", "none"]).default("sqlite"),
    /** Directory for file-based backends and job state. */
    data_dir: z.string().min(1).default("./.memory"),
    search_mode: z.enum(["hybrid", "bm25", "embedding"]).default("hybrid"),
    /**
     * Analyzer language: `english` (Porter stemming, English stop words dropped from queries) or
     * `none` (words as typed, folded only). CJK bigrams are the same in both. Changing it on an
     * existing store re-indexes its entries once, on open.
     */
    text_language: z.enum(["english", "none"]).default("english"),
    /**
     * How the two stages order results: `weighted` by relevance (the weighted mean of the
     * keyword and vector parts), `rrf` by Reciprocal Rank Fusion (scores stay relevance).
     */
    merge_strategy: z.enum(["rrf", "weighted"]).default("weighted"),
    rrf_k: z.number().int().positive().default(60),
    vector_weight: z.number().min(0).max(1).default(0.3),
    keyword_weight: z.number().min(0).max(1).default(0.7),
    /**
     * Keyword relevance above which hybrid recall skips the vector stage (when the keyword
     * stage alone fills the limit). 1, the default, disables it: on LoCoMo any lower value
     * changed the top results (docs/retrieval-quality.md).
     */
    fts_early_return_score: z.number().min(0).max(1).default(1),
    /**
     * Candidate pool per stage = limit x this. 2 because 2, 3 and 4 gave identical LoCoMo
     * results (docs/retrieval-quality.md) and every extra candidate costs a row read.
     */
    candidate_multiplier: z.number().int().min(1).max(100).default(2),
    /**
     * Conversational context (docs/retrieval-quality.md): how much the best adjacent entry of
     * the same session (by creation time) and the session's best other match raise an entry's
     * relevance. 0 turns each off.
     */
    context_neighbor_weight: z.number().min(0).max(1).default(0.2),
    context_session_weight: z.number().min(0).max(1).default(0.5),
    /** A question counts this much less for an entry that ends with a question (0 = off). */
    question_entry_penalty: z.number().min(0).max(1).default(0.2),
    /** A "when" question counts this much more for an entry that mentions a time (0 = off). */
    temporal_boost: z.number().min(0).max(1).default(0.2),
    /**
     * An entry whose leading speaker label (`Alice: ...`, `user: ...`) the query names counts
     * this much more (0 = off).
     */
    speaker_boost: z.number().min(0).max(1).default(0.2),
    half_life_days: z.number().positive().default(7),
    /** Recall drops results whose relevance (after decay) is below this. 0 keeps everything. */
    min_score: z.number().min(0).max(1).default(0.3),
    /**
     * Cosine at or below which the vector part of relevance is 0. Default: the embedding
     * provider's own calibration, else 0.2.
     */
    vector_relevance_floor: z.number().min(-1).max(1).optional(),
    /** Cosine at which the vector part of relevance reaches 1. Default: the provider's, else 0.8. */
    vector_relevance_full: z.number().min(-1).max(1).optional(),
    /**
     * Earlier contents a same-key store keeps per key, as superseded versions (`memory history`);
     * 0 keeps none. Bounded so a key rewritten every minute cannot grow without end.
     */
    history_versions: z
      .number()
      .int()
      .min(0)
      .max(HISTORY_VERSIONS_MAX)
      .default(HISTORY_VERSIONS_DEFAULT),
    recall_cache_size: z.number().int().min(0).default(256),
    recall_cache_ttl_seconds: z.number().int().min(0).default(300),
    /**
     * Conflict detection on store (packages/core/README.md, "Conflicts"). Only decides with
     * `text_language = "none"` (the similarity fallback): above this score a newly stored entry
     * supersedes an older one. 0.7 was chosen on packages/lifecycle/test/fixtures/conflict-pairs.jsonl.
     */
    conflict_threshold: z.number().min(0).max(2).default(0.7),
    /**
     * `rules` (default: each entry's subject, attribute, value and polarity are read and compared),
     * or `off` (a store costs no extra query). `jaccard` and `combined`, the similarity modes of
     * earlier versions, are accepted and mean `rules` (similarity is kept as evidence).
     */
    conflict_mode: z.enum(["off", "rules", "jaccard", "combined"]).default("rules"),
    /** `supersede` (default): the older entry is hidden from recall; `flag`: recorded, nothing hidden. */
    conflict_policy: z.enum(["supersede", "flag", "link"]).default("supersede"),
    /** Entities read from each stored entry, joined by `mentions` relations (docs/entities.md). */
    entity_reading: z.boolean().default(false),
    /** Recall follows relations from its best candidates (docs/retrieval-quality.md); off by default. */
    graph_expansion: z.boolean().default(false),
    /** Recalls get a `recallId` and record what they surfaced (docs/usage.md). */
    usage_tracking: z.boolean().default(true),
    /** Keep query text in usage events (default: a hash only). */
    usage_store_queries: z.boolean().default(false),
    /** Usage events older than this many days are pruned by hygiene (statistics stay). */
    usage_event_retention_days: z.number().int().positive().max(36_500).default(90),
    /** At most this many usage events are kept (the newest). */
    usage_event_max: z.number().int().positive().max(100_000_000).default(100_000),
    /** Relevance added to a pinned entry's (capped at 1). */
    pin_boost: z.number().min(0).max(1).default(0.1),
    /** Usage stretches a used entry's decay half-life by up to this factor (1 = off). */
    usage_half_life_factor: z.number().min(1).max(10).default(1),
    /** `chat`: with a chat model configured, decisions close to the line are confirmed by it. */
    conflict_confirm: z.enum(["off", "chat"]).default("off"),
    /** Longest wait for the confirming model; past it the rules decide and the store goes on. */
    conflict_confirm_timeout_ms: z.number().int().positive().max(60_000).default(3000),
    /** Comma-separated categories whose stores are checked for conflicts (and whose entries can be superseded). */
    conflict_categories: z
      .string()
      .regex(/^\s*[A-Za-z0-9_-]{1,64}\s*(,\s*[A-Za-z0-9_-]{1,64}\s*)*$/, {
        message: "expected comma-separated category names, e.g. core or core,preferences",
      })
      .default("core"),
    defer_embedding: z.boolean().default(false),
    /** `noop`, `local`, `onnx`, `openai`, `openrouter`, `gemini`, `voyage` or `custom:<base-url>`. */
    embedding_provider: z
      .string()
      .regex(/^(noop|none|local|onnx|openai|openrouter|gemini|voyage|custom:https?:\/\/\S+)$/, {
        message:
          "expected one of noop, local, onnx, openai, openrouter, gemini, voyage, custom:<http(s) base URL>",
      })
      .default("noop"),
    embedding_model: z.string().min(1).optional(),
    embedding_dims: z.number().int().positive().max(16_384).optional(),
    /** Directory with model.onnx + tokenizer.json for the onnx provider. */
    embedding_model_dir: z.string().min(1).optional(),
    embedding_cache_max: z.number().int().min(0).default(10_000),
    hygiene_enabled: z.boolean().default(true),
    hygiene_interval_hours: z.number().positive().default(12),
    conversation_retention_days: z.number().positive().default(30),
    daily_retention_days: z.number().positive().default(90),
    /** Hygiene never prunes a category below this many entries. */
    conversation_retention_floor: z.number().int().min(0).default(100),
    daily_retention_floor: z.number().int().min(0).default(50),
    snapshot_enabled: z.boolean().default(false),
    snapshot_path: z.string().min(1).optional(),
    auto_hydrate: z.boolean().default(true),
    auto_recall: z.boolean().default(true),
    auto_recall_limit: z.number().int().min(0).max(100).default(5),
    auto_recall_min_score: z.number().min(0).max(1).default(0.4),
    /**
     * The chat model of `remember`, the curator and session summaries: `openai`, `openrouter`,
     * `gemini` or `custom:<base-url>` (any OpenAI-compatible server). Unset: no chat model.
     * The API key comes from the environment only (MEMORY_CHAT_API_KEY, else the provider's).
     */
    chat_provider: z
      .string()
      .regex(/^(openai|openrouter|gemini|custom:https?:\/\/\S+)$/, {
        message: "expected one of openai, openrouter, gemini, custom:<http(s) base URL>",
      })
      .optional(),
    chat_model: z.string().min(1).optional(),
    chat_timeout_ms: z.number().int().positive().optional(),
    /** Extra attempts when the model's facts are not valid JSON of the expected shape. */
    remember_retries: z.number().int().min(0).max(5).default(1),
    /** The scheduled curator (only with a chat model). */
    curator_enabled: z.boolean().default(true),
    curator_interval_hours: z.number().positive().default(24),
    /** Newest core + daily entries per namespace the curator shows the model. */
    curator_max_entries: z.number().int().min(2).max(2000).default(200),
    /** Append-only session transcripts under `<data_dir>/sessions/<id>.jsonl`. */
    transcripts_enabled: z.boolean().default(false),
    transcript_retention_days: z.number().positive().default(30),
  })
  .strict();

/** The validated `[memory]` table. */
export type MemorySettings = z.infer<typeof memorySettingsSchema>;

/**
 * A whole configuration: the `[memory]` table plus one optional table per backend or app
 * (`[sqlite]`, `[postgres]`, `[server]`...), which the package that reads it validates.
 */
export interface MemoryConfig {
  memory: MemorySettings;
  [table: string]: unknown;
}

/** The keys of the `[memory]` table. */
export const MEMORY_SETTING_KEYS = Object.keys(
  memorySettingsSchema.shape,
) as (keyof MemorySettings)[];
