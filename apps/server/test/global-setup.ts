import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Some tests run the built server as a child process (`dist/main.mjs`, the stdio fixture).
 * `turbo run test` only builds dependencies first, so build this package when dist is missing
 * or older than src, instead of testing stale code.
 */
export default function setup(): void {
  const main = path.join(root, "dist/main.mjs");
  if (existsSync(main) && statSync(main).mtimeMs >= newestSource(path.join(root, "src"))) return;
  execSync("npx tsdown", { cwd: root, stdio: "ignore" });
  // tsdown empties dist/, the web inspector's build (dist/ui) included: rebuild it too, or the
  // browser tests would find it missing after any change under src/.
  if (!existsSync(path.join(root, "dist/ui/index.html")))
    execSync("npx vite build --config ui/vite.config.ts", { cwd: root, stdio: "ignore" });
}
