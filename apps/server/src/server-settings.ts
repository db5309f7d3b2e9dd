import { createHash } from "node:crypto";
import { ConfigError, type MemoryConfig } from "@memory/api";
import { z } from "zod";

/** One token entry of `[server].tokens`: the secret itself or the variable that holds it. */
const tokenEntrySchema = z
  .object({
    /** The bearer token (at least 16 characters). Prefer `token_env` so memory.toml holds no secret. */
    token: z.string().optional(),
    /** Name of the environment variable that holds the token. */
    token_env: z.string().min(1).optional(),
    /** Namespaces the token may read and write; `"*"` means all. */
    namespaces: z.array(z.string().min(1)).min(1),
  })
  .strict();

/** The `[server]` table of memory.toml. */
export const serverSettingsSchema = z
  .object({
    host: z.string().min(1).default("127.0.0.1"),
    port: z.number().int().min(0).max(65_535).default(8787),
    tokens: z.array(tokenEntrySchema).default([]),
    /** Serve without tokens; only honoured on a loopback host. */
    allow_unauthenticated_loopback: z.boolean().default(false),
    /** Largest JSON body, in bytes (413 above it). */
    max_body_bytes: z.number().int().positive().default(1_048_576),
    /** Largest NDJSON import body, in bytes; each line is also bounded by `max_body_bytes`. */
    max_import_bytes: z.number().int().positive().default(104_857_600),
    /** How long shutdown waits for in-flight requests and deferred embeddings. */
    shutdown_timeout_ms: z.number().int().positive().default(10_000),
    /** How long start-up waits for the embedding model to answer a probe before going keyword-only. */
    embedding_probe_timeout_ms: z.number().int().positive().default(120_000),
    /** Serve MCP over streamable HTTP at /mcp. */
    mcp: z.boolean().default(true),
    /** One line per request on stderr (method, path, status, time; never headers). */
    access_log: z.boolean().default(false),
    /**
     * Worker processes of `memory serve` / the server's main (`node:cluster`, one shared port);
     * 1 serves in-process. Default: the number of cores (`os.availableParallelism()`).
     */
    workers: z.number().int().min(1).max(256).optional(),
    /**
     * Folders inside which `POST /v1/collections` may add a collection (symlinks resolved
     * first); empty: collections are added with `memory collection add` on the server only.
     */
    collection_roots: z.array(z.string().min(1)).default([]),
  })
  .strict();

export type ServerSettingsInput = z.input<typeof serverSettingsSchema>;
export type ServerSettingsTable = z.output<typeof serverSettingsSchema>;

/** A token ready for comparison: only its hash is kept. */
export interface ResolvedToken {
  /** SHA-256 of the token; compared in constant time. */
  hash: Buffer;
  /** Allowed namespaces, or `"*"`. */
  namespaces: "*" | readonly string[];
  /** A name safe to log (`[server].tokens[1]`, `MEMORY_SERVER_TOKEN`); never the secret. */
  label: string;
}

/** A token given programmatically. */
export interface TokenSpec {
  token: string;
  namespaces: readonly string[];
  label?: string;
}

export interface ServerSettings {
  host: string;
  port: number;
  tokens: ResolvedToken[];
  allowUnauthenticatedLoopback: boolean;
  maxBodyBytes: number;
  maxImportBytes: number;
  shutdownTimeoutMs: number;
  embeddingProbeTimeoutMs: number;
  mcp: boolean;
  accessLog: boolean;
  /** Worker processes; undefined = not configured (the entry point picks the number of cores). */
  workers: number | undefined;
  /** `collection_roots`: folders HTTP may add collections from. */
  collectionRoots: string[];
}

/** Programmatic overrides; they win over the environment and the file. */
export interface ServerSettingsOverrides {
  host?: string;
  port?: number;
  tokens?: readonly TokenSpec[];
  allowUnauthenticatedLoopback?: boolean;
  maxBodyBytes?: number;
  maxImportBytes?: number;
  shutdownTimeoutMs?: number;
  embeddingProbeTimeoutMs?: number;
  mcp?: boolean;
  accessLog?: boolean;
  workers?: number;
  collectionRoots?: string[];
}

export const MIN_TOKEN_LENGTH = 16;

export function hashToken(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

function resolveToken(token: string, namespaces: readonly string[], label: string): ResolvedToken {
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new ConfigError(
      `The server token ${label} is shorter than ${MIN_TOKEN_LENGTH} characters; use a long random value (e.g. \`openssl rand -hex 32\`).`,
    );
  }
  return {
    hash: hashToken(token),
    namespaces: namespaces.includes("*") ? "*" : [...new Set(namespaces)],
    label,
  };
}

