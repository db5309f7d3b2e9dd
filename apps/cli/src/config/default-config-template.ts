import { defaultConfig } from "@memory/core";

/** Settings `memory init` can change from the command line. */
export interface InitSettings {
  embeddingProvider: string;
  backend: string;
}

/**
 * The embedded default written by `memory init`: SQLite under ./.memory, the offline `local`
 * embedder, and deferred embedding so `store` returns before the model has run. The retrieval
 * settings it shows are read from the configuration's own defaults, so the file cannot drift
 * from what an empty configuration (and `npm start`) uses.
 */
export function defaultConfigTemplate(settings: InitSettings): string {
  const defaults = defaultConfig().memory;
  const toml = (value: string) => JSON.stringify(value);
  return `# memory.toml, written by \`memory init\`.
# Every [memory] key can be overridden by an environment variable MEMORY_<KEY>,
# e.g. MEMORY_EMBEDDING_PROVIDER=noop. Relative paths are relative to this file.
# Check it with \`memory config validate\`, inspect it with \`memory config show\`.

[memory]
backend = "${settings.backend}"
data_dir = ${toml(defaults.data_dir)}
# local = Universal Sentence Encoder on-device (no network); noop = keyword-only recall.
embedding_provider = "${settings.embeddingProvider}"
# store returns at once; embeddings are computed in the background (memory backfill catches up).
defer_embedding = true
search_mode = ${toml(defaults.search_mode)}
# weighted: results in relevance order; rrf: Reciprocal Rank Fusion of the two stages' ranks.
merge_strategy = ${toml(defaults.merge_strategy)}

[sqlite]
# Default: <data_dir>/memory/brain.db
# path = "./.memory/memory/brain.db"

# [postgres]
# url = "postgresql://user:password@127.0.0.1:5432/memory"
# schema = "memory"
`;
}
