// Cost of entity reading (docs/entities.md) on SQLite, keyword-only: stores per second of
// conversation turns that name people and places, with entity_reading off and on, then an import
// of 10k such turns both ways. Run: pnpm --filter @memory/sqlite bench:entities
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ImportEntry } from "@memory/api";
import { createSqliteMemory } from "../src/index.js";

const STORES = 2_000;
const IMPORTED = 10_000;
const PEOPLE = ["Caroline", "Melanie", "Jon", "Gina", "Audrey", "Andrew", "Joanna", "Nate"];
const PLACES = ["Boston", "Paris", "Lake Tahoe", "Chicago", "Central Park", "the Louvre"];

function turn(i: number): string {
  const speaker = PEOPLE[i % PEOPLE.length]!;
  const friend = PEOPLE[(i * 7 + 3) % PEOPLE.length]!;
  const place = PLACES[i % PLACES.length]!;
  return `${speaker}: Hey ${friend}, I went to ${place} on Saturday with my sister Rosa ${i % 50} and it was lovely.`;
}

function open(entityReading: boolean) {
  const dir = mkdtempSync(path.join(tmpdir(), "memory-entities-bench-"));
  const memory = createSqliteMemory({
    path: path.join(dir, "bench.db"),
    entityReading,
    // The conflict check is another cost (bench:conflict-latency); turns are not core facts.
    conflictMode: "off",
    logger: () => {},
  });
  return { dir, memory };
}

for (const entityReading of [false, true]) {
  const { dir, memory } = open(entityReading);
  const start = performance.now();
  for (let i = 0; i < STORES; i++)
    await memory.store({ key: `turn-${i}`, content: turn(i), category: "conversation" });
  const seconds = (performance.now() - start) / 1000;
  const entities = await memory.count({ categories: ["entity"] });
  console.log(
    `entity_reading ${entityReading ? "on " : "off"}: ${STORES} stores in ${seconds.toFixed(2)} s = ${(STORES / seconds).toFixed(0)} stores/s (${entities} entity entries)`,
  );
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
}

for (const entityReading of [false, true]) {
  const { dir, memory } = open(entityReading);
  const input: ImportEntry[] = Array.from({ length: IMPORTED }, (_, i) => ({
    key: `turn-${i}`,
    content: turn(i),
    category: "conversation",
  }));
  const start = performance.now();
  const report = await memory.importEntries(input);
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `entity_reading ${entityReading ? "on " : "off"}: import of ${report.imported} turns in ${seconds.toFixed(2)} s`,
  );
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
}
