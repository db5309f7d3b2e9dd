import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Sized for a loaded 2-core CI machine running two suites at once, not as performance
    // bounds: nothing here asserts on time. Tests that do heavier work set their own, larger
    // timeouts.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
