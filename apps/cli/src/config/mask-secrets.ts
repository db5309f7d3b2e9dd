// Names that hold credentials in any table (`api_key`, `[server].token`, `password`...).
const SECRET_NAME = /(^|_)(key|api_key|apikey|token|secret|password|passwd|credentials?)$/i;
const MASK = "********";

/** Hides the password of a connection URL (`postgresql://user:pw@host` -> `user:********@host`). */
export function maskUrl(value: string): string {
  try {
    const url = new URL(value);
    if (!url.password) return value;
    url.password = MASK;
    return url.toString();
  } catch {
    return value;
  }
}

/** Masks one configuration value by its key name; URLs keep everything but their password. */
export function maskValue(key: string, value: unknown): unknown {
  if (typeof value === "string") {
    if (SECRET_NAME.test(key)) return value === "" ? value : MASK;
    if (/:\/\//.test(value)) return maskUrl(value);
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => maskValue(key, item));
  if (value && typeof value === "object") return maskTable(value as Record<string, unknown>);
  return value;
}

/** Masks every secret in a table, recursively. */
export function maskTable(table: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(table).map(([key, value]) => [key, maskValue(key, value)]),
  );
}
