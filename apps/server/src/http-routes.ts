import {
  type EntryFilter,
  type ImportEntry,
  type ImportRejection,
  type Memory,
  type MemoryEntry,
  normalizeFilter,
} from "@memory/api";
import { autosaveTurn, buildMemoryContext, JOB_NAMES, jobStatusFromState } from "@memory/lifecycle";
import { type Access, canUse, resolveNamespace, visibleNamespaces } from "./access.js";
import { consolidateOne, rememberOne } from "./agent-turns.js";
import { readNdjsonLines } from "./body.js";
import { defined } from "./defined.js";
import { HttpError, toErrorResponse } from "./http-error.js";
import { readMemoryFile } from "./memory-files.js";
import { namespaceSummaries } from "./namespace-summaries.js";
import { defineRoute, json, type RouteSpec } from "./route-spec.js";
import {
  AutosaveRequestSchema,
  AutosaveResponseSchema,
  ChainRequestSchema,
  ChainResponseSchema,
  ConsolidateRequestSchema,
  ConsolidateResponseSchema,
  ContextRequestSchema,
  ContextResponseSchema,
  CountQuery,
  CountResponseSchema,
  EntriesResponseSchema,
  EntryResponseSchema,
  ExportQuery,
  FileQuery,
  FileResponseSchema,
  ForgetByKeyRequestSchema,
  ForgetResponseSchema,
  GetByKeyRequestSchema,
  GetQuery,
  HealthResponseSchema,
  ImportEntrySchema,
  ImportResponseSchema,
  JobsResponseSchema,
  KeyParams,
  ListQuery,
  MemoryEntrySchema,
  NamespaceParams,
  NamespaceQuery,
  NamespacesResponseSchema,
  PurgeNamespaceRequestSchema,
  PurgeResponseSchema,
  PurgeSessionQuery,
  ReadyResponseSchema,
  RecallRequestSchema,
  RecallResponseSchema,
  RememberRequestSchema,
  RememberResponseSchema,
  SessionParams,
  StoreRequestSchema,
  SupersedeRequestSchema,
  SupersedeResponseSchema,
  TopCoreQuery,
} from "./schemas.js";

/**
 * Embeddings are large (hundreds of floats per entry) and only sent when asked for, whatever the
 * backend returns.
 */
function withoutEmbeddings(entries: MemoryEntry[], keep: boolean | undefined): MemoryEntry[] {
  if (keep) return entries;
  return entries.map((entry) => {
    if (entry.embedding === undefined) return entry;
    const { embedding: _embedding, ...rest } = entry;
    return rest;
  });
}

interface FilterQuery {
  sessionId?: string | undefined;
  categories?: string[] | undefined;
  since?: string | undefined;
  until?: string | undefined;
  includeSuperseded?: boolean | undefined;
}

function filterFrom(query: FilterQuery): EntryFilter {
  return defined({
    sessionId: query.sessionId,
    categories: query.categories,
    since: query.since,
    until: query.until,
    includeSuperseded: query.includeSuperseded,
  });
}

const startedAt = Date.now();
const NDJSON = "application/x-ndjson";
// Export writes in chunks of about this size: one write per entry would cost a syscall each.
const EXPORT_CHUNK_BYTES = 64 * 1024;

/** Streams NDJSON from several async iterables in order. A failure mid-stream ends with an error line. */
function ndjsonStream(
  sources: AsyncIterable<MemoryEntry>[],
  logger: { error(m: string, e?: unknown): void },
) {
  const encoder = new TextEncoder();
  let index = 0;
  let iterator: AsyncIterator<MemoryEntry> | undefined;
  let finished = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = "";
      try {
        while (chunk.length < EXPORT_CHUNK_BYTES) {
          if (!iterator) {
            const source = sources[index++];
            if (!source) {
              finished = true;
              break;
            }
            iterator = source[Symbol.asyncIterator]();
          }
          const next = await iterator.next();
          if (next.done) {
            iterator = undefined;
            continue;
          }
          chunk += `${JSON.stringify(next.value)}\n`;
        }
      } catch (error) {
        // Headers are gone already: the stream ends with one error line in the usual shape.
        const { body, internal } = toErrorResponse(error);
        if (internal) logger.error("export failed mid-stream", error);
        chunk += `${JSON.stringify(body)}\n`;
        finished = true;
      }
      if (chunk !== "") controller.enqueue(encoder.encode(chunk));
      if (finished) controller.close();
    },
    async cancel() {
      await iterator?.return?.();
    },
  });
}

