import { MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { itWith, requireFeature } from "../declarations.js";
import { caught, collect, useInstances } from "../fixture.js";

/** close() is idempotent; every operation afterwards fails with a typed error. */
export function closeGroup(options: ConformanceOptions): void {
  describe(`${options.name}: close`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);

    it("closes idempotently: a second close resolves and the memory stays closed", async () => {
      const memory = await instances.create();
      await memory.store({ key: "k", content: "x" });
      await expect(memory.close()).resolves.toBeUndefined();
      await expect(memory.close()).resolves.toBeUndefined();
      // Not a close that only looked successful: operations are refused with the typed error.
      for (const operation of [
        () => memory.get("k"),
        () => memory.store({ key: "k", content: "y" }),
      ]) {
        const error = await caught(operation);
        expect(MemoryError.hasCode(error, "BACKEND_UNAVAILABLE"), String(error)).toBe(true);
      }
      // Two closes at once, too (a shutdown hook racing a finally block).
      const racing = await instances.create();
      await racing.store({ key: "k", content: "x" });
      await expect(Promise.all([racing.close(), racing.close()])).resolves.toEqual([
        undefined,
        undefined,
      ]);
      expect(MemoryError.hasCode(await caught(() => racing.count()), "BACKEND_UNAVAILABLE")).toBe(
        true,
      );
    });

    it("fails every operation after close with BACKEND_UNAVAILABLE", async () => {
      const memory = await instances.create();
      await memory.store({ key: "k", content: "x" });
      await memory.close();
      const operations: (() => Promise<unknown>)[] = [
        () => memory.store({ key: "k2", content: "y" }),
        () => memory.get("k"),
        () => memory.recall("x"),
        () => memory.list(),
        () => memory.forget("k"),
        () => memory.purgeNamespace("default"),
        () => memory.purgeSession("s"),
        () => memory.count(),
        () => collect(memory.export()),
        () => memory.importEntries([{ key: "k3", content: "z" }]),
        () => memory.topCore(5),
        () => memory.markSuperseded("k", "k2"),
        () => memory.reindex(),
        () => memory.backfillEmbeddings(),
      ];
      for (const operation of operations) {
        const error = await caught(operation);
        expect(MemoryError.hasCode(error, "BACKEND_UNAVAILABLE")).toBe(true);
        expect((error as Error).message).toMatch(/closed/);
      }
    });

    it("supports await using (Symbol.asyncDispose)", async () => {
      const memory = await instances.create();
      await memory[Symbol.asyncDispose]();
      expect(MemoryError.hasCode(await caught(() => memory.count()), "BACKEND_UNAVAILABLE")).toBe(
        true,
      );
    });

    itWith(options, "persistent")("keeps data across instances (persistent)", async () => {
      const shared = await instances.shared();
      const first = await shared.open();
      requireFeature(options, first, "persistent");
      await first.store({ key: "k", content: "survives" });
      await first.close();
      const second = await shared.open();
      expect((await second.get("k"))!.content).toBe("survives");
    });
  });
}
