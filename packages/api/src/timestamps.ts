import { InvalidInputError } from "./errors.js";
import { nullField } from "./field-checks.js";

/** The current time as a fixed-precision UTC ISO-8601 string (string order is time order). */
export function nowIso(): string {
  return new Date().toISOString();
}

// RFC 3339, upper-case only: a full-date, or a date-time with seconds and an offset.
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2}))?$/;
const STORAGE_FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Milliseconds since the epoch of an accepted timestamp, or NaN when it is not one. */
function parseTimestamp(text: string): number {
  const match = TIMESTAMP.exec(text);
  if (!match) return Number.NaN;
  const [, year, month, day, hour = "0", minute = "0", second = "0", fraction = "", zone = "Z"] =
    match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  // The fraction is truncated to milliseconds, the storage precision.
  date.setUTCHours(h, mi, s, Number(fraction.padEnd(3, "0").slice(0, 3)));
  // Reject what Date would silently roll over (2026-02-30 -> March 2, 25:00 -> next day).
  if (
    mo < 1 ||
    mo > 12 ||
    date.getUTCDate() !== d ||
    date.getUTCMonth() !== mo - 1 ||
    h > 23 ||
    mi > 59 ||
    s > 59
  ) {
    return Number.NaN;
  }
  let offsetMinutes = 0;
  if (zone !== "Z") {
    const offsetHours = Number(zone.slice(1, 3));
    const offsetMins = Number(zone.slice(4, 6));
    if (offsetHours > 23 || offsetMins > 59) return Number.NaN;
    offsetMinutes = (zone.startsWith("-") ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  return date.getTime() - offsetMinutes * 60_000;
}

/**
 * Parses a timestamp in the one accepted form (docs/input-rules.md), RFC 3339 with upper-case
 * `T` and `Z`: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`, or a date alone
 * (`YYYY-MM-DD`, midnight UTC). Returns the fixed storage format `YYYY-MM-DDTHH:mm:ss.sssZ`.
 * Anything else (lower-case `t`/`z`, a space instead of `T`, `+0000`, `+02`, no offset,
 * surrounding spaces, what `Date` would guess at, 2026-02-30) and times outside
 * 0001-01-01T00:00:00Z..9999-12-31T23:59:59.999Z (after conversion to UTC) are an
 * `InvalidInputError` naming `field`.
 */
export function normalizeTimestamp(value: unknown, field = "timestamp"): string {
  if (value === null) throw nullField(field);
  const time = typeof value === "string" ? parseTimestamp(value) : Number.NaN;
  const iso = Number.isNaN(time) ? "" : new Date(time).toISOString();
  if (Number.isNaN(time)) {
    throw new InvalidInputError(
      `${field} ${JSON.stringify(value)} is not a valid time; use RFC 3339 with an upper-case T and an offset, e.g. 2026-01-31T12:00:00Z or 2026-01-31T14:00:00+02:00, or a date alone (2026-01-31).`,
    );
  }
  // Year 0000 parses in JavaScript but no SQL backend stores it (PostgreSQL has no year 0), and
  // a five-digit year would break "string order is time order": the range is the same everywhere.
  if (!STORAGE_FORMAT.test(iso) || iso.startsWith("0000-")) {
    throw new InvalidInputError(
      `${field} ${JSON.stringify(value)} is out of range; times go from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z.`,
    );
  }
  return iso;
}
