import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, routes } from "../src/index.js";
import { listInProcessTools } from "./mcp-clients.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema, compared field by field
type Json = Record<string, any>;

/** A JSON Schema without descriptions (the MCP tools describe fields for the model). */
function constraints(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(constraints);
  if (schema && typeof schema === "object")
    return Object.fromEntries(
      Object.entries(schema)
        .filter(([key]) => key !== "description")
        .map(([key, value]) => [key, constraints(value)]),
    );
  return schema;
}

/** Each MCP tool and the HTTP body whose fields (and bounds) it takes. */
const SAME_FIELDS: Record<string, { component: string; fields?: string[] }> = {
  memory_store: {
    component: "StoreRequest",
    fields: ["key", "content", "category", "importance", "sessionId", "namespace"],
  },
  memory_recall: {
    component: "RecallRequest",
    fields: [
      "query",
      "limit",
      "categories",
      "sessionId",
      "minScore",
      "includeSnoozed",
      "collections",
      "namespace",
    ],
  },
  memory_context: { component: "ContextRequest" },
  memory_forget: { component: "ForgetByKeyRequest" },
  memory_consolidate: { component: "ConsolidateRequest" },
  memory_remember: { component: "RememberRequest" },
  memory_collection_sync: { component: "SyncCollectionsRequest" },
  memory_collection_add: { component: "AddCollectionRequest" },
  memory_feedback: { component: "FeedbackRequest" },
  memory_pin: { component: "PinRequest" },
  memory_snooze: { component: "SnoozeRequest" },
};

describe("MCP input schemas", () => {
  it("take the HTTP bodies' fields with the same bounds, and refuse unknown arguments", async () => {
    const tools = await listInProcessTools();
    const document = buildOpenApiDocument(routes, { version: "test", mcp: true }) as Json;
    const components = document.components.schemas as Record<string, Json>;
    for (const [name, { component, fields }] of Object.entries(SAME_FIELDS)) {
      const tool = tools.find((candidate) => candidate.name === name)!;
      const http = components[component]!;
      const names = fields ?? Object.keys(http.properties);
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort(), name).toEqual(
        expect.arrayContaining(names),
      );
      expect(tool.inputSchema.additionalProperties, name).toBe(false);
      for (const field of names) {
        const mcp = (tool.inputSchema.properties as Json)[field];
        expect(constraints(mcp), `${name}.${field} vs ${component}.${field}`).toEqual(
          constraints(http.properties[field]),
        );
      }
    }
  });
});
