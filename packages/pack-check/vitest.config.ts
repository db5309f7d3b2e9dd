import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // npm installs from the registry and better-sqlite3 compiles from source (about 75 s alone
    // on an idle 2-core machine); these bound a hang, they are not performance limits.
    testTimeout: 120_000,
    hookTimeout: 1_200_000,
  },
});
