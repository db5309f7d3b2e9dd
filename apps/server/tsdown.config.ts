import { readFileSync } from "node:fs";
import { defineConfig } from "tsdown";

const { version } = JSON.parse(
  readFileSync(new URL("./package.json", import.meta.url), "utf8"),
) as {
  version: string;
};

export default defineConfig({
  // `index` is the library (startServer, createHttpApp, runMcpStdio); `main` is what `npm start`
  // and `node dist/main.mjs --mcp` run.
  entry: { index: "src/index.ts", main: "src/main.ts" },
  format: "esm",
  dts: true,
  platform: "node",
  target: "node20",
  // Injected at build time so the health endpoints read no file.
  define: { __MEMORY_SERVER_VERSION__: JSON.stringify(version) },
});