function exportSources(
  memory: Memory,
  access: Access,
  namespace: string | undefined,
  filter: EntryFilter & { withEmbeddings?: boolean },
): AsyncIterable<MemoryEntry>[] {
  if (namespace !== undefined)
    return [memory.export({ ...filter, namespace: resolveNamespace(access, namespace) })];
  const visible = visibleNamespaces(access);
  if (visible === undefined) return [memory.export(filter)];
  return visible.map((name) => memory.export({ ...filter, namespace: name }));
}

/** One entry by key: the path form and the body form of get share it. */
async function getOne(
  memory: Memory,
  access: Access,
  request: { key: string; namespace?: string | undefined; withEmbedding?: boolean | undefined },
): Promise<Response> {
  const namespace = resolveNamespace(access, request.namespace);
  const entry = await memory.get(
    request.key,
    defined({ namespace, withEmbedding: request.withEmbedding }),
  );
  if (!entry)
    throw new HttpError(
      "NOT_FOUND",
      `No entry with key "${request.key}" in namespace "${namespace}".`,
    );
  return json({ entry: withoutEmbeddings([entry], request.withEmbedding)[0] });
}

/** Forget by key: the path form and the body form share it. */
async function forgetOne(
  memory: Memory,
  access: Access,
  request: { key: string; namespace?: string | undefined },
): Promise<Response> {
  const namespace = resolveNamespace(access, request.namespace);
  return json({ deleted: await memory.forget(request.key, { namespace }) });
}

// Bounds of the supersession chain walk: chains are short in practice; these only stop a loop.
const MAX_CHAIN = 50;
const MAX_REPLACED = 200;

/**
 * One entry with what it replaced and what replaced it. Forward is a walk along `supersededBy`
 * (one get per step). Backward needs the entries pointing at a key, which the contract cannot
 * select, so one streamed pass over the namespace keeps only the superseded entries.
 */
async function supersessionChain(
  memory: Memory,
  namespace: string,
  key: string,
): Promise<{ entry: MemoryEntry; replaced: MemoryEntry[]; replacedBy: MemoryEntry[] }> {
  const entry = await memory.get(key, { namespace });
  if (!entry)
    throw new HttpError("NOT_FOUND", `No entry with key "${key}" in namespace "${namespace}".`);
  const seen = new Set([key]);
  const replacedBy: MemoryEntry[] = [];
  let next = entry.supersededBy;
  while (next !== undefined && !seen.has(next) && replacedBy.length < MAX_CHAIN) {
    seen.add(next);
    const newer = await memory.get(next, { namespace });
    if (!newer) break;
    replacedBy.push(newer);
    next = newer.supersededBy;
  }
  const pointingAt = new Map<string, MemoryEntry[]>();
  for await (const candidate of memory.export({ namespace, includeSuperseded: true })) {
    if (candidate.supersededBy === undefined) continue;
    const list = pointingAt.get(candidate.supersededBy) ?? [];
    list.push(candidate);
    pointingAt.set(candidate.supersededBy, list);
  }
  const replaced: MemoryEntry[] = [];
  let frontier = [key];
  while (frontier.length > 0 && replaced.length < MAX_REPLACED) {
    const older: string[] = [];
    for (const target of frontier) {
      for (const candidate of pointingAt.get(target) ?? []) {
        if (seen.has(candidate.key)) continue;
        seen.add(candidate.key);
        replaced.push(candidate);
        older.push(candidate.key);
      }
    }
    frontier = older;
  }
  return {
    entry,
    replaced: withoutEmbeddings(replaced.slice(0, MAX_REPLACED), false),
    replacedBy: withoutEmbeddings(replacedBy, false),
  };
}

