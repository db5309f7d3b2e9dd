import { type Memory, MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { itWith } from "../declarations.js";
import { useInstances } from "../fixture.js";
import {
  type HostileCase,
  hostileCategories,
  hostileContents,
  hostileEmbeddings,
  hostileKeys,
  hostileNamespaces,
  hostileQueries,
} from "../hostile-inputs.js";
import { createTestEmbedder } from "../test-embedder.js";

const SENTINEL = {
  key: "sentinel",
  content: "the sentinel entry must never change",
  category: "core",
} as const;

async function expectUntouched(memory: Memory): Promise<void> {
  const sentinel = await memory.get(SENTINEL.key);
  expect(sentinel?.content).toBe(SENTINEL.content);
}

/** Stores one hostile case and checks: stored byte-for-byte, or rejected with INVALID_INPUT and absent. */
async function check(
  memory: Memory,
  testCase: HostileCase,
  store: () => Promise<unknown>,
  key: string,
  content: string,
  namespace?: string,
) {
  let error: unknown;
  try {
    await store();
  } catch (caught) {
    error = caught;
  }
  if (error === undefined) {
    expect(testCase.expect, `${testCase.name} was stored but must be rejected`).not.toBe("reject");
    const got = await memory.get(key, namespace ? { namespace } : {});
    expect(got?.content === content, `${testCase.name} did not come back byte-for-byte`).toBe(true);
    expect(got?.key === key, `${testCase.name}: key changed`).toBe(true);
  } else {
    expect(MemoryError.isInstance(error), `${testCase.name} threw an untyped error: ${error}`).toBe(
      true,
    );
    expect((error as MemoryError).code, testCase.name).toBe("INVALID_INPUT");
    expect(
      testCase.expect,
      `${testCase.name} was rejected but must be stored: ${(error as Error).message}`,
    ).not.toBe("store");
  }
}

/** A corpus of 100+ hostile inputs: each is stored exactly or rejected with a typed error, and nothing else changes. */
export function hostileInputsGroup(options: ConformanceOptions): void {
  describe(`${options.name}: hostile inputs`, {
    timeout: Math.max(options.timeoutMs ?? 60_000, 180_000),
  }, () => {
    const instances = useInstances(options);
    const seeded = async () => {
      const memory = await instances.create();
      await memory.store(SENTINEL);
      return memory;
    };

    it("stores hostile content byte-for-byte or rejects it with INVALID_INPUT", async () => {
      const memory = await seeded();
      const cases = hostileContents();
      expect(cases.length).toBeGreaterThanOrEqual(90);
      let stored = 0;
      for (const [i, testCase] of cases.entries()) {
        const key = `content-${i}`;
        await check(
          memory,
          testCase,
          () => memory.store({ key, content: testCase.value }),
          key,
          testCase.value,
        );
        if ((await memory.get(key)) !== null) stored++;
      }
      await expectUntouched(memory);
      expect(await memory.count()).toBe(stored + 1);
    });

    it("stores hostile keys exactly or rejects them", async () => {
      const memory = await seeded();
      for (const testCase of hostileKeys()) {
        await check(
          memory,
          testCase,
          () => memory.store({ key: testCase.value, content: "value" }),
          testCase.value,
          "value",
        );
      }
      await expectUntouched(memory);
    });

    it("accepts only valid category names and namespaces", async () => {
      const memory = await seeded();
      for (const [i, testCase] of hostileCategories().entries()) {
        const key = `category-${i}`;
        await check(
          memory,
          testCase,
          () => memory.store({ key, content: "value", category: testCase.value }),
          key,
          "value",
        );
      }
      for (const [i, testCase] of hostileNamespaces().entries()) {
        if (testCase.expect !== "reject") continue;
        let error: unknown;
        await memory
          .store({ key: `ns-${i}`, content: "value", namespace: testCase.value })
          .catch((caught) => (error = caught));
        expect(MemoryError.hasCode(error, "INVALID_INPUT"), testCase.name).toBe(true);
      }
      await expectUntouched(memory);
    });

    it("stores namespaces of any script up to 256 characters and compares them exactly", async () => {
      const memory = await seeded();
      const good = hostileNamespaces().filter((testCase) => testCase.expect === "store");
      expect(good.some((testCase) => testCase.value.length === 256)).toBe(true);
      for (const [i, testCase] of good.entries()) {
        const namespace = testCase.value;
        const stored = await memory.store({ key: "same-key", content: `value ${i}`, namespace });
        expect(stored.namespace === namespace, `${testCase.name}: namespace changed`).toBe(true);
      }
      // Each namespace holds exactly its own entry: "Ä" and "A\u0308", "Team" and "team" are
      // different namespaces, and none of them is "default".
      for (const [i, testCase] of good.entries()) {
        const namespace = testCase.value;
        const got = await memory.get("same-key", { namespace });
        expect(got?.content, testCase.name).toBe(`value ${i}`);
        expect(got?.namespace === namespace, testCase.name).toBe(true);
        expect(await memory.count({ namespace }), testCase.name).toBe(1);
        const listed = await memory.list({ namespace });
        expect(
          listed.map((entry) => entry.content),
          testCase.name,
        ).toEqual([`value ${i}`]);
        const recalled = await memory.recall("value", { namespace, mode: "bm25", minScore: 0 });
        expect(
          recalled.every((entry) => entry.namespace === namespace),
          testCase.name,
        ).toBe(true);
      }
      const exported: string[] = [];
      for await (const entry of memory.export({})) exported.push(entry.namespace);
      for (const testCase of good) {
        expect(
          exported.filter((namespace) => namespace === testCase.value),
          testCase.name,
        ).toHaveLength(1);
      }
      const [first, ...rest] = good;
      expect(await memory.purgeNamespace(first!.value)).toBe(1);
      for (const testCase of rest) {
        expect(await memory.count({ namespace: testCase.value }), testCase.name).toBe(1);
      }
      await expectUntouched(memory);
    });

    it("answers hostile queries with results or a typed error, never a parser error", async () => {
      const memory = await seeded();
      for (const [i, value] of hostileQueries().entries()) {
        if (value.isWellFormed() && !value.includes("\u0000") && value.trim() !== "") {
          await memory.store({ key: `q-${i}`, content: `stored ${value}` });
        }
      }
      for (const query of hostileQueries()) {
        for (const mode of ["bm25", "hybrid"] as const) {
          try {
            const results = await memory.recall(query, { mode, limit: 5 });
            expect(Array.isArray(results)).toBe(true);
          } catch (error) {
            expect(
              MemoryError.hasCode(error, "INVALID_INPUT"),
              `query ${JSON.stringify(query.slice(0, 40))}: ${error}`,
            ).toBe(true);
          }
        }
      }
      // Text no stored entry can hold is refused, never answered as if it were something else.
      for (const query of ["a\u0000b", "\ud800", "x\udc00y"]) {
        await expect(memory.recall(query), JSON.stringify(query)).rejects.toMatchObject({
          code: "INVALID_INPUT",
        });
      }
      const syntaxHit = await memory.recall("NEAR(a b)", { mode: "bm25" });
      expect(syntaxHit.some((entry) => entry.content === "stored NEAR(a b)")).toBe(true);
      await expectUntouched(memory);
    });

    itWith(options, "vectorSearch")(
      "rejects embeddings of the wrong size or with non-finite values",
      async () => {
        const embedder = createTestEmbedder();
        const memory = await instances.createVector(embedder);
        await memory.store(SENTINEL);
        for (const { name, value } of hostileEmbeddings(embedder.dimensions)) {
          let error: unknown;
          await memory
            .store({ key: name, content: "x", embedding: value })
            .catch((caught) => (error = caught));
          expect(MemoryError.hasCode(error, "INVALID_INPUT"), name).toBe(true);
          expect(await memory.get(name)).toBeNull();
        }
        await expectUntouched(memory);
      },
    );
  });
}
