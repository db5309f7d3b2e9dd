import { readFileSync } from "node:fs";
import { defineConfig } from "tsdown";

const { version } = JSON.parse(
  readFileSync(new URL("./package.json", import.meta.url), "utf8"),
) as {
  version: string;
};

export default defineConfig({
  // `index` is the library (startServer, createHttpApp, runMcpStdio); `main` is what `npm start`
  // and `node dist/main.mjs --mcp` run; `context` is the memory context operation alone (the
  // CLI's `memory context` loads it without hono or the MCP SDK).
  entry: { index: "src/index.ts", main: "src/main.ts", context: "src/context.ts" },
  format: "esm",
  dts: true,
  platform: "node",
  target: "node20",
  // Injected at build time so the health endpoints read no file.
  define: { __MEMORY_SERVER_VERSION__: JSON.stringify(version) },
});
