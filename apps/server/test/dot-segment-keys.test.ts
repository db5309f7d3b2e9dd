import { describe, expect, it } from "vitest";
import { startTestServer } from "./helpers.js";

describe("keys and namespaces made of dot segments", () => {
  it("answers GET/DELETE /v1/memories/.. and /. with a 404 naming the body form, which works", async () => {
    const server = await startTestServer();
    for (const key of ["..", "."]) {
      const stored = await server.call("POST", "/v1/memories", {
        body: { key, content: `stored under ${key}` },
      });
      expect(stored.status).toBe(200);

      const got = await server.call("GET", `/v1/memories/${key}`);
      expect(got.status).toBe(404);
      expect(got.body.error.code).toBe("NOT_FOUND");
      expect(got.body.error.message).toContain("URL normalization removed it from the path");
      expect(got.body.error.message).toContain('POST /v1/memories/get with {"key": ".."');
      const deleted = await server.call("DELETE", `/v1/memories/${key}`);
      expect(deleted.status).toBe(404);
      expect(deleted.body.error.message).toContain('POST /v1/memories/forget with {"key": ".."');

      // What the answer says to do.
      const viaBody = await server.call("POST", "/v1/memories/get", { body: { key } });
      expect(viaBody.body.entry.content).toBe(`stored under ${key}`);
      const forgot = await server.call("POST", "/v1/memories/forget", { body: { key } });
      expect(forgot.body).toEqual({ deleted: true });
    }
    const namespace = await server.call("DELETE", "/v1/namespaces/..");
    expect(namespace.status).toBe(404);
    expect(namespace.body.error.message).toContain("POST /v1/namespaces/purge");
  });

  it("keeps the plain 404 elsewhere", async () => {
    const server = await startTestServer();
    const missing = await server.call("GET", "/v1/nothing-here");
    expect(missing.body.error.message).toBe("No route GET /v1/nothing-here; see /openapi.json.");
    const post = await server.call("POST", "/v1/", { body: {} });
    expect(post.body.error.message).toBe("No route POST /v1/; see /openapi.json.");
  });

  it("says so in the OpenAPI document", async () => {
    const server = await startTestServer();
    const document = (await server.call("GET", "/openapi.json")).body;
    const byKey = document.paths["/v1/memories/{key}"];
    expect(byKey.get.description).toContain("Use POST /v1/memories/get");
    expect(byKey.delete.description).toContain("Use POST /v1/memories/forget");
    expect(document.paths["/v1/namespaces/{namespace}"].delete.description).toContain(
      "POST /v1/namespaces/purge",
    );
  });
});
