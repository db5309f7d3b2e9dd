import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { entityId } from "../src/entities/entity-name.js";
import { readEntities } from "../src/entities/read-entities.js";

interface Labelled {
  text: string;
  entities: string[];
}

const SAMPLE: Labelled[] = readFileSync(
  new URL("./fixtures/entity-mentions.jsonl", import.meta.url),
  "utf8",
)
  .split("\n")
  .filter((line) => line.trim().length > 0)
  .map((line) => JSON.parse(line) as Labelled);

/** Precision and recall of the reading over the labelled sample, compared by entity id. */
function score() {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  const errors: string[] = [];
  for (const { text, entities } of SAMPLE) {
    const expected = new Set(entities.map((name) => entityId(name) ?? name));
    const read = new Set(readEntities(text).map((mention) => mention.id));
    for (const id of read) {
      if (expected.has(id)) truePositives++;
      else {
        falsePositives++;
        errors.push(`+ ${id}    (${text})`);
      }
    }
    for (const id of expected) {
      if (read.has(id)) continue;
      falseNegatives++;
      errors.push(`- ${id}    (${text})`);
    }
  }
  const labelled = truePositives + falseNegatives;
  return {
    labelled,
    precision: truePositives / (truePositives + falsePositives),
    recall: truePositives / labelled,
    errors,
  };
}

describe("entity reading on the labelled sample (fixtures/entity-mentions.jsonl)", () => {
  it("reads names with a measured precision and recall", () => {
    const result = score();
    // Printed so the README's numbers can be checked: `pnpm --filter @memory/core exec vitest run test/entity-reading.test.ts`
    console.log(
      `entity reading: ${result.labelled} labelled mentions in ${SAMPLE.length} texts, precision ${(100 * result.precision).toFixed(1)}%, recall ${(100 * result.recall).toFixed(1)}%\n${result.errors.join("\n")}`,
    );
    expect(result.labelled).toBeGreaterThanOrEqual(200);
    expect(result.precision).toBeGreaterThanOrEqual(0.9);
    expect(result.recall).toBeGreaterThanOrEqual(0.9);
  });
});
