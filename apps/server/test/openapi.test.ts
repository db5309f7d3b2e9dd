import { createInMemoryMemory } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { createHttpApp, routes, VERSION } from "../src/index.js";
import {
  EntriesResponseSchema,
  EntryResponseSchema,
  ErrorSchema,
  JsonRpcErrorSchema,
  MemoryEntrySchema,
  ReadyResponseSchema,
  RecallResponseSchema,
} from "../src/schemas.js";
import { startTestServer, TOKEN_ALL } from "./helpers.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON from the wire, checked field by field
type Json = Record<string, any>;

function collectRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, out);
  else if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") out.push(child);
      else collectRefs(child, out);
    }
  }
  return out;
}

async function fetchDocument(): Promise<Json> {
  const server = await startTestServer();
  const response = await fetch(`${server.url}/openapi.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

const HTTP_METHODS = ["get", "post", "put", "patch", "delete", "head", "options"];

describe("/openapi.json", () => {
  it("is an OpenAPI 3.1 document with the package version, served without a token", async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe("3.1.0");
    expect(document.info).toMatchObject({ title: expect.any(String), version: VERSION });
    expect(document.components.securitySchemes.bearer).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
  });

  it("documents every served route, and serves every documented route", async () => {
    const document = await fetchDocument();
    const app = createHttpApp({ memory: createInMemoryMemory() });
    const served = new Set(
      app.routes
        .filter((route) => route.method !== "ALL")
        .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, "{$1}")}`),
    );
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      for (const method of Object.keys(item)) documented.add(`${method} ${path}`);
    }
    expect([...documented].sort()).toEqual([...served].sort());
    for (const route of routes) expect(documented.has(`${route.method} ${route.path}`)).toBe(true);
  });

  it("has well-formed operations: unique ids, responses, declared path parameters", async () => {
    const document = await fetchDocument();
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      expect(path.startsWith("/")).toBe(true);
      for (const [method, operation] of Object.entries(item as Record<string, Json>)) {
        expect(HTTP_METHODS).toContain(method);
        expect(typeof operation.operationId).toBe("string");
        expect(ids.has(operation.operationId)).toBe(false);
        ids.add(operation.operationId);
        expect(typeof operation.summary).toBe("string");
        expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
        for (const [status, response] of Object.entries(
          operation.responses as Record<string, Json>,
        )) {
          expect(status === "default" || /^[1-5]\d\d$/.test(status)).toBe(true);
          expect(typeof response.description).toBe("string");
        }
        const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
        const pathParameters = (operation.parameters ?? []).filter(
          (parameter: Json) => parameter.in === "path",
        );
        expect(pathParameters.map((parameter: Json) => parameter.name).sort()).toEqual(
          templated.sort(),
        );
        for (const parameter of operation.parameters ?? []) {
          expect(["path", "query"]).toContain(parameter.in);
          expect(parameter.schema).toBeTypeOf("object");
          if (parameter.in === "path") expect(parameter.required).toBe(true);
        }
        if (operation.requestBody)
          expect(Object.keys(operation.requestBody.content).length).toBe(1);
      }
    }
  });

  it("resolves every $ref to a component schema", async () => {
    const document = await fetchDocument();
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      expect(ref.startsWith("#/components/schemas/")).toBe(true);
      const name = ref.slice("#/components/schemas/".length);
      expect(document.components.schemas[name], ref).toBeTypeOf("object");
    }
    for (const schema of Object.values(document.components.schemas as Record<string, Json>)) {
      expect(schema.$schema).toBeUndefined();
      expect(schema.type ?? schema.$ref ?? schema.anyOf ?? schema.allOf).toBeDefined();
    }
  });

  it("describes request bodies and parameters from the same schemas the server validates with", async () => {
    const document = await fetchDocument();
    const store = document.paths["/v1/memories"].post;
    expect(store.requestBody.content["application/json"].schema.$ref).toBe(
      "#/components/schemas/StoreRequest",
    );
    const storeSchema = document.components.schemas.StoreRequest;
    expect(storeSchema.required).toEqual(["key", "content"]);
    expect(storeSchema.additionalProperties).toBe(false);
    const recallSchema = document.components.schemas.RecallRequest;
    expect(Object.keys(recallSchema.properties)).toEqual(
      expect.arrayContaining([
        "query",
        "limit",
        "namespace",
        "sessionId",
        "categories",
        "since",
        "until",
        "mode",
        "minScore",
        "includeSuperseded",
        "withEmbeddings",
      ]),
    );
    const list = document.paths["/v1/memories"].get;
    expect(list.parameters.map((parameter: Json) => parameter.name)).toEqual(
      expect.arrayContaining(["namespace", "limit", "offset", "categories"]),
    );
    expect(document.paths["/v1/export"].get.responses["200"].content).toHaveProperty([
      "application/x-ndjson",
    ]);
    expect(document.paths["/v1/import"].post.requestBody.content).toHaveProperty([
      "application/x-ndjson",
    ]);
    expect(document.paths["/healthz"].get.security).toEqual([]);
  });

  it("matches what the handlers really return", async () => {
    const server = await startTestServer();
    const stored = await server.call("POST", "/v1/memories", {
      body: { key: "k", content: "hello world", sessionId: "s" },
    });
    expect(EntryResponseSchema.safeParse(stored.body).success).toBe(true);
    const listed = await server.call("GET", "/v1/memories");
    expect(EntriesResponseSchema.safeParse(listed.body).success).toBe(true);
    const recalled = await server.call("POST", "/v1/recall", { body: { query: "hello" } });
    expect(RecallResponseSchema.safeParse(recalled.body).success).toBe(true);
    const ready = await server.call("GET", "/readyz");
    expect(ReadyResponseSchema.safeParse(ready.body).success).toBe(true);
  });

  it("declares no component schema that nothing references (no ImportEntry)", async () => {
    const document = await fetchDocument();
    const { schemas } = document.components;
    const referenced = new Set(
      collectRefs({ paths: document.paths, schemas }).map((ref) =>
        ref.slice("#/components/schemas/".length),
      ),
    );
    expect(Object.keys(schemas)).not.toContain("ImportEntry");
    for (const name of Object.keys(schemas)) expect(referenced.has(name), name).toBe(true);
  });

  it("has servers, and types the export as NDJSON lines of MemoryEntry that the server really writes", async () => {
    const server = await startTestServer();
    const document = (await server.call("GET", "/openapi.json")).body;
    expect(document.servers).toEqual([{ url: "/", description: expect.any(String) }]);
    const media = document.paths["/v1/export"].get.responses["200"].content["application/x-ndjson"];
    expect(media.schema).toMatchObject({ type: "string" });
    expect(media["x-line-schema"]).toEqual({ $ref: "#/components/schemas/MemoryEntry" });
    await server.call("POST", "/v1/memories", { body: { key: "a", content: "first" } });
    await server.call("POST", "/v1/memories", { body: { key: "b", content: "second" } });
    const exported = await server.call("GET", "/v1/export");
    const lines = (exported.body as string).trim().split("\n");
    expect(lines).toHaveLength(2);
    for (const line of lines)
      expect(MemoryEntrySchema.safeParse(JSON.parse(line)).success).toBe(true);
  });

  it("documents /mcp's 401, 406 and 415 with the bodies the server really sends", async () => {
    const server = await startTestServer();
    const mcp = (await server.call("GET", "/openapi.json")).body.paths["/mcp"].post.responses;
    expect(mcp["401"].content["application/json"].schema.$ref).toBe("#/components/schemas/Error");
    for (const status of ["406", "415"])
      expect(mcp[status].content["application/json"].schema.$ref).toBe(
        "#/components/schemas/JsonRpcError",
      );
    const post = (
      headers: Record<string, string>,
      body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    ) => fetch(`${server.url}/mcp`, { method: "POST", headers, body });
    const unauthorized = await post({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    });
    expect(unauthorized.status).toBe(401);
    expect(ErrorSchema.safeParse(await unauthorized.json()).success).toBe(true);
    const auth = { authorization: `Bearer ${TOKEN_ALL}` };
    const notAcceptable = await post({
      ...auth,
      "content-type": "application/json",
      accept: "text/html",
    });
    expect(notAcceptable.status).toBe(406);
    expect(JsonRpcErrorSchema.safeParse(await notAcceptable.json()).success).toBe(true);
    const unsupported = await post({
      ...auth,
      "content-type": "text/plain",
      accept: "application/json, text/event-stream",
    });
    expect(unsupported.status).toBe(415);
    expect(JsonRpcErrorSchema.safeParse(await unsupported.json()).success).toBe(true);
    const notJson = await post(
      {
        ...auth,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      "{not json",
    );
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: { code: -32700 } });
  });
});
