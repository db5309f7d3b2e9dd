/**
 * Store latency with conflict detection on (`conflict_mode = "rules"`, the default) and off, on
 * a SQLite file holding 10,000 short facts in one namespace (the check only looks there).
 *
 *   pnpm --filter @memory/sqlite bench:conflict-latency [--entries 10000] [--stores 300]
 *
 * Embedders: the testkit's deterministic test embedder (256 dims: hybrid candidates, the
 * document vector reused as the query vector) and none (keyword candidates). The same facts are
 * stored with each setting, on copies of one prepared file, so both see the same store.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { EmbeddingProvider, ImportEntry } from "@memory/api";
import { createTestEmbedder, seededRandom } from "@memory/testkit";
import { createSqliteMemory } from "../src/index.js";

const { values } = parseArgs({
  options: {
    entries: { type: "string", default: "10000" },
    stores: { type: "string", default: "300" },
  },
});
const ENTRIES = Number(values.entries);
const STORES = Number(values.stores);

const NAMES = [
  "Anna",
  "Ben",
  "Carla",
  "Dieter",
  "Emil",
  "Frieda",
  "Gustav",
  "Hanna",
  "Ines",
  "Jonas",
  "Klara",
  "Leo",
  "Mia",
  "Noah",
  "Olga",
  "Paul",
];
const RELATIONS = [
  "sister",
  "brother",
  "manager",
  "colleague",
  "friend",
  "neighbour",
  "cousin",
  "dentist",
];
const CITIES = [
  "Berlin",
  "Munich",
  "Hamburg",
  "Leipzig",
  "Dresden",
  "Cologne",
  "Bremen",
  "Potsdam",
  "Lyon",
  "Porto",
];
const THINGS = [
  "tea",
  "coffee",
  "hiking",
  "chess",
  "jazz",
  "sushi",
  "cycling",
  "tennis",
  "ramen",
  "pottery",
];
const COMPANIES = ["Siemens", "SAP", "Bosch", "Zalando", "Acme", "Globex", "Initech", "Umbrella"];

/** One short fact about the user or someone around them. */
function fact(random: () => number, index: number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const who =
    random() < 0.2 ? "The user" : `The user's ${pick(RELATIONS)} ${pick(NAMES)}${index % 97}`;
  switch (Math.floor(random() * 4)) {
    case 0:
      return `${who} lives in ${pick(CITIES)}`;
    case 1:
      return `${who} likes ${pick(THINGS)}`;
    case 2:
      return `${who} works at ${pick(COMPANIES)}`;
    default:
      return `${who}'s favourite drink is ${pick(THINGS)}`;
  }
}

async function prepare(file: string, embedder: EmbeddingProvider | undefined): Promise<void> {
  const random = seededRandom(7);
  const entries: ImportEntry[] = Array.from({ length: ENTRIES }, (_, index) => ({
    key: `fact-${index}`,
    content: fact(random, index),
    category: "core",
  }));
  const memory = createSqliteMemory({ path: file, ...(embedder ? { embedder } : {}) });
  await memory.importEntries(entries);
  await memory.close();
}

async function measure(
  file: string,
  embedder: EmbeddingProvider | undefined,
  conflictMode: "off" | "rules",
): Promise<{ median: number; p95: number; superseded: number }> {
  const memory = createSqliteMemory({
    path: file,
    conflictMode,
    ...(embedder ? { embedder } : {}),
  });
  const random = seededRandom(11);
  const times: number[] = [];
  let superseded = 0;
  await memory.store({ key: "warm-up", content: "The user lives in Kiel" });
  for (let index = 0; index < STORES; index++) {
    const started = performance.now();
    const entry = await memory.store({
      key: `new-${index}`,
      content: fact(random, index + ENTRIES),
    });
    times.push(performance.now() - started);
    superseded += entry.conflict?.superseded.length ?? 0;
  }
  await memory.close();
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)]!,
    p95: times[Math.floor(times.length * 0.95)]!,
    superseded,
  };
}

const dir = mkdtempSync(path.join(tmpdir(), "memory-conflict-latency-"));
try {
  console.log(`| embedder | conflict_mode | entries | stores | median ms | p95 ms | superseded |`);
  console.log(`|---|---|---:|---:|---:|---:|---:|`);
  for (const [name, embedder] of [
    ["test (256 dims)", createTestEmbedder({ dimensions: 256 })],
    ["none", undefined],
  ] as const) {
    const prepared = path.join(dir, `${name.replace(/\W+/gu, "-")}.db`);
    await prepare(prepared, embedder);
    for (const mode of ["off", "rules"] as const) {
      const file = path.join(dir, `${mode}-${path.basename(prepared)}`);
      copyFileSync(prepared, file);
      const result = await measure(file, embedder, mode);
      console.log(
        `| ${name} | ${mode} | ${ENTRIES} | ${STORES} | ${result.median.toFixed(2)} | ${result.p95.toFixed(2)} | ${result.superseded} |`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
