import {
  countEntries,
  forgetEntry,
  getEntry,
  listEntries,
  storeEntry,
  topCoreEntries,
} from "../operations/entries.js";
import { supersessionChain } from "../operations/supersession-chain.js";
import { defineRoute, errorResponses, json, scopeOf } from "../route-spec.js";
import {
  CountQuery,
  GetQuery,
  KeyParams,
  ListQuery,
  NamespaceQuery,
  TopCoreQuery,
} from "../wire/queries.js";
import {
  ChainRequestSchema,
  ForgetByKeyRequestSchema,
  GetByKeyRequestSchema,
  StoreRequestSchema,
} from "../wire/requests.js";
import {
  ChainResponseSchema,
  CountResponseSchema,
  EntriesResponseSchema,
  EntryResponseSchema,
  ForgetResponseSchema,
} from "../wire/responses.js";

const DOT_SEGMENT_NOTE = (method: string, bodyForm: string) =>
  `Keys made of dot segments ("." or "..") or holding "/" cannot travel in the path: URL normalization turns ${method} /v1/memories/.. into ${method} /v1/, whose 404 names the body form. Use POST ${bodyForm} for those.`;

/** Entries one by one: store, get, forget, list, count, top core, supersession chain. */
export const memoryRoutes = [
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
    handler: async (input) => json({ entry: await storeEntry(input.body, scopeOf(input)) }),
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
    handler: async (input) => json({ entries: await listEntries(input.query, scopeOf(input)) }),
  }),
  defineRoute({
    method: "get",
    path: "/v1/memories/{key}",
    operationId: "get",
    summary: "Get one entry by key",
    description: DOT_SEGMENT_NOTE("GET", "/v1/memories/get"),
    tag: "memories",
    params: KeyParams,
    query: GetQuery,
    responses: {
      200: { description: "The entry.", schema: EntryResponseSchema },
      404: { description: "No such key (NOT_FOUND)." },
      ...errorResponses,
    },
    handler: async (input) =>
      json({ entry: await getEntry({ ...input.query, key: input.params.key }, scopeOf(input)) }),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/memories/{key}",
    operationId: "forget",
    summary: "Forget (delete) one entry",
    description: DOT_SEGMENT_NOTE("DELETE", "/v1/memories/forget"),
    tag: "memories",
    params: KeyParams,
    query: NamespaceQuery,
    responses: {
      200: { description: "Whether it existed.", schema: ForgetResponseSchema },
      ...errorResponses,
    },
    handler: async (input) =>
      json({
        deleted: await forgetEntry({ ...input.query, key: input.params.key }, scopeOf(input)),
      }),
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
    handler: async (input) => json({ entry: await getEntry(input.body, scopeOf(input)) }),
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
    handler: async (input) => json({ deleted: await forgetEntry(input.body, scopeOf(input)) }),
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
    handler: async (input) => json(await supersessionChain(input.body, scopeOf(input))),
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
    handler: async (input) => json({ count: await countEntries(input.query, scopeOf(input)) }),
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
    handler: async (input) => json({ entries: await topCoreEntries(input.query, scopeOf(input)) }),
  }),
];
