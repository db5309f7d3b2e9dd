/**
 * Benchmark (not a test): how long the web inspector takes to show something useful on a store
 * of 10,000 entries. A real server over a real SQLite file, Debian's chromium, a cold page load
 * each round; the time from navigation to the first row of the entries table, the namespaces
 * table and a search result. Run: `pnpm --filter @memory/server exec tsx bench/ui-first-paint.ts`
 * (needs `npm test`'s setup: chromium and a built server).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { createSqliteMemory } from "@memory/sqlite";
import { chromium } from "playwright-core";
import { silentLogger, startServer } from "../src/index.js";

const ENTRIES = 10_000;
const ROUNDS = 5;
const dir = mkdtempSync(path.join(tmpdir(), "memory-ui-bench-"));
const memory = createSqliteMemory({ path: path.join(dir, "brain.db"), logger: () => {} });
const topics = ["coffee", "deploy", "editor", "holiday", "budget", "database", "garden", "music"];
await memory.importEntries(
  Array.from({ length: ENTRIES }, (_, i) => ({
    key: `note-${String(i).padStart(5, "0")}`,
    content: `note ${i} about ${topics[i % topics.length]} and ${topics[(i * 3) % topics.length]}`,
    category: i % 3 === 0 ? "core" : "daily",
  })),
);
const server = await startServer({
  host: "127.0.0.1",
  port: 0,
  env: {},
  logger: silentLogger,
  memory,
  tokens: [{ token: "bench-token-all-namespaces-0123456789", namespaces: ["*"] }],
});
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
  ],
});

async function timed(
  hash: string,
  selector: string,
  before?: (page: import("playwright-core").Page) => Promise<void>,
) {
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const context = await browser.newContext();
    // The inspector keeps its token in sessionStorage (ui/src/api.ts); a string script runs in
    // the page, where that exists.
    await context.addInitScript(
      'sessionStorage.setItem("memory.token", "bench-token-all-namespaces-0123456789")',
    );
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(`${server.url}/ui/${hash}`);
    if (before) await before(page);
    await page.locator(selector).first().waitFor({ timeout: 60_000 });
    samples.push(performance.now() - start);
    await context.close();
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(ROUNDS / 2)]!, max: samples.at(-1)! };
}

const rows = [
  ["entries table, first row", await timed("#/entries", "[data-view] table tbody tr")],
  ["namespaces table", await timed("#/namespaces", "[data-view] table tbody tr")],
  [
    "search result",
    await timed("#/search", "[data-view] li", async (page) => {
      await page.getByLabel("Query").fill("coffee budget");
      await page.getByRole("button", { name: "Search" }).click();
    }),
  ],
] as const;
console.log(
  `${ENTRIES} entries, ${ROUNDS} cold page loads each; ${cpus().length} cores (${cpus()[0]?.model})`,
);
for (const [what, { median, max }] of rows) {
  console.log(`${what}: median ${median.toFixed(0)} ms, max ${max.toFixed(0)} ms`);
}
await browser.close();
await server.close();
await memory.close();
rmSync(dir, { recursive: true, force: true });
