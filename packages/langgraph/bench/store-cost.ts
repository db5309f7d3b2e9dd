import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLangGraphStore } from "@memory/langgraph";
import { createSqliteMemory } from "@memory/sqlite";

// What the adapter costs over a SQLite file: N items in 100 namespaces, then the median time of
// a get, a search with a query under a prefix, a filtered search without one, and a namespace
// listing (the last three stream the store once to find its namespaces).
// Run: pnpm --filter @memory/langgraph bench (or tsx bench/store-cost.ts [items])
const items = Number(process.argv[2] ?? 5000);
const root = mkdtempSync(join(tmpdir(), "langgraph-bench-"));
const memory = createSqliteMemory({ path: join(root, "brain.db") });
const store = createLangGraphStore({ memory });
const words = ["tea", "coffee", "lisbon", "porto", "peanuts", "sardines", "cats", "deploys"];

const started = performance.now();
for (let batch = 0; batch < items; batch += 100) {
  const puts = [];
  for (let index = batch; index < Math.min(items, batch + 100); index += 1) {
    const text = `note ${index} about ${words[index % words.length]} and ${words[(index * 7) % words.length]}`;
    puts.push({
      namespace: ["users", `u${index % 100}`],
      key: `k${index}`,
      value: { text, rank: index % 10 },
    });
  }
  await store.batch(puts);
}
console.log(`put ${items} items: ${(performance.now() - started).toFixed(0)} ms`);

async function median(name: string, run: () => Promise<unknown>): Promise<void> {
  const times: number[] = [];
  for (let round = 0; round < 7; round += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(`${name}: ${times[3]?.toFixed(2)} ms (median of 7)`);
}

await median("get", () => store.get(["users", "u7"], "k7"));
await median("search query, one namespace", () =>
  store.search(["users", "u7"], { query: "porto" }),
);
await median("search query, all 100 namespaces", () => store.search(["users"], { query: "porto" }));
await median("search filter, no query", () => store.search(["users"], { filter: { rank: 3 } }));
await median("listNamespaces", () => store.listNamespaces());
await memory.close();
rmSync(root, { recursive: true, force: true });
