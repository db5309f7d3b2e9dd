import {
  MemoryError,
  normalizeDeleteFilter,
  serializeJobState,
  validateLease,
  validateLeaseName,
  validateLeaseTtl,
} from "@memory/api";
import { describe, expect, it } from "vitest";
import { NoneMemory } from "../src/index.js";

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return MemoryError.isInstance(error) ? error.code : "untyped";
  }
  return undefined;
}

describe("normalizeDeleteFilter", () => {
  it("defaults to the default namespace, no floor, no dry run", () => {
    expect(normalizeDeleteFilter({})).toEqual({
      namespace: "default",
      categories: undefined,
      olderThan: undefined,
      superseded: undefined,
      keepNewest: 0,
      dryRun: false,
    });
  });

  it("means every namespace with allNamespaces, and normalizes olderThan to UTC", () => {
    const filter = normalizeDeleteFilter({
      allNamespaces: true,
      categories: ["daily", "daily", "conversation"],
      olderThan: "2026-01-31T14:00:00+02:00",
      superseded: false,
      keepNewest: 3,
    });
    expect(filter.namespace).toBeUndefined();
    expect(filter.categories).toEqual(["daily", "conversation"]);
    expect(filter.olderThan).toBe("2026-01-31T12:00:00.000Z");
    expect(filter.keepNewest).toBe(3);
  });

  it("refuses inconsistent or malformed filters with INVALID_INPUT, naming the field", () => {
    for (const filter of [
      { namespace: "a", allNamespaces: true },
      { categories: [] },
      { categories: "daily" },
      { categories: ["a/b"] },
      { keepNewest: -1 },
      { keepNewest: 2.5 },
      { keepNewest: "3" },
      { olderThan: "2026-01-31 12:00" },
      { olderThan: "2026-01-31t12:00:00z" },
      { superseded: "yes" },
      { dryRun: 1 },
      { namespace: "" },
    ]) {
      expect(
        code(() => normalizeDeleteFilter(filter as never)),
        JSON.stringify(filter),
      ).toBe("INVALID_INPUT");
    }
    expect(() => normalizeDeleteFilter({ namespace: "a", allNamespaces: true })).toThrow(
      /namespace and allNamespaces/,
    );
    expect(() => normalizeDeleteFilter({ categories: [] })).toThrow(/empty array/);
  });
});

describe("lease and job-state validation", () => {
  it("accepts names of 1 to 256 characters without NUL", () => {
    expect(validateLeaseName("hygiene")).toBe("hygiene");
    expect(validateLeaseName("x".repeat(256))).toHaveLength(256);
    for (const name of ["", "x".repeat(257), "a\u0000", "\ud800", 42])
      expect(code(() => validateLeaseName(name))).toBe("INVALID_INPUT");
  });

  it("accepts ttlMs from 1 to one day, integers only", () => {
    expect(validateLeaseTtl(1)).toBe(1);
    expect(validateLeaseTtl(86_400_000)).toBe(86_400_000);
    for (const ttl of [0, -5, 86_400_001, 1.5, Number.NaN, "100"])
      expect(code(() => validateLeaseTtl(ttl))).toBe("INVALID_INPUT");
  });

  it("checks a lease passed back for release", () => {
    const lease = { name: "job", holder: "h", token: 3, expiresAt: "2030-01-01T00:00:00.000Z" };
    expect(validateLease(lease)).toEqual(lease);
    for (const bad of [
      null,
      { ...lease, token: 0 },
      { ...lease, token: "3" },
      { ...lease, holder: "" },
    ])
      expect(code(() => validateLease(bad))).toBe("INVALID_INPUT");
  });

  it("serializes JSON objects and refuses what JSON cannot carry", () => {
    expect(serializeJobState({ lastRunAt: "x", n: [1, { a: null }] })).toBe(
      '{"lastRunAt":"x","n":[1,{"a":null}]}',
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const bad of [null, [], "text", 1, cyclic, { big: 1n }])
      expect(code(() => serializeJobState(bad))).toBe("INVALID_INPUT");
    expect(code(() => serializeJobState({ blob: "x".repeat(1024 * 1024) }))).toBe("INVALID_INPUT");
  });
});

describe("NoneMemory lifecycle methods", () => {
  it("deletes nothing, always grants leases, keeps no job state, and still validates", async () => {
    const memory = new NoneMemory();
    expect(await memory.deleteEntries({ allNamespaces: true })).toEqual({
      deleted: 0,
      byCategory: {},
    });
    const first = (await memory.acquireLease("job", "a", 1000))!;
    const second = (await memory.acquireLease("job", "b", 1000))!;
    expect(second.token).toBeGreaterThan(first.token);
    expect(await memory.releaseLease(first)).toBe(true);
    await memory.setJobState("job", { lastRunAt: "2030-01-01T00:00:00.000Z" });
    expect(await memory.getJobState("job")).toBeNull();
    await expect(memory.deleteEntries({ categories: [] })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    await expect(memory.acquireLease("job", "a", 0)).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    await memory.close();
    await expect(memory.acquireLease("job", "a", 1000)).rejects.toMatchObject({
      name: "MemoryClosedError",
    });
  });
});
