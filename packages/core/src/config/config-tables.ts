import { ConfigError, MEMORY_SETTING_KEYS } from "@memory/api";
import { closestKeys, describeUnknownKey, findTableLine } from "./key-suggestions.js";

/**
 * Every table `memory.toml` may hold, with its keys. The package that reads a table validates
 * its values; the key names live here, once, so `loadConfig` rejects a typo in any table (even
 * one the configured backend never reads) with its line and the closest key, and each package
 * checks a programmatic configuration with the same words (`assertKnownTableKeys`).
 * `apps/server/test/settings.test.ts` pins `server` to the server's own schema.
 */
export const CONFIG_TABLE_KEYS = {
  memory: MEMORY_SETTING_KEYS,
  sqlite: ["path", "fallback_to_none", "checkpoint"],
  postgres: ["url", "schema", "max_connections"],
  markdown: ["path", "index", "watch", "watch_debounce_ms"],
  lucid: [
    "command",
    "args",
    "store_args",
    "context_args",
    "store_timeout_ms",
    "recall_timeout_ms",
    "local_hit_threshold",
    "cooldown_seconds",
    "sync_retries",
  ],
  server: [
    "host",
    "port",
    "tokens",
    "allow_unauthenticated_loopback",
    "max_body_bytes",
    "max_import_bytes",
    "shutdown_timeout_ms",
    "embedding_probe_timeout_ms",
    "mcp",
    "access_log",
    "workers",
    "collection_roots",
  ],
  // `[collections.<name>]`: one table per collection; these are the keys of each (the names
  // are the collections'). `@memory/lifecycle`'s `collectionsFromConfig` validates the values.
  collections: ["path", "pattern", "namespace", "context"],
} as const satisfies Record<string, readonly string[]>;

/** Tables that hold one sub-table per name (`[collections.notes]`): their keys are checked per sub-table. */
export const NAMED_TABLES: ReadonlySet<ConfigTableName> = new Set(["collections"]);

export type ConfigTableName = keyof typeof CONFIG_TABLE_KEYS;

export const CONFIG_TABLE_NAMES = Object.keys(CONFIG_TABLE_KEYS) as ConfigTableName[];

/** Where a configuration came from, so a problem can name its line. */
export interface ConfigSource {
  file?: string;
  text?: string;
}

/**
 * One problem line per unknown top-level name: a table that no package reads (`[sqllite]`),
 * or a key written above every table (it belongs in `[memory]` when it is one of its keys).
 */
export function unknownTableProblems(
  document: Record<string, unknown>,
  source: ConfigSource = {},
): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(document)) {
    if (name in CONFIG_TABLE_KEYS) continue;
    const isTable = typeof document[name] === "object" && document[name] !== null;
    const line =
      source.text === undefined
        ? undefined
        : isTable
          ? findTableLine(source.text, name)
          : findTopLevelKeyLine(source.text, name);
    const where =
      line === undefined ? "" : ` (${source.file ? `${source.file}:${line}` : `line ${line}`})`;
    if (!isTable && (MEMORY_SETTING_KEYS as readonly string[]).includes(name)) {
      problems.push(`key ${name}${where} is outside every table: move it under [memory]`);
      continue;
    }
    const suggestions = closestKeys(name, CONFIG_TABLE_NAMES);
    const hint =
      suggestions.length > 0
        ? `did you mean ${suggestions.map((table) => `[${table}]`).join(" or ")}?`
        : `the known tables are ${CONFIG_TABLE_NAMES.map((table) => `[${table}]`).join(", ")} (see docs/configuration.md)`;
    problems.push(`unknown ${isTable ? "table" : "key"} [${name}]${where}: ${hint}`);
  }
  return problems;
}

/** One problem line per key of `[table]` (of each `[table.<name>]` of a named table) that it does not have. */
export function unknownKeyProblems(
  table: ConfigTableName,
  values: Record<string, unknown>,
  source: ConfigSource = {},
): string[] {
  const known: readonly string[] = CONFIG_TABLE_KEYS[table];
  if (NAMED_TABLES.has(table))
    return Object.entries(values).flatMap(([name, sub]) =>
      typeof sub === "object" && sub !== null && !Array.isArray(sub)
        ? Object.keys(sub)
            .filter((key) => !known.includes(key))
            .map((key) => describeUnknownKey(`${table}.${name}`, key, known, source))
        : [],
    );
  return Object.keys(values)
    .filter((key) => !known.includes(key))
    .map((key) => describeUnknownKey(table, key, known, source));
}

/**
 * Throws a `ConfigError` when `[table]` of `config` holds a key it does not have, naming the key
 * and the closest known one: for configurations built in code, which `loadConfig` never saw.
 */
export function assertKnownTableKeys(table: ConfigTableName, values: Record<string, unknown>) {
  const problems = unknownKeyProblems(table, values);
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}.`, {
      details: { problems, allowedKeys: [...CONFIG_TABLE_KEYS[table]] },
    });
  }
}

/** The 1-based line of a key written before the first table header. */
function findTopLevelKeyLine(text: string, key: string): number | undefined {
  const lines = text.split(/\r?\n/);
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const assignment = new RegExp(`^\\s*(?:${escaped}|"${escaped}"|'${escaped}')\\s*=`);
  for (const [index, line] of lines.entries()) {
    if (/^\s*\[/.test(line)) return undefined;
    if (assignment.test(line)) return index + 1;
  }
  return undefined;
}
