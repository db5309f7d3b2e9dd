import { defineConfig } from "tsdown";

export default defineConfig({
  // lease-child: the script the multiProcessLeases group runs in child processes.
  entry: ["src/index.ts", "src/lease-child.ts"],
  format: "esm",
  dts: true,
  platform: "node",
  target: "node20",
});
