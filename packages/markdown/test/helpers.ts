import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh directory under the system temp dir (left for the OS to clean). */
export function tempDir(prefix = "memory-markdown-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Waits until `condition` holds, polling, up to `timeoutMs` (long: the machine may be busy). */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
  what = "condition",
): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (await condition()) return;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
