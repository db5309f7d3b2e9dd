import { liveness, readiness } from "../operations/health.js";
import { defineRoute, json } from "../route-spec.js";
import { HealthResponseSchema, ReadyResponseSchema } from "../wire/responses.js";

/** Liveness and readiness, served without a token. */
export const healthRoutes = [
  defineRoute({
    method: "get",
    path: "/healthz",
    operationId: "health",
    summary: "Liveness: the process is up",
    tag: "health",
    public: true,
    responses: { 200: { description: "Up.", schema: HealthResponseSchema } },
    handler: ({ context }) => json(liveness(context.version)),
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
      const ready = await readiness(context.memory, context.version);
      return json(ready, ready.status === "ready" ? 200 : 503);
    },
  }),
];
