import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Sized for a loaded 2-core machine, not as performance bounds: nothing here asserts on
    // time. Real-process tests (writers, an editor, the watcher) wait for conditions with long bounds.
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
