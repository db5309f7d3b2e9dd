import { HttpError } from "./http-error.js";

/**
 * Where a path route lands once a key or namespace made of dot segments has been resolved away
 * by URL normalization (clients and the server do it): `/v1/memories/..` and
 * `/v1/namespaces/..` arrive as `/v1/`, `/v1/memories/.` as `/v1/memories/`.
 */
const DOT_SEGMENT_LANDINGS = new Set(["/v1", "/v1/", "/v1/memories/", "/v1/namespaces/"]);

/**
 * The 404 for a request no route answers. For GET or DELETE on a path where a dot-segment key
 * or namespace lands, it names the body form that reaches any key, since the client cannot
 * otherwise learn why `GET /v1/memories/..` found no route (docs/input-rules.md).
 */
export function routeNotFound(method: string, path: string): HttpError {
  if ((method === "GET" || method === "DELETE") && DOT_SEGMENT_LANDINGS.has(path)) {
    const bodyForm =
      method === "GET"
        ? 'POST /v1/memories/get with {"key": "..", "namespace": "..."}'
        : 'POST /v1/memories/forget with {"key": "..", "namespace": "..."} (a namespace: POST /v1/namespaces/purge with {"namespace": ".."})';
    return new HttpError(
      "NOT_FOUND",
      `No route ${method} ${path}. If you asked for a key or namespace made of dot segments ("." or ".."), URL normalization removed it from the path (${method} /v1/memories/.. arrives as ${method} /v1/): use the body form, ${bodyForm}, which reaches every key. See /openapi.json.`,
    );
  }
  return new HttpError("NOT_FOUND", `No route ${method} ${path}; see /openapi.json.`);
}
