import { type MemoryDriver, MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import { createInMemoryDriver, createMemoryFacade, type InvalidDriverError } from "../src/index.js";

/** The required members of MemoryDriver, written out here so the test pins the contract. */
const REQUIRED = [
  "name",
  "capabilities",
  "unhonouredSettings",
  "open",
  "close",
  "read",
  "write",
  "scan",
  "count",
  "deleteWhere",
  "recallStages",
  "leases",
  "vectors",
  "health",
];

/** The in-memory driver as another object would present it, without `member` (none: complete). */
function driverWithout(member?: string): MemoryDriver {
  const driver = createInMemoryDriver();
  return new Proxy(driver, {
    has: (target, key) => key !== member && Reflect.has(target, key),
    get(target, key) {
      if (key === member) return undefined;
      const value = Reflect.get(target, key, target);
      // Bound, so the driver's private fields still work through the proxy.
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** What `create` throws; fails the test when it does not throw. */
function thrownBy(create: () => unknown): unknown {
  try {
    create();
  } catch (error) {
    return error;
  }
  throw new Error("expected the facade to refuse the driver, but it was created");
}

describe("the facade refuses an incomplete driver at creation", () => {
  it.each(REQUIRED)("names the missing member %s in a typed CONFIG error", (member) => {
    const error = thrownBy(() => createMemoryFacade(driverWithout(member)));
    expect(MemoryError.hasCode(error, "CONFIG"), String(error)).toBe(true);
    expect((error as Error).name).toBe("InvalidDriverError");
    expect((error as InvalidDriverError).missing).toEqual([member]);
    // Without its name the driver is called "unnamed" in the message.
    const driver = member === "name" ? "unnamed" : "memory";
    expect((error as MemoryError).details).toEqual({ driver, missing: [member] });
    expect((error as Error).message).toContain(`member(s) ${member}:`);
  });

  it("accepts the same driver complete (optional members absent), and it works", async () => {
    await using memory = createMemoryFacade(driverWithout());
    await memory.store({ key: "k", content: "through the proxy" });
    expect((await memory.get("k"))!.content).toBe("through the proxy");
  });

  it("lists every missing member at once", () => {
    const bare = { name: "bare" } as unknown as MemoryDriver;
    const error = thrownBy(() => createMemoryFacade(bare)) as InvalidDriverError;
    expect(error.name).toBe("InvalidDriverError");
    expect([...error.missing].sort()).toEqual(
      REQUIRED.filter((member) => member !== "name").sort(),
    );
  });
});
