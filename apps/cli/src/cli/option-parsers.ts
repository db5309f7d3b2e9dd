import { normalizeTimestamp } from "@memory/api";
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

/** `--workers`: server worker processes, 1 to 256. */
export function parseWorkers(value: string): number {
  const number = parseCount(value);
  if (number < 1 || number > 256) throw new InvalidArgumentError("expected from 1 to 256 workers.");
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

/** Every form `--since`/`--until` accept, for the message that refuses a value. */
export const TIME_FORMS =
  "use a relative time (a whole number and a unit, s, m, h, d or w, meaning that long before now: 30m, 12h, 7d, 2w), an RFC 3339 time with an upper-case T and an offset (2026-01-31T12:00:00Z, 2026-01-31T14:00:00+02:00) or a date (2026-01-31, midnight UTC); see docs/input-rules.md";

/**
 * `--since 7d` (relative: s, m, h, d, w before now) or an RFC 3339 time, normalized by the same
 * `normalizeTimestamp` every backend applies, so the command line refuses exactly what the
 * library refuses, but with a message that also lists the relative forms only the CLI takes.
 */
export function parseTime(value: string, now = Date.now()): string {
  const text = value.trim();
  const relative = /^(\d+)([smhdw])$/.exec(text);
  if (relative) {
    const time = new Date(now - Number(relative[1]) * UNIT_MS[relative[2]!]!);
    if (Number.isNaN(time.getTime()) || time.getUTCFullYear() < 1) {
      throw new InvalidArgumentError(`${text} reaches before the year 0001; ${TIME_FORMS}.`);
    }
    return time.toISOString();
  }
  try {
    return normalizeTimestamp(text);
  } catch (error) {
    const message = (error as Error).message;
    if (/out of range/.test(message)) {
      // "timestamp "..." is out of range; times go from ... to ...": keep what follows the value.
      const quoted = JSON.stringify(text);
      throw new InvalidArgumentError(message.slice(message.indexOf(quoted) + quoted.length + 1));
    }
    throw new InvalidArgumentError(`not a time; ${TIME_FORMS}.`);
  }
}

/**
 * `memory snooze --for 7d`: a length ahead of now (a whole number and a unit: s, m, h, d, w),
 * in milliseconds; the library refuses a length that reaches past its time range.
 */
export function parseSnoozeFor(value: string): number {
  const match = /^(\d{1,6})([smhdw])$/.exec(value.trim());
  if (!match || Number(match[1]) === 0)
    throw new InvalidArgumentError(
      "expected a length: a whole number of at least 1 and a unit, s, m, h, d or w (90s, 30m, 12h, 7d, 2w).",
    );
  return Number(match[1]) * UNIT_MS[match[2]!]!;
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