const errorResponses = {
  400: { description: "Invalid input (INVALID_INPUT), with the reason." },
  401: { description: "Missing or invalid bearer token (UNAUTHORIZED)." },
  403: { description: "The token may not use this namespace (FORBIDDEN)." },
};

export const routes: RouteSpec[] = [
  defineRoute({
    method: "get",
    path: "/healthz",
    operationId: "health",
    summary: "Liveness: the process is up",
    tag: "health",
    public: true,
    responses: { 200: { description: "Up.", schema: HealthResponseSchema } },
    handler: ({ context }) =>
      json({
        status: "ok",
        version: context.version,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      }),
  }),
  defineRoute({
    method: "get",
    path: "/readyz",
    operationId: "ready",
    summary: "Readiness: backend open, pending embeddings, embedding fingerprint",
    description:
      "503 when the backend is unusable, cannot be written (full disk, read-only store: reads keep working) or the stored vectors were made by another embedding model (run `memory reindex`). Keyword-only operation (no embedder) is ready.",
    tag: "health",
    public: true,
    responses: {
      200: { description: "Ready.", schema: ReadyResponseSchema },
      503: { description: "Not ready; `reasons` says why.", schema: ReadyResponseSchema },
    },
    handler: async ({ context }) => {
      const reasons: string[] = [];
      let report: Awaited<ReturnType<typeof context.memory.healthCheck>> | undefined;
      try {
        report = await context.memory.healthCheck();
        if (report.storage?.writable === false) {
          reasons.push(
            `the store cannot be written: ${report.storage.reason ?? "no reason given"}`,
          );
        } else if (!report.ok) reasons.push(`backend ${report.backend} is not usable`);
        const { providerFingerprint, storedFingerprint } = report.vector;
        if (providerFingerprint && storedFingerprint && providerFingerprint !== storedFingerprint) {
          reasons.push(
            `stored vectors were made with ${storedFingerprint} but the provider is ${providerFingerprint}: run \`memory reindex\``,
          );
        }
      } catch (error) {
        reasons.push(`health check failed: ${(error as Error).message}`);
      }
      return json(
        {
          status: reasons.length === 0 ? "ready" : "not_ready",
          version: context.version,
          backend: report?.backend ?? context.memory.name,
          reasons,
          pendingEmbeddings: report?.pendingEmbeddings ?? 0,
          vector: report?.vector ?? { status: "disabled" },
        },
        reasons.length === 0 ? 200 : 503,
      );
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/memories",
    operationId: "store",
    summary: "Store an entry (upsert on namespace + key)",
    tag: "memories",
    body: StoreRequestSchema,
    responses: {
      200: { description: "The stored entry.", schema: EntryResponseSchema },
      ...errorResponses,
    },
    handler: async ({ body, access, context }) => {
      const namespace = resolveNamespace(access, body.namespace);
      const entry = await context.memory.store(defined({ ...body, namespace }));
      return json({ entry });
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/memories",
    operationId: "list",
    summary: "List entries, newest first",
    tag: "memories",
    query: ListQuery,
    responses: {
      200: { description: "Entries.", schema: EntriesResponseSchema },
      ...errorResponses,
    },
    handler: async ({ query, access, context }) => {
      const namespace = resolveNamespace(access, query.namespace);
      const entries = await context.memory.list(
        defined({
          ...filterFrom(query),
          namespace,
          limit: query.limit,
          offset: query.offset,
          withEmbeddings: query.withEmbeddings,
        }),
      );
      return json({ entries: withoutEmbeddings(entries, query.withEmbeddings) });
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/memories/{key}",
    operationId: "get",
    summary: "Get one entry by key",
    description:
      'Keys made of dot segments ("." or "..") or holding "/" cannot travel in the path: URL normalization turns GET /v1/memories/.. into GET /v1/, whose 404 names the body form. Use POST /v1/memories/get for those.',
    tag: "memories",
    params: KeyParams,
    query: GetQuery,
    responses: {
      200: { description: "The entry.", schema: EntryResponseSchema },
      404: { description: "No such key (NOT_FOUND)." },
      ...errorResponses,
    },
    handler: async ({ params, query, access, context }) =>
      getOne(context.memory, access, { ...query, key: params.key }),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/memories/{key}",
    operationId: "forget",
    summary: "Forget (delete) one entry",
    description:
      'Keys made of dot segments ("." or "..") or holding "/" cannot travel in the path: URL normalization turns DELETE /v1/memories/.. into DELETE /v1/, whose 404 names the body form. Use POST /v1/memories/forget for those.',
    tag: "memories",
    params: KeyParams,
    query: NamespaceQuery,
    responses: {
      200: { description: "Whether it existed.", schema: ForgetResponseSchema },
      ...errorResponses,
    },
    handler: async ({ params, query, access, context }) =>
      forgetOne(context.memory, access, { ...query, key: params.key }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/memories/get",
    operationId: "getByKey",
    summary: "Get one entry by key (body form: works for every key)",
    description:
      'Use this form for keys a URL path cannot carry unchanged, such as "." or "..", or keys with "/".',
    tag: "memories",
    body: GetByKeyRequestSchema,
    responses: {
      200: { description: "The entry.", schema: EntryResponseSchema },
      404: { description: "No such key (NOT_FOUND)." },
      ...errorResponses,
    },
    handler: async ({ body, access, context }) => getOne(context.memory, access, body),
  }),
  defineRoute({
    method: "post",
    path: "/v1/memories/forget",
    operationId: "forgetByKey",
    summary: "Forget (delete) one entry by key (body form: works for every key)",
    tag: "memories",
    body: ForgetByKeyRequestSchema,
    responses: {
      200: { description: "Whether it existed.", schema: ForgetResponseSchema },
      ...errorResponses,
    },
    handler: async ({ body, access, context }) => forgetOne(context.memory, access, body),
  }),
  defineRoute({
    method: "post",
    path: "/v1/memories/chain",
    operationId: "supersessionChain",
    summary: "One entry with its supersession chain: what it replaced and what replaced it",
    description:
      "Body form, so it works for every key. Reads the namespace's superseded entries once (streamed) to find the ones pointing at the key.",
    tag: "memories",
    body: ChainRequestSchema,
    responses: {
      200: { description: "The entry and its chain.", schema: ChainResponseSchema },
      404: { description: "No such key (NOT_FOUND)." },
      ...errorResponses,
    },
    handler: async ({ body, access, context }) => {
      const namespace = resolveNamespace(access, body.namespace);
      return json(await supersessionChain(context.memory, namespace, body.key));
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/namespaces",
    operationId: "listNamespaces",
    summary: "The namespaces the token may use, with entry counts per category",
    description:
      "A scoped token gets its own namespaces (empty ones too), counted with `count`. A full-access token gets every namespace that holds entries, found by one streamed pass over the store.",
    tag: "memories",
    responses: {
      200: { description: "Namespaces, by name.", schema: NamespacesResponseSchema },
      401: errorResponses[401],
    },
    handler: async ({ access, context }) =>
      json({ namespaces: await namespaceSummaries(context.memory, access) }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/recall",
    operationId: "recall",
    summary: "Recall the best entries for a query (hybrid, keyword or vector), with explain",
    tag: "memories",
    body: RecallRequestSchema,
    responses: {
      200: { description: "Results, best first.", schema: RecallResponseSchema },
      ...errorResponses,
    },
    handler: async ({ body, access, context, request }) => {
      const { query, namespace: requested, ...options } = body;
      const namespace = resolveNamespace(access, requested);
      const results = await context.memory.recall(
        query,
        defined({ ...options, namespace, signal: request.signal }),
      );
      return json({ results: withoutEmbeddings(results, options.withEmbeddings) });
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/count",
    operationId: "count",
    summary: "Count entries (agrees with list on the same filter)",
    tag: "memories",
    query: CountQuery,
    responses: {
      200: { description: "The count.", schema: CountResponseSchema },
      ...errorResponses,
    },
    handler: async ({ query, access, context }) => {
      const namespace = resolveNamespace(access, query.namespace);
      return json({ count: await context.memory.count({ ...filterFrom(query), namespace }) });
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/core",
    operationId: "topCore",
    summary: "The most important core entries",
    tag: "memories",
    query: TopCoreQuery,
    responses: {
      200: { description: "Entries.", schema: EntriesResponseSchema },
      ...errorResponses,
    },
    handler: async ({ query, access, context }) => {
      const namespace = resolveNamespace(access, query.namespace);
      const entries = await context.memory.topCore(query.limit ?? 10, { namespace });
      return json({ entries: withoutEmbeddings(entries, false) });
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/supersede",
    operationId: "markSuperseded",
    summary: "Mark an entry superseded by a newer one (its text is kept for audit)",
    tag: "memories",
    body: SupersedeRequestSchema,
    responses: {
      200: { description: "Whether oldKey existed.", schema: SupersedeResponseSchema },
      ...errorResponses,
    },
    handler: async ({ body, access, context }) => {
      const namespace = resolveNamespace(access, body.namespace);
      return json({
        superseded: await context.memory.markSuperseded(body.oldKey, body.newKey, { namespace }),
      });
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/namespaces/purge",
    operationId: "purgeNamespaceByBody",
    summary: "Delete every entry of a namespace named in the body (works for every namespace)",
    tag: "purge",
    body: PurgeNamespaceRequestSchema,
    responses: {
      200: { description: "How many were deleted.", schema: PurgeResponseSchema },
      ...errorResponses,
    },
    handler: async ({ body, access, context }) => {
      const namespace = resolveNamespace(access, body.namespace);
      return json({ deleted: await context.memory.purgeNamespace(namespace) });
    },
  }),
  defineRoute({
    method: "delete",
    path: "/v1/namespaces/{namespace}",
    operationId: "purgeNamespace",
    summary: "Delete every entry of a namespace",
    description:
      'A namespace made of dot segments ("." or "..") cannot travel in the path (DELETE /v1/namespaces/.. arrives as DELETE /v1/, whose 404 names the body form): use POST /v1/namespaces/purge.',
    tag: "purge",
    params: NamespaceParams,
    responses: {
      200: { description: "How many were deleted.", schema: PurgeResponseSchema },
      ...errorResponses,
    },
    handler: async ({ params, access, context }) => {
      const namespace = resolveNamespace(access, params.namespace);
      return json({ deleted: await context.memory.purgeNamespace(namespace) });
    },
  }),
  defineRoute({
    method: "delete",
    path: "/v1/sessions/{sessionId}",
    operationId: "purgeSession",
    summary: "Delete every entry of a session",
    description: "Without `namespace`, in every namespace the token may use.",
    tag: "purge",
    params: SessionParams,
    query: PurgeSessionQuery,
    responses: {
      200: { description: "How many were deleted.", schema: PurgeResponseSchema },
      ...errorResponses,
    },
    handler: async ({ params, query, access, context }) => {
      if (query.namespace !== undefined) {
        const namespace = resolveNamespace(access, query.namespace);
        return json({
          deleted: await context.memory.purgeSession(params.sessionId, { namespace }),
        });
      }
      const visible = visibleNamespaces(access);
      if (visible === undefined)
        return json({ deleted: await context.memory.purgeSession(params.sessionId) });
      let deleted = 0;
      for (const namespace of visible)
        deleted += await context.memory.purgeSession(params.sessionId, { namespace });
      return json({ deleted });
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/export",
    operationId: "export",
    summary: "Export entries as NDJSON, oldest first, streamed",
    description:
      'One MemoryEntry per line. Without `namespace`, every namespace the token may use. If the backend fails mid-stream, the last line is an error object ({"error":{code,message}}).',
    tag: "transfer",
    query: ExportQuery,
    responses: {
      200: {
        description: "NDJSON, one MemoryEntry per line.",
        lineSchema: MemoryEntrySchema,
        contentType: NDJSON,
      },
      ...errorResponses,
    },
    handler: async ({ query, access, context }) => {
      const filter = defined({ ...filterFrom(query), withEmbeddings: query.withEmbeddings });
      // Validated before the 200 goes out: a bad filter is a 400, not an error line in a stream.
      normalizeFilter(
        query.namespace === undefined ? filter : { ...filter, namespace: query.namespace },
        { allNamespacesByDefault: true, includeSupersededByDefault: true },
      );
      const sources = exportSources(context.memory, access, query.namespace, filter);
      return new Response(ndjsonStream(sources, context.logger), {
        headers: { "content-type": `${NDJSON}; charset=utf-8` },
      });
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/import",
    operationId: "import",
    summary: "Import NDJSON entries (upsert on namespace + key), streamed",
    description:
      "One entry per line, as an export writes them (a MemoryEntry: key and content required; id, category, namespace, sessionId, importance, createdAt, updatedAt, supersededBy and embedding kept; score and explain ignored), so an export can be sent back as is. Lines that are not valid JSON, do not match the schema, or name a namespace the token may not use are rejected one by one; the rest is imported. Entries without a namespace go to the token's default namespace.",
    tag: "transfer",
    rawBody: {
      contentType: NDJSON,
      description: "NDJSON, one entry (MemoryEntry fields) per line.",
    },
    responses: {
      200: { description: "What was imported and rejected.", schema: ImportResponseSchema },
      413: { description: "The body or one line is too large (PAYLOAD_TOO_LARGE)." },
      ...errorResponses,
    },
    handler: async ({ access, request, context }) => {
      const rejected: ImportRejection[] = [];
      // Position in what the backend sees -> position in the body, to report rejections by line.
      const positions: number[] = [];
      async function* entries(): AsyncGenerator<ImportEntry> {
        let index = 0;
        for await (const line of readNdjsonLines(
          request,
          context.maxImportBytes,
          context.maxBodyBytes,
        )) {
          const position = index++;
          let value: unknown;
          try {
            value = JSON.parse(line);
          } catch (error) {
            rejected.push({
              index: position,
              code: "INVALID_INPUT",
              message: `Not valid JSON: ${(error as Error).message}`,
            });
            continue;
          }
          const parsed = ImportEntrySchema.safeParse(value);
          if (!parsed.success) {
            const issue = parsed.error.issues[0];
            rejected.push({
              index: position,
              code: "INVALID_INPUT",
              message: `${issue?.path.join(".") || "entry"}: ${issue?.message ?? "invalid"}`,
            });
            continue;
          }
          const namespace = parsed.data.namespace ?? access.defaultNamespace;
          if (!canUse(access, namespace)) {
            rejected.push({
              index: position,
              key: parsed.data.key,
              code: "FORBIDDEN",
              message: `This token may not use namespace "${namespace}".`,
            });
            continue;
          }
          positions.push(position);
          yield defined({ ...parsed.data, namespace });
        }
      }
      const report = await context.memory.importEntries(entries(), { signal: request.signal });
      const all = [
        ...rejected,
        ...report.rejected.map((rejection) => ({
          ...rejection,
          index: positions[rejection.index] ?? rejection.index,
        })),
      ].sort((a, b) => a.index - b.index);
      return json({ imported: report.imported, rejected: all });
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/context",
    operationId: "buildContext",
    summary: "Build the [Memory context] block for a user message (recall + top core memories)",
    tag: "agent",
    body: ContextRequestSchema,
    responses: {
      200: { description: "The context block.", schema: ContextResponseSchema },
      ...errorResponses,
    },
    handler: async ({ body, access, context, request }) => {
      const { message, namespace: requested, ...options } = body;
      const namespace = resolveNamespace(access, requested);
      const built = await buildMemoryContext(
        context.memory,
        message,
        // memory.toml's auto_recall* under what the request gives.
        defined({
          ...context.contextDefaults,
          ...defined(options),
          namespace,
          signal: request.signal,
        }),
      );
      return json({
        context: built.text,
        entries: withoutEmbeddings(built.entries, false),
        truncated: built.truncated,
      });
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/autosave",
    operationId: "autosaveTurn",
    summary: "Autosave a conversation turn (user message as conversation, reply start as daily)",
    tag: "agent",
    body: AutosaveRequestSchema,
    responses: {
      200: { description: "What was stored and skipped.", schema: AutosaveResponseSchema },
      ...errorResponses,
    },
    handler: async ({ body, access, context }) => {
      const namespace = resolveNamespace(access, body.namespace);
      const saved = await autosaveTurn(context.memory, defined({ ...body, namespace }));
      return json({ stored: withoutEmbeddings(saved.stored, false), skipped: saved.skipped });
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/consolidate",
    operationId: "consolidateTurn",
    summary:
      "Consolidate a turn without an LLM: a daily entry, and the user message promoted to core when important",
    description:
      'Stores the turn as a daily entry (`daily_<date>_<uuid>`, "User: ..." and "Assistant: ..." lines), then promotes the user message to core (key derived from its content) when its importance as a core entry is at least 0.8 (a decision, rule, "always", "never", "must"...) and it has at least 10 characters. Older core entries it contradicts or updates are superseded (the conflict_mode of the store, else the combined check at conflict_threshold). Empty messages and text the autosave filter skips (cron, heartbeat, memory context) store nothing.',
    tag: "agent",
    body: ConsolidateRequestSchema,
    responses: {
      200: {
        description: "What was stored, promoted and superseded.",
        schema: ConsolidateResponseSchema,
      },
      ...errorResponses,
    },
    handler: async ({ body, access, context }) => {
      const namespace = resolveNamespace(access, body.namespace);
      return json(await consolidateOne(context.memory, body, namespace, context.turnSettings));
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/remember",
    operationId: "rememberTurn",
    summary:
      "Remember a turn with the chat model: the raw turn as conversation, its durable facts as core entries",
    description:
      "Stores the turn as a conversation entry first, then asks the configured chat model (chat_provider, resolved once at start) for the durable facts in it (preferences, decisions, biographical and project facts) and stores each as a core entry (an upsert on the fact's key; conflict handling on store applies). An unusable answer is asked again up to remember_retries times. When the model fails or keeps answering garbage, the error keeps the chat error's code (BACKEND_UNAVAILABLE for unusable answers, else the model call's: TIMEOUT, ...) and names the stored turn: the raw turn is stored anyway, no fact is. Without a chat model: 501 UNSUPPORTED (set chat_provider). Turns the autosave filter skips are not stored nor sent to the model.",
    tag: "agent",
    body: RememberRequestSchema,
    responses: {
      200: { description: "The stored turn and facts.", schema: RememberResponseSchema },
      501: { description: "The server has no chat model: set chat_provider (UNSUPPORTED)." },
      503: {
        description:
          "The chat model kept answering unusable JSON or is unreachable (BACKEND_UNAVAILABLE); the turn is stored.",
      },
      ...errorResponses,
    },
    handler: async ({ body, access, context, request }) => {
      const namespace = resolveNamespace(access, body.namespace);
      return json(
        await rememberOne(context.memory, context.chatModel, body, namespace, {
          ...context.turnSettings,
          signal: request.signal,
        }),
      );
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/jobs",
    operationId: "listJobs",
    summary:
      "Maintenance jobs (hygiene, snapshot, curate, transcripts): last run, next run, last report, last error",
    description:
      "Read from the job state in the store, so it shows the runs of every server and `memory worker` on this store. Any valid token may read it; the numbers cover every namespace.",
    tag: "jobs",
    responses: {
      200: { description: "One item per known job.", schema: JobsResponseSchema },
      401: errorResponses[401],
    },
    handler: async ({ context }) => {
      const jobs = await Promise.all(
        JOB_NAMES.map(async (name) => {
          const { running: _running, ...status } = jobStatusFromState(
            name,
            await context.memory.getJobState(name),
          );
          return status;
        }),
      );
      return json({ jobs });
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/files",
    operationId: "readFile",
    summary: "Read lines of a memory file (Markdown backend)",
    description:
      "The `path`, `startLine` and `endLine` of a recall result name a file and lines; this reads them with their surroundings. Confined to the memory tree (no absolute paths, `..` or links leading out: INVALID_INPUT) and to the token's namespaces; other backends answer UNSUPPORTED.",
    tag: "memories",
    query: FileQuery,
    responses: {
      200: { description: "The lines.", schema: FileResponseSchema },
      404: { description: "No such file (NOT_FOUND)." },
      501: { description: "The backend keeps no files (UNSUPPORTED)." },
      ...errorResponses,
    },
    handler: async ({ query, access, context }) =>
      json(await readMemoryFile(context.memory, access, query)),
  }),
];
