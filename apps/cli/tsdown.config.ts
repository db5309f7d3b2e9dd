import { readFileSync } from "node:fs";
import { defineConfig } from "tsdown";

const { version } = JSON.parse(
  readFileSync(new URL("./package.json", import.meta.url), "utf8"),
) as {
  version: string;
};

export default defineConfig({
  // `memory` is the binary; `index` is a small library entry (runCli, VERSION) for embedding.
  // Commands are reached through import(), so each lands in its own chunk and a command only
  // loads what it uses.
  entry: { index: "src/index.ts", memory: "src/memory.ts" },
  format: "esm",
  dts: true,
  platform: "node",
  target: "node20",
  // Injected at build time so `memory --version` reads no file and imports nothing.
  define: { __MEMORY_CLI_VERSION__: JSON.stringify(version) },
  // tsdown's own `banner` is decided once per build; rolldown's runs per chunk, so only the
  // binary gets the shebang.
  outputOptions: {
    banner: (chunk) => (chunk.fileName === "memory.mjs" ? "#!/usr/bin/env node" : ""),
  },
});
