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
    let exitCode: number | null | undefined;
    const exited = new Promise<number | null>((resolve) =>
      child.on("close", (code) => {
        exitCode = code;
        resolve(code);
      }),
    );
    // The child stops reading when interrupted; input still in the pipe then fails with EPIPE.
    child.stdin.on("error", () => {});
    const diagnostics = () => `exit ${exitCode}; stdout:\n${stdout}\nstderr:\n${stderr}`;
    // Exactly one batch (5,000), then the pipe stays open: the import commits it and waits for
    // more input, with nothing left unread in the pipe when SIGINT comes.
    let written = "";
    for (let index = 0; index < 5000; index++) written += line(index);
    child.stdin.write(written);

    // Wait until the first batch is committed, as another process sees it.
    for (let attempt = 0; ; attempt++) {
      if (exitCode !== undefined) throw new Error(`the import ended on its own: ${diagnostics()}`);
      const counted = await ws.run(["count", "--json"]);
      if (counted.code === 0 && json<{ count: number }>(counted).count >= 5000) break;
      if (attempt > 300) {
        throw new Error(`the first batch never showed: ${counted.stderr}\n${diagnostics()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill("SIGINT");
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      exited,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no exit 120 s after SIGINT: ${diagnostics()}`)),
          120_000,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    expect(code, diagnostics()).toBe(130);
    expect(stderr).toMatch(/SIGINT: stopping after the current batch/);
    const report = JSON.parse(stdout) as { imported: number; interrupted: boolean };
    expect(report.interrupted).toBe(true);
    expect(report.imported).toBeGreaterThanOrEqual(5000);
    const counted = json<{ count: number }>(await ws.run(["count", "--json"]));
    expect(counted.count).toBe(report.imported);
    // Keyword search sees every committed entry: nothing was left half-indexed.
    const found = await ws.run(["recall", "kayaks", "--json", "--limit", "1"]);
    expect(found.code).toBe(0);
  }, 300_000);
});
