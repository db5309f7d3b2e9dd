import { InvalidArgumentError } from "commander";

/** `--limit 10`: a non-negative integer. */
export function parseCount(value: string): number {
  if (!/^\d+$/.test(value.trim()))
    throw new InvalidArgumentError("expected a whole number (0 or more).");
  return Number(value);
}

/** `--batch-size 64`: a positive integer. */
export function parsePositive(value: string): number {
  const number = parseCount(value);
  if (number < 1) throw new InvalidArgumentError("expected a whole number of at least 1.");
  return number;
}

/** `--importance 0.8`, `--min-score 0.2`: a number from 0 to 1. */
export function parseUnitInterval(value: string): number {
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number) || number < 0 || number > 1) {
    throw new InvalidArgumentError("expected a number from 0 to 1.");
  }
  return number;
}

/** `--port 8080`. */
export function parsePort(value: string): number {
  const number = parseCount(value);
  if (number > 65_535) throw new InvalidArgumentError("expected a port from 0 to 65535.");
  return number;
}

/** Repeatable, comma-separated `--category core --category daily,notes`. */
export function collectList(value: string, previous: string[] | undefined): string[] {
  const items = value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  return [...(previous ?? []), ...items];
}

const UNIT_MS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * `--since 7d` (relative: s, m, h, d, w before now) or an ISO-8601 time, passed through for the
 * backend to validate, so every backend rejects a bad time the same way.
 */
export function parseTime(value: string, now = Date.now()): string {
  const relative = /^(\d+)([smhdw])$/.exec(value.trim());
  if (relative) return new Date(now - Number(relative[1]) * UNIT_MS[relative[2]!]!).toISOString();
  return value.trim();
}

/** Accepts only the given words (`--mode`, `--format`). */
export function oneOf<T extends string>(allowed: readonly T[]): (value: string) => T {
  return (value) => {
    if (!(allowed as readonly string[]).includes(value)) {
      throw new InvalidArgumentError(`expected one of ${allowed.join(", ")}.`);
    }
    return value as T;
  };
}
