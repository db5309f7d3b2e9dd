import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

const { version } = JSON.parse(
  readFileSync(new URL("./package.json", import.meta.url), "utf8"),
) as {
  version: string;
};

export default defineConfig({
  define: { __MEMORY_SERVER_VERSION__: JSON.stringify(version) },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Sized for a loaded 2-core CI machine (tests start child processes and real servers), not
    // as performance bounds: nothing here asserts on time.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
