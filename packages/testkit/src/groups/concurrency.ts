import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { useInstances } from "../fixture.js";

/** A gate: every writer waits on it, then all are released in the same tick. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Two instances on one store, writes released together behind a gate, repeated. */
export function concurrencyGroup(options: ConformanceOptions): void {
  describe(`${options.name}: concurrency`, {
    timeout: Math.max(options.timeoutMs ?? 60_000, 120_000),
  }, () => {
    const instances = useInstances(options);

    it("loses no write when two instances store different keys at once", async () => {
      const shared = await instances.shared();
      const [a, b] = [await shared.open(), await shared.open()];
      const rounds = 25;
      for (let round = 0; round < rounds; round++) {
        const { opened, open } = gate();
        const writes = [a, b].flatMap((memory, side) =>
          Array.from({ length: 4 }, (_, i) =>
            opened.then(() =>
              memory.store({
                key: `r${round}-s${side}-${i}`,
                content: `round ${round} side ${side} write ${i}`,
              }),
            ),
          ),
        );
        open();
        await Promise.all(writes);
      }
      expect(await a.count()).toBe(rounds * 8);
      expect(await b.count()).toBe(rounds * 8);
    });

    it("keeps one id and the first createdAt when both instances upsert the same key at once", async () => {
      const shared = await instances.shared();
      const [a, b] = [await shared.open(), await shared.open()];
      for (let round = 0; round < 25; round++) {
        const key = `same-${round}`;
        const { opened, open } = gate();
        const writes = [
          opened.then(() => a.store({ key, content: `from a ${round}` })),
          opened.then(() => b.store({ key, content: `from b ${round}` })),
        ];
        open();
        const [fromA, fromB] = await Promise.all(writes);
        expect(fromA!.id).toBe(fromB!.id);
        const stored = await a.get(key);
        expect(stored!.id).toBe(fromA!.id);
        expect([`from a ${round}`, `from b ${round}`]).toContain(stored!.content);
        expect((await b.get(key))!.content).toBe(stored!.content);
      }
      expect(await a.count()).toBe(25);
    });

    it("sees the other instance's writes in recall (no stale hot cache)", async () => {
      const shared = await instances.shared();
      const [a, b] = [await shared.open(), await shared.open()];
      await a.store({ key: "one", content: "shared topic first" });
      expect((await b.recall("topic", { mode: "bm25" })).length).toBe(1);
      await a.store({ key: "two", content: "shared topic second" });
      expect((await b.recall("topic", { mode: "bm25" })).length).toBe(2);
      await a.forget("one");
      expect((await b.recall("topic", { mode: "bm25" })).map((entry) => entry.key)).toEqual([
        "two",
      ]);
    });

    it("counts correctly when a purge races with writes in another namespace", async () => {
      const shared = await instances.shared();
      const [a, b] = [await shared.open(), await shared.open()];
      for (let i = 0; i < 20; i++)
        await a.store({ key: `p${i}`, content: "to purge", namespace: "purged" });
      const { opened, open } = gate();
      const work = [
        opened.then(() => a.purgeNamespace("purged")),
        ...Array.from({ length: 20 }, (_, i) =>
          opened.then(() => b.store({ key: `k${i}`, content: "kept", namespace: "kept" })),
        ),
      ];
      open();
      const [purged] = await Promise.all(work);
      expect(purged).toBe(20);
      expect(await a.count({ namespace: "kept" })).toBe(20);
      expect(await b.count({ namespace: "purged" })).toBe(0);
    });
  });
}