const BOOLEAN_WORDS: Record<string, boolean> = {
  "1": true,
  true: true,
  yes: true,
  on: true,
  "0": false,
  false: false,
  no: false,
  off: false,
};

function envBoolean(name: string, raw: string): boolean {
  const value = BOOLEAN_WORDS[raw.trim().toLowerCase()];
  if (value === undefined) throw new ConfigError(`${name} must be true or false (got "${raw}").`);
  return value;
}

function envInteger(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new ConfigError(`${name} must be a non-negative integer (got "${raw}").`);
  }
  return value;
}

function envWorkers(raw: string): number {
  const value = envInteger("MEMORY_SERVER_WORKERS", raw);
  if (value < 1 || value > 256) {
    throw new ConfigError(`MEMORY_SERVER_WORKERS must be from 1 to 256 (got "${raw}").`);
  }
  return value;
}

const envTokensSchema = z.array(
  z.object({ token: z.string(), namespaces: z.array(z.string().min(1)).min(1) }).strict(),
);

/**
 * Resolves the server settings: defaults, then the `[server]` table of the configuration, then
 * the environment (`MEMORY_SERVER_HOST`, `MEMORY_SERVER_PORT`, `MEMORY_SERVER_TOKEN` for a token
 * with every namespace, `MEMORY_SERVER_TOKENS` as JSON `[{"token","namespaces"}]`,
 * `MEMORY_SERVER_ALLOW_UNAUTHENTICATED_LOOPBACK`, `MEMORY_SERVER_MAX_BODY_BYTES`), then
 * `overrides`. Tokens from every source add up. Token values are hashed here and never kept.
 */
