import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, json, requireBuiltCli, Workspace } from "./helpers/run-memory.js";

const line = (index: number) =>
  `${JSON.stringify({ key: `fact-${index}`, content: `fact number ${index} about kayaks` })}\n`;

describe("memory import, interrupted", () => {
  const ws = new Workspace();
  afterAll(() => ws.remove());

  it("stops on SIGINT after the current batch, keeps and reports what it committed, exits 130", async () => {
    requireBuiltCli();
    const child = spawn(process.execPath, [BIN, "import", "-", "--json"], {
      cwd: ws.dir,
      env: cleanEnv(ws.dir),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    // More than one batch (5,000), then the pipe stays open: the import waits for more input.
    let written = "";
    for (let index = 0; index < 6000; index++) written += line(index);
    child.stdin.write(written);

    // Wait until the first batch is committed, as another process sees it.
    for (let attempt = 0; ; attempt++) {
      const counted = await ws.run(["count", "--json"]);
      if (counted.code === 0 && json<{ count: number }>(counted).count >= 5000) break;
      if (attempt > 600) throw new Error(`the first batch never showed: ${counted.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill("SIGINT");
    const code = await exited;
    expect(stderr).toMatch(/SIGINT: stopping after the current batch/);
    expect(code).toBe(130);
    const report = JSON.parse(stdout) as { imported: number; interrupted: boolean };
    expect(report.interrupted).toBe(true);
    expect(report.imported).toBeGreaterThanOrEqual(5000);
    const counted = json<{ count: number }>(await ws.run(["count", "--json"]));
    expect(counted.count).toBe(report.imported);
    // Keyword search sees every committed entry: nothing was left half-indexed.
    const found = await ws.run(["recall", "kayaks", "--json", "--limit", "1"]);
    expect(found.code).toBe(0);
  }, 120_000);
});
