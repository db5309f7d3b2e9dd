import { ConfigError, type MemoryDriver } from "@memory/api";

/** Members every driver must have: methods the facade calls, objects it reads. */
const REQUIRED_METHODS = [
  "open",
  "close",
  "read",
  "write",
  "scan",
  "count",
  "deleteWhere",
  "health",
] as const satisfies readonly (keyof MemoryDriver)[];
const REQUIRED_MEMBERS = [
  "name",
  "capabilities",
  "unhonouredSettings",
  // Getters on some drivers, valid only once open: checked for presence, never read here.
  "recallStages",
  "leases",
  "vectors",
] as const satisfies readonly (keyof MemoryDriver)[];

/**
 * A driver that lacks a required member of `MemoryDriver` (a backend built against another
 * version of `@memory/api`, a decorator that forgot to forward one). Code `CONFIG`;
 * `details.missing` lists the members.
 */
export class InvalidDriverError extends ConfigError {
  readonly missing: readonly string[];
  constructor(driver: string, missing: readonly string[]) {
    super(
      `The ${driver} driver lacks required MemoryDriver member(s) ${missing.join(", ")}: implement them (see MemoryDriver in @memory/api), or build the backend against the @memory/api and @memory/core versions installed here.`,
      { details: { driver, missing: [...missing] } },
    );
    this.name = "InvalidDriverError";
    this.missing = missing;
  }
}

/**
 * Checks, once at facade creation, that `driver` has every required member, so a missing one
 * fails there with its name instead of as "undefined is not a function" inside some operation.
 */
export function assertCompleteDriver(driver: MemoryDriver): void {
  const candidate = driver as unknown as Record<string, unknown>;
  const missing: string[] = [
    ...REQUIRED_METHODS.filter((member) => typeof candidate[member] !== "function"),
    ...REQUIRED_MEMBERS.filter((member) => !(member in driver)),
  ];
  if (missing.length > 0) {
    const name = typeof candidate.name === "string" ? candidate.name : "unnamed";
    throw new InvalidDriverError(name, missing);
  }
}
