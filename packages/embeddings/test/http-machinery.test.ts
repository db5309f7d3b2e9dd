import { MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import { chunk, mapWithConcurrency } from "../src/http/batching.js";
import { importOptional } from "../src/http/optional-import.js";
import { parseRetryAfter, retryDelay } from "../src/http/retry-delay.js";
import { decodeBase64Floats } from "../src/http/vectors.js";

describe("retry delays", () => {
  it("parses Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });

  it("grows exponentially with jitter and caps at maxDelayMs, Retry-After included", () => {
    const options = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelay(0, undefined, options, () => 1)).toBe(100);
    expect(retryDelay(2, undefined, options, () => 1)).toBe(400);
    expect(retryDelay(2, undefined, options, () => 0)).toBe(200);
    expect(retryDelay(10, undefined, options, () => 1)).toBe(1000);
    expect(retryDelay(0, 60_000, options)).toBe(1000);
    expect(retryDelay(0, 300, options)).toBe(300);
  });
});

describe("batching", () => {
  it("chunks at the boundary", () => {
    expect(chunk([1, 2, 3, 4], 2)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(chunk([1, 2, 3], 2)).toEqual([[1, 2], [3]]);
  });

  it("never runs more than `concurrency` tasks at once and keeps order", async () => {
    let active = 0;
    let peak = 0;
    const results = await mapWithConcurrency([5, 1, 4, 2, 3, 1], 2, async (ms, index) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, ms * 5));
      active--;
      return index;
    });
    expect(peak).toBe(2);
    expect(results).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("stops starting tasks after the first failure", async () => {
    const started: number[] = [];
    await expect(
      mapWithConcurrency([0, 1, 2, 3], 1, async (item) => {
        started.push(item);
        if (item === 1) throw new Error("boom");
        return item;
      }),
    ).rejects.toThrow("boom");
    expect(started).toEqual([0, 1]);
  });
});

describe("base64 vectors", () => {
  it("decodes little-endian float32 and rejects truncated payloads", () => {
    const encoded = Buffer.from(new Float32Array([1.5, -2, 0.25]).buffer).toString("base64");
    expect(decodeBase64Floats(encoded)).toEqual([1.5, -2, 0.25]);
    expect(() => decodeBase64Floats(Buffer.from([1, 2, 3]).toString("base64"))).toThrow();
  });
});

describe("optional imports", () => {
  it("turns a missing package into a ConfigError that says what to install", async () => {
    const name = "memory-embeddings-surely-missing";
    const error = await importOptional(
      name,
      "The test provider",
      () => import(/* @vite-ignore */ name),
    ).catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "CONFIG")).toBe(true);
    expect((error as Error).message).toContain(`pnpm add ${name}`);
  });
});
