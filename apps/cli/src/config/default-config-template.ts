/** Settings `memory init` can change from the command line. */
export interface InitSettings {
  embeddingProvider: string;
  backend: string;
}

/**
 * The embedded default written by `memory init`: SQLite under ./.memory, the offline `local`
 * embedder, and deferred embedding so `store` returns before the model has run.
 */
export function defaultConfigTemplate(settings: InitSettings): string {
  return `# memory.toml, written by \`memory init\`.
# Every [memory] key can be overridden by an environment variable MEMORY_<KEY>,
# e.g. MEMORY_EMBEDDING_PROVIDER=noop. Relative paths are relative to this file.
# Check it with \`memory config validate\`, inspect it with \`memory config show\`.

[memory]
backend = "${settings.backend}"
data_dir = "./.memory"
# local = Universal Sentence Encoder on-device (no network); noop = keyword-only recall.
embedding_provider = "${settings.embeddingProvider}"
# store returns at once; embeddings are computed in the background (memory backfill catches up).
defer_embedding = true
search_mode = "hybrid"
merge_strategy = "rrf"

[sqlite]
# Default: <data_dir>/memory/brain.db
# path = "./.memory/memory/brain.db"

# [postgres]
# url = "postgresql://user:password@127.0.0.1:5432/memory"
# schema = "memory"
`;
}