export function resolveServerSettings(
  config: MemoryConfig | undefined,
  env: Record<string, string | undefined> = process.env,
  overrides: ServerSettingsOverrides = {},
): ServerSettings {
  const parsed = serverSettingsSchema.safeParse(config?.server ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown key(s) ${issue.keys.map((key) => `[server].${key}`).join(", ")}`
        : `[server].${issue.path.map(String).join(".")}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid [server] configuration: ${problems.join("; ")}.`);
  }
  const table = parsed.data;
  const tokens: ResolvedToken[] = [];
  table.tokens.forEach((entry, index) => {
    const label = `[server].tokens[${index}]`;
    if ((entry.token === undefined) === (entry.token_env === undefined)) {
      throw new ConfigError(`${label} needs exactly one of token or token_env.`);
    }
    let secret = entry.token;
    if (entry.token_env !== undefined) {
      secret = env[entry.token_env];
      if (secret === undefined || secret === "") {
        throw new ConfigError(
          `${label} reads its token from the environment variable ${entry.token_env}, which is not set: export ${entry.token_env}=<token>.`,
        );
      }
    }
    tokens.push(resolveToken(secret!, entry.namespaces, entry.token_env ?? label));
  });
  const single = env.MEMORY_SERVER_TOKEN;
  if (single) tokens.push(resolveToken(single, ["*"], "MEMORY_SERVER_TOKEN"));
  const many = env.MEMORY_SERVER_TOKENS;
  if (many) {
    let value: unknown;
    try {
      value = JSON.parse(many);
    } catch (error) {
      throw new ConfigError(
        `MEMORY_SERVER_TOKENS is not valid JSON (${(error as Error).message}); expected [{"token":"...","namespaces":["a"]}].`,
      );
    }
    const list = envTokensSchema.safeParse(value);
    if (!list.success) {
      throw new ConfigError(
        'MEMORY_SERVER_TOKENS must be a JSON array of {"token":"...","namespaces":["a", ...]} objects.',
      );
    }
    list.data.forEach((entry, index) => {
      tokens.push(resolveToken(entry.token, entry.namespaces, `MEMORY_SERVER_TOKENS[${index}]`));
    });
  }
  for (const [index, spec] of (overrides.tokens ?? []).entries()) {
    tokens.push(resolveToken(spec.token, spec.namespaces, spec.label ?? `tokens[${index}]`));
  }

  const settings: ServerSettings = {
    host: env.MEMORY_SERVER_HOST || table.host,
    port: env.MEMORY_SERVER_PORT
      ? envInteger("MEMORY_SERVER_PORT", env.MEMORY_SERVER_PORT)
      : table.port,
    tokens,
    allowUnauthenticatedLoopback: env.MEMORY_SERVER_ALLOW_UNAUTHENTICATED_LOOPBACK
      ? envBoolean(
          "MEMORY_SERVER_ALLOW_UNAUTHENTICATED_LOOPBACK",
          env.MEMORY_SERVER_ALLOW_UNAUTHENTICATED_LOOPBACK,
        )
      : table.allow_unauthenticated_loopback,
    maxBodyBytes: env.MEMORY_SERVER_MAX_BODY_BYTES
      ? envInteger("MEMORY_SERVER_MAX_BODY_BYTES", env.MEMORY_SERVER_MAX_BODY_BYTES)
      : table.max_body_bytes,
    maxImportBytes: table.max_import_bytes,
    shutdownTimeoutMs: table.shutdown_timeout_ms,
    embeddingProbeTimeoutMs: table.embedding_probe_timeout_ms,
    mcp: table.mcp,
    accessLog: table.access_log,
    workers: env.MEMORY_SERVER_WORKERS ? envWorkers(env.MEMORY_SERVER_WORKERS) : table.workers,
    collectionRoots: table.collection_roots,
  };
  for (const key of [
    "host",
    "port",
    "allowUnauthenticatedLoopback",
    "maxBodyBytes",
    "maxImportBytes",
    "shutdownTimeoutMs",
    "embeddingProbeTimeoutMs",
    "mcp",
    "accessLog",
    "workers",
    "collectionRoots",
  ] as const) {
    const value = overrides[key];
    if (value !== undefined) (settings as unknown as Record<string, unknown>)[key] = value;
  }
  return settings;
}

/** True for 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  if (bare.startsWith("::ffff:")) return isLoopbackHost(bare.slice("::ffff:".length));
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * Refuses unsafe combinations before anything listens: no token at all without the explicit
 * unauthenticated loopback mode, and that mode on a non-loopback host.
 */
export function assertSafeAuth(settings: ServerSettings): void {
  const loopback = isLoopbackHost(settings.host);
  if (settings.allowUnauthenticatedLoopback && !loopback) {
    throw new ConfigError(
      `Unauthenticated mode is only allowed on a loopback host, but the server is set to listen on ${settings.host}. Bind to 127.0.0.1 ([server].host / MEMORY_SERVER_HOST / --host), or configure tokens (MEMORY_SERVER_TOKEN) and turn off allow_unauthenticated_loopback.`,
    );
  }
  if (settings.tokens.length === 0 && !settings.allowUnauthenticatedLoopback) {
    throw new ConfigError(
      loopback
        ? `No server token is configured. Set MEMORY_SERVER_TOKEN=<token> (or [server].tokens in memory.toml), or, for local development on ${settings.host}, allow unauthenticated access explicitly: MEMORY_SERVER_ALLOW_UNAUTHENTICATED_LOOPBACK=1, [server].allow_unauthenticated_loopback = true, or --allow-unauthenticated-loopback.`
        : `No server token is configured and ${settings.host} is not a loopback address. Set MEMORY_SERVER_TOKEN=<token> (or MEMORY_SERVER_TOKENS / [server].tokens in memory.toml) before serving on a network interface.`,
    );
  }
}

/**
 * `max_body_bytes` alone, as `resolveServerSettings` resolves it (MEMORY_SERVER_MAX_BODY_BYTES,
 * else `[server] max_body_bytes`, else 1 MiB): the stdio MCP server's message limit, which must
 * not depend on the HTTP tokens resolving (a `token_env` may be unset where `memory mcp` runs).
 */
export function resolveMaxBodyBytes(
  config: MemoryConfig | undefined,
  env: Record<string, string | undefined> = process.env,
): number {
  if (env.MEMORY_SERVER_MAX_BODY_BYTES)
    return envInteger("MEMORY_SERVER_MAX_BODY_BYTES", env.MEMORY_SERVER_MAX_BODY_BYTES);
  const configured = (config?.server as { max_body_bytes?: unknown } | undefined)?.max_body_bytes;
  const table = serverSettingsSchema.shape.max_body_bytes.safeParse(configured);
  if (!table.success)
    throw new ConfigError(
      `[server] max_body_bytes must be a positive integer (bytes); got ${JSON.stringify(configured)}.`,
    );
  return table.data;
}

/**
 * `[server] collection_roots` alone (the stdio MCP server's collection tools), without
 * resolving the HTTP tokens, for the same reason as `resolveMaxBodyBytes`.
 */
export function resolveCollectionRoots(config: MemoryConfig | undefined): string[] {
  const configured = (config?.server as { collection_roots?: unknown } | undefined)
    ?.collection_roots;
  const table = serverSettingsSchema.shape.collection_roots.safeParse(configured);
  if (!table.success)
    throw new ConfigError(
      `[server] collection_roots must be a list of folders, e.g. ["/srv/notes"]; got ${JSON.stringify(configured)}.`,
    );
  return table.data;
}
