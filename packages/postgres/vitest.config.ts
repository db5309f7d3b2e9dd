import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Real-server tests: creating a database or a schema waits on the server's checkpoints when
    // it is busy, so the 5 s default is too tight. Nothing here asserts on time. Hooks (schema
    // set-up for a whole file) get more room than one test, sized for a loaded 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
