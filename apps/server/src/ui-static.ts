import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Where the web inspector is served. */
export const UI_PREFIX = "/ui";

/**
 * Same origin only: the inspector loads its own script and style files and calls this server's
 * /v1 API. No inline script or style, no frames, no plugins.
 */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".woff2": "font/woff2",
};

interface StaticFile {
  bytes: Uint8Array;
  contentType: string;
  /** Vite puts content hashes in the names under assets/: those never change. */
  immutable: boolean;
}

/** True for the paths the inspector answers without a token (the files are public). */
export function isUiPath(path: string): boolean {
  return path === "/" || path === UI_PREFIX || path.startsWith(`${UI_PREFIX}/`);
}

/**
 * The built inspector: `dist/ui` next to the bundled server (`dist/*.mjs`), or, when the server
 * runs from source (tests), `../dist/ui` from `src/`.
 */
export function defaultUiDir(): string {
  const candidates = [new URL("./ui/", import.meta.url), new URL("../dist/ui/", import.meta.url)];
  for (const candidate of candidates) {
    const dir = fileURLToPath(candidate);
    if (existsSync(join(dir, "index.html"))) return dir;
  }
  return fileURLToPath(candidates[0]!);
}

function collect(root: string, dir: string, files: Map<string, StaticFile>): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stats = statSync(path);
    if (stats.isDirectory()) {
      collect(root, path, files);
      continue;
    }
    const rel = relative(root, path).split(sep).join("/");
    files.set(rel, {
      bytes: readFileSync(path),
      contentType: CONTENT_TYPES[extname(name).toLowerCase()] ?? "application/octet-stream",
      immutable: rel.startsWith("assets/"),
    });
  }
}

function notFound(): Response {
  return new Response(
    JSON.stringify({
      error: { code: "NOT_FOUND", message: "No such file in the web inspector." },
    }),
    { status: 404, headers: { "content-type": "application/json; charset=utf-8" } },
  );
}

/**
 * Serves the inspector's static files. The whole (small, built) directory is read once, on the
 * first request, into a map of relative paths: a request can only name a file that was in the
 * directory, so `..`, encoded dots and backslashes find nothing. The resolved-path check is a
 * second guard for the same rule.
 */
export function createUiHandler(dir: string = defaultUiDir()): (path: string) => Response {
  const root = resolve(dir);
  let files: Map<string, StaticFile> | undefined;
  return (path: string) => {
    if (!files) {
      files = new Map();
      if (existsSync(join(root, "index.html"))) collect(root, root, files);
    }
    if (!path.startsWith(UI_PREFIX)) return notFound();
    let rel = path.slice(UI_PREFIX.length).replace(/^\/+/, "");
    if (rel === "") rel = "index.html";
    let decoded: string;
    try {
      decoded = decodeURIComponent(rel);
    } catch {
      return notFound();
    }
    if (decoded.includes("\\") || decoded.includes("\0")) return notFound();
    const full = resolve(root, decoded);
    if (full !== root && !full.startsWith(`${root}${sep}`)) return notFound();
    const file = files.get(decoded);
    if (!file) {
      if (files.size === 0) {
        return new Response(
          "The web inspector was not built: run `pnpm --filter @memory/server build`.",
          { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } },
        );
      }
      return notFound();
    }
    return new Response(file.bytes, {
      headers: {
        "content-type": file.contentType,
        "content-security-policy": UI_CONTENT_SECURITY_POLICY,
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "cache-control": file.immutable ? "public, max-age=31536000, immutable" : "no-cache",
      },
    });
  };
}
