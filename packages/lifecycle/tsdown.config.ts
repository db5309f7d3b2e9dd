import { defineConfig } from "tsdown";

export default defineConfig({
  // `agent-loop-eval` is the evaluation `memory eval --agent-loop` and the benchmark share
  // (`@memory/lifecycle/agent-loop-eval`); the main entry never loads it.
  entry: { index: "src/index.ts", "agent-loop-eval": "src/agent-loop-eval/index.ts" },
  format: "esm",
  dts: true,
  platform: "node",
  target: "node20",
});
