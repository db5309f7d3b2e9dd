import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The tests spawn the built CLI; a 50k-line import and migrations take several seconds.
    testTimeout: 120_000,
    // beforeAll hooks run the built CLI several times; sized for a loaded 2-core machine.
    hookTimeout: 120_000,
    // Child processes already use both cores; running files in parallel only adds contention.
    fileParallelism: false,
  },
});
