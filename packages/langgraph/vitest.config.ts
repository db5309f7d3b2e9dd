import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Sized for a loaded 2-core CI machine running two suites at once, not as performance
    // bounds: nothing here asserts on time. Tests that do heavier work set their own, larger
    // timeouts. Lucid's conformance runs a real child process for every recall with few local
    // hits: one test can start dozens of them (51 s measured for the hostile queries under load).
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
