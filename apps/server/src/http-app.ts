import type { ChatModel, Memory } from "@memory/api";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import { type Access, accessForToken, bearerToken, FULL_ACCESS, matchToken } from "./access.js";
import { readJsonBody, withUtf8Body } from "./body.js";
import { HttpError, invalidInput, toErrorResponse } from "./http-error.js";
import { type Logger, stderrLogger } from "./logger.js";
import { createMcpServer } from "./mcp-server.js";
import { routeNotFound } from "./not-found.js";
import { buildOpenApiDocument } from "./openapi.js";
import { honoPath, json, type RouteContext, type RouteSpec } from "./route-spec.js";
import { routes as defaultRoutes } from "./routes/index.js";
import { isLoopbackHost, type ResolvedToken } from "./server-settings.js";
import { createUiHandler, isUiPath, UI_PREFIX } from "./ui-static.js";
import { VERSION } from "./version.js";

export interface HttpAppOptions {
  memory: Memory;
  /** Accepted bearer tokens (see `resolveServerSettings`). */
  tokens?: readonly ResolvedToken[];
  /** Serve requests without a token. `startServer` only allows it on a loopback host. */
  allowUnauthenticated?: boolean;
  /** Default 1 MiB. */
  maxBodyBytes?: number;
  /** Default 100 MiB. */
  maxImportBytes?: number;
  /** Serve MCP at /mcp; default true. */
  mcp?: boolean;
  accessLog?: boolean;
  logger?: Logger;
  /** Answer 503 SHUTTING_DOWN while true (set by graceful shutdown). */
  isShuttingDown?: () => boolean;
  version?: string;
  /** Serve the web inspector at /ui (and redirect / there); default true. */
  ui?: boolean;
  /** The built inspector files; default `dist/ui` of this package. */
  uiDir?: string;
  /**
   * Defaults of `POST /v1/context` under what a request gives (`auto_recall`,
   * `auto_recall_limit`, `auto_recall_min_score`: `memoryContextOptionsFromConfig`).
   */
  contextDefaults?: RouteContext["contextDefaults"];
  /**
   * The chat model of `POST /v1/remember` and the MCP tool `memory_remember` (`startServer`
   * passes the one `chat_provider` resolves to, shared with the jobs). Without one, remember
   * answers UNSUPPORTED and MCP does not list the tool.
   */
  chatModel?: ChatModel | null;
  /** `conflict_threshold` (consolidate) and `remember_retries` (remember) from memory.toml. */
  turnSettings?: RouteContext["turnSettings"];
  /** memory.toml's `[collections.*]` and `[server].collection_roots` (default: none of either). */
  collections?: RouteContext["collections"];
  /**
   * Sent as the `x-memory-worker` header of every response when set (the cluster worker's id),
   * so an operator or a test can tell which worker process answered.
   */
  workerId?: string;
}

type AppEnv = { Variables: { access: Access } };

function errorResponse(error: unknown, logger: Logger, headers?: Record<string, string>): Response {
  const { status, body, internal } = toErrorResponse(error);
  if (internal) logger.error("request failed", error);
  const response = json(body, status);
  for (const [name, value] of Object.entries(headers ?? {})) response.headers.set(name, value);
  if (status === 401) response.headers.set("www-authenticate", 'Bearer realm="memory"');
  return response;
}

function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hostHeader);
  if (bracketed) return bracketed[1];
  return hostHeader.replace(/:\d+$/, "");
}

/**
 * Browsers can reach a loopback server from any web page (a form POST needs no CORS preflight,
 * and DNS rebinding can make a page's own host resolve to 127.0.0.1). Without tokens, the only
 * barrier is to answer requests addressed to a loopback name from no foreign origin.
 */
function checkAnonymousRequest(request: Request): void {
  const host = hostnameOf(request.headers.get("host") ?? undefined);
  if (host !== undefined && !isLoopbackHost(host)) {
    throw new HttpError(
      "FORBIDDEN",
      `Unauthenticated mode only answers requests addressed to a loopback host (got Host "${host}"); use http://127.0.0.1 or configure a token.`,
    );
  }
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== "null") {
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).hostname;
    } catch {
      originHost = undefined;
    }
    if (originHost === undefined || !isLoopbackHost(originHost)) {
      throw new HttpError(
        "FORBIDDEN",
        `Unauthenticated mode refuses cross-origin requests (Origin ${origin}); configure a token to allow them.`,
      );
    }
  } else if (origin === "null") {
    throw new HttpError("FORBIDDEN", "Unauthenticated mode refuses requests from opaque origins.");
  }
}

/**
 * The HTTP application: the JSON API under /v1, health and readiness, /openapi.json and MCP at
 * /mcp, behind bearer-token auth with per-namespace scopes. It does not listen; `startServer`
 * does, or mount `app.fetch` in any Fetch-API server.
 */
