import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Sized for a loaded 2-core machine, not performance bounds: nothing here asserts on time.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
