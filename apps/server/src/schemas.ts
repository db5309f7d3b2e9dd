/**
 * The wire schema, defined once in src/wire/ (shapes of entries and explain, requests, queries,
 * responses): this module gathers it for the routes, the MCP tools and the tests.
 */
export { ConflictDecisionSchema, MemoryEntrySchema, RecallExplainSchema } from "./wire/entry.js";
export { INPUT_BOUNDS, schemaRegistry } from "./wire/fields.js";
export * from "./wire/queries.js";
export * from "./wire/requests.js";
export * from "./wire/responses.js";
