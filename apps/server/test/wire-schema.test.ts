import { describe, expect, it } from "vitest";
import { RecallResponseSchema } from "../src/schemas.js";
import { startTestServer } from "./helpers.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON from the wire, walked field by field
type Json = Record<string, any>;

/**
 * The fields of `value` that the OpenAPI schema does not describe, as JSON paths: a field the
 * API returns but the document omits is one a generated client drops.
 */
function undocumentedFields(value: unknown, schema: Json, document: Json, path = "$"): string[] {
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.slice("#/components/schemas/".length);
    return undocumentedFields(value, document.components.schemas[name], document, path);
  }
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants) {
    const results = variants.map((variant) => undocumentedFields(value, variant, document, path));
    return results.find((missing) => missing.length === 0) ?? results[0] ?? [];
  }
  if (Array.isArray(value))
    return value.flatMap((item, index) =>
      undocumentedFields(item, schema.items ?? {}, document, `${path}[${index}]`),
    );
  if (value === null || typeof value !== "object") return [];
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  return Object.entries(value).flatMap(([name, child]) =>
    properties[name] === undefined
      ? [`${path}.${name}`]
      : undocumentedFields(child, properties[name], document, `${path}.${name}`),
  );
}

describe("the wire schema", () => {
  it("describes every field of a real recall response, explain.intent and explain.context included", async () => {
    const server = await startTestServer();
    // One session of a conversation: the answer mentions a time (a "when" question boosts it:
    // explain.intent) and its neighbour holds the question's words (explain.context).
    const turns = [
      "Caroline: I went to the LGBTQ support group yesterday, it was powerful.",
      "Melanie: That sounds great!",
      "Caroline: It was on 7 May 2023.",
    ];
    for (const [index, content] of turns.entries()) {
      const stored = await server.call("POST", "/v1/memories", {
        body: { key: `turn-${index}`, content, category: "conversation", sessionId: "s1" },
      });
      expect(stored.status).toBe(200);
    }
    const response = await server.call("POST", "/v1/recall", {
      body: { query: "When did Caroline go to the LGBTQ support group?", limit: 5 },
    });
    expect(response.status).toBe(200);
    const body = response.body as Json;
    const explains = (body.results as Json[]).map((entry) => entry.explain as Json);
    expect(explains.some((explain) => typeof explain.intent === "number")).toBe(true);
    expect(explains.some((explain) => typeof explain.context === "number")).toBe(true);

    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    const recallSchema =
      document.paths["/v1/recall"].post.responses["200"].content["application/json"].schema;
    expect(undocumentedFields(body, recallSchema, document)).toEqual([]);
    // The zod schema the document is generated from keeps them too (it strips unknown keys).
    expect(RecallResponseSchema.parse(body)).toEqual(body);
  });
});