export function createHttpApp(options: HttpAppOptions): Hono<AppEnv> {
  const logger = options.logger ?? stderrLogger;
  const tokens = options.tokens ?? [];
  const allowUnauthenticated = options.allowUnauthenticated ?? false;
  const mcpEnabled = options.mcp ?? true;
  const version = options.version ?? VERSION;
  const uiEnabled = options.ui ?? true;
  const context: RouteContext = {
    memory: options.memory,
    contextDefaults: options.contextDefaults ?? {},
    chatModel: options.chatModel ?? null,
    turnSettings: options.turnSettings ?? {},
    collections: options.collections ?? { configured: [], roots: [] },
    logger,
    maxBodyBytes: options.maxBodyBytes ?? 1_048_576,
    maxImportBytes: options.maxImportBytes ?? 104_857_600,
    version,
  };
  const routes: RouteSpec[] = defaultRoutes;
  const publicPaths = new Set([
    "/openapi.json",
    ...routes.filter((route) => route.public).map((route) => route.path),
  ]);
  let openApiText: string | undefined;

  const app = new Hono<AppEnv>();

  app.use("*", async (c, next) => {
    const started = performance.now();
    try {
      if (options.isShuttingDown?.() && !publicPaths.has(c.req.path)) {
        throw new HttpError(
          "SHUTTING_DOWN",
          "The server is shutting down; retry against another instance.",
        );
      }
      // The inspector's files are public; the /v1 calls it makes carry the token.
      if (!publicPaths.has(c.req.path) && !(uiEnabled && isUiPath(c.req.path))) {
        const header = c.req.header("authorization");
        const presented = bearerToken(header);
        if (header !== undefined && presented === undefined) {
          throw new HttpError("UNAUTHORIZED", "The Authorization header must be `Bearer <token>`.");
        }
        if (presented !== undefined) {
          const token = matchToken(tokens, presented);
          if (!token) throw new HttpError("UNAUTHORIZED", "The bearer token is not valid.");
          c.set("access", accessForToken(token));
        } else if (allowUnauthenticated) {
          checkAnonymousRequest(c.req.raw);
          c.set("access", FULL_ACCESS);
        } else {
          throw new HttpError(
            "UNAUTHORIZED",
            "A bearer token is required: send `Authorization: Bearer <token>`.",
          );
        }
      }
      await next();
    } catch (error) {
      c.res = errorResponse(
        error,
        logger,
        options.isShuttingDown?.() ? { connection: "close" } : undefined,
      );
    }
    if (options.isShuttingDown?.()) c.res.headers.set("connection", "close");
    if (options.workerId !== undefined) c.res.headers.set("x-memory-worker", options.workerId);
    if (options.accessLog) {
      const access = c.get("access");
      logger.info(
        `${c.req.method} ${c.req.path} ${c.res.status} ${(performance.now() - started).toFixed(1)}ms ${access?.label ?? "-"}`,
      );
    }
  });

  for (const route of routes) {
    app.on(route.method.toUpperCase(), honoPath(route.path), async (c) => {
      const params = route.params?.safeParse(c.req.param());
      if (params && !params.success) throw invalidInput(params.error, "path");
      const query = route.query?.safeParse(c.req.query());
      if (query && !query.success) throw invalidInput(query.error, "query");
      let body: unknown;
      if (route.body) {
        const raw = await readJsonBody(c.req.raw, context.maxBodyBytes);
        const parsed = route.body.safeParse(raw);
        if (!parsed.success) throw invalidInput(parsed.error, "body");
        body = parsed.data;
      }
      return route.handler({
        params: params?.data,
        query: query?.data,
        body,
        access: c.get("access") ?? FULL_ACCESS,
        request: c.req.raw,
        context,
      } as never);
    });
  }

  app.get("/openapi.json", () => {
    openApiText ??= JSON.stringify(
      buildOpenApiDocument(routes, { version, mcp: mcpEnabled, ui: uiEnabled }),
    );
    return new Response(openApiText, {
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  });

  if (uiEnabled) {
    const serveUi = createUiHandler(options.uiDir);
    app.get("/", (c) => c.redirect(UI_PREFIX, 302));
    app.get(UI_PREFIX, (c) => serveUi(c.req.path));
    app.get(`${UI_PREFIX}/*`, (c) => serveUi(c.req.path));
  }

  if (mcpEnabled) {
    app.post("/mcp", async (c) => {
      // Read first: bad bytes are INVALID_INPUT here as on /v1, not U+FFFD in a tool argument.
      const request = await withUtf8Body(c.req.raw, context.maxBodyBytes);
      // Stateless: one MCP server per request, bound to this request's token scope. Nothing
      // lives between requests, so any replica can answer any request.
      const server = createMcpServer({
        memory: context.memory,
        access: c.get("access"),
        version,
        logger,
        chatModel: context.chatModel,
        turnSettings: context.turnSettings,
        collections: context.collections,
        contextDefaults: context.contextDefaults,
      });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: context.maxBodyBytes,
      });
      try {
        await server.connect(transport);
        return await transport.handleRequest(request);
      } finally {
        // JSON response mode: the body is complete once handleRequest resolves.
        await transport.close().catch(() => {});
        await server.close().catch(() => {});
      }
    });
    app.on(["GET", "DELETE"], "/mcp", () => {
      throw new HttpError(
        "METHOD_NOT_ALLOWED",
        "This MCP endpoint is stateless: POST JSON-RPC messages; there is no SSE stream or session to GET or DELETE.",
      );
    });
  }

  app.notFound((c) => errorResponse(routeNotFound(c.req.method, c.req.path), logger));
  app.onError((error) => errorResponse(error, logger));
  return app;
}
