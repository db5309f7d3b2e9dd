import type { RetrievalSettings } from "@memory/api";
import { ConfigError, type MemorySettings, memorySettingsSchema } from "@memory/api";

const KEYS: Record<keyof RetrievalSettings, keyof MemorySettings> = {
  searchMode: "search_mode",
  textLanguage: "text_language",
  mergeStrategy: "merge_strategy",
  rrfK: "rrf_k",
  vectorWeight: "vector_weight",
  keywordWeight: "keyword_weight",
  ftsEarlyReturnScore: "fts_early_return_score",
  candidateMultiplier: "candidate_multiplier",
  contextNeighborWeight: "context_neighbor_weight",
  contextSessionWeight: "context_session_weight",
  questionEntryPenalty: "question_entry_penalty",
  temporalBoost: "temporal_boost",
  speakerBoost: "speaker_boost",
  halfLifeDays: "half_life_days",
  recallCacheSize: "recall_cache_size",
  recallCacheTtlSeconds: "recall_cache_ttl_seconds",
  historyVersions: "history_versions",
  minScore: "min_score",
  vectorRelevanceFloor: "vector_relevance_floor",
  vectorRelevanceFull: "vector_relevance_full",
  conflictMode: "conflict_mode",
  conflictThreshold: "conflict_threshold",
  conflictCategories: "conflict_categories",
  conflictPolicy: "conflict_policy",
  conflictConfirm: "conflict_confirm",
  conflictConfirmTimeoutMs: "conflict_confirm_timeout_ms",
  entityReading: "entity_reading",
  graphExpansion: "graph_expansion",
  usageTracking: "usage_tracking",
  usageStoreQueries: "usage_store_queries",
  usageEventRetentionDays: "usage_event_retention_days",
  usageEventMax: "usage_event_max",
  pinBoost: "pin_boost",
  usageHalfLifeFactor: "usage_half_life_factor",
};

/** The names of the retrieval options (camelCase). */
export const RETRIEVAL_SETTING_NAMES = Object.keys(KEYS) as (keyof RetrievalSettings)[];

/** Retrieval settings taken from a validated `[memory]` table. */
export function retrievalSettingsFromConfig(memory: MemorySettings): RetrievalSettings {
  const settings = {} as Record<keyof RetrievalSettings, unknown>;
  for (const name of RETRIEVAL_SETTING_NAMES) settings[name] = memory[KEYS[name]];
  return checked(settings as unknown as RetrievalSettings);
}

/**
 * Library options (camelCase, any subset) with every default applied and every value
 * validated against the memory.toml schema; a bad value is a ConfigError naming the option.
 */
export function resolveRetrievalSettings(
  options: Partial<Record<keyof RetrievalSettings, unknown>> = {},
): RetrievalSettings {
  const table: Record<string, unknown> = {};
  for (const name of RETRIEVAL_SETTING_NAMES) {
    if (options[name] !== undefined) table[KEYS[name]] = options[name];
  }
  const parsed = memorySettingsSchema.safeParse(table);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0]);
    const name = RETRIEVAL_SETTING_NAMES.find((candidate) => KEYS[candidate] === key) ?? key;
    throw new ConfigError(
      `Invalid retrieval option ${name} (${key} in memory.toml): ${issue.message}; got ${JSON.stringify(table[key])}.`,
    );
  }
  return retrievalSettingsFromConfig(parsed.data);
}

/** Used when neither the settings nor the provider say how to read a cosine. */
export const DEFAULT_VECTOR_CALIBRATION = { floor: 0.2, full: 0.8 } as const;

/** The cosine calibration in force: settings first, then the provider's own, then the default. */
export function resolveVectorCalibration(
  settings: Pick<RetrievalSettings, "vectorRelevanceFloor" | "vectorRelevanceFull">,
  provider?: { similarityCalibration?: { floor: number; full: number } | undefined },
): { floor: number; full: number } {
  const base = provider?.similarityCalibration ?? DEFAULT_VECTOR_CALIBRATION;
  const floor = settings.vectorRelevanceFloor ?? base.floor;
  const full = settings.vectorRelevanceFull ?? base.full;
  if (!(full > floor)) {
    throw new ConfigError(
      `vector_relevance_full (${full}) must be greater than vector_relevance_floor (${floor}).`,
    );
  }
  return { floor, full };
}

function checked(settings: RetrievalSettings): RetrievalSettings {
  if (settings.vectorRelevanceFloor !== undefined && settings.vectorRelevanceFull !== undefined) {
    resolveVectorCalibration(settings);
  }
  if (settings.vectorWeight + settings.keywordWeight <= 0) {
    throw new ConfigError("vector_weight and keyword_weight cannot both be 0.");
  }
  return settings;
}
