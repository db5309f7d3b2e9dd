import {
  BackendUnavailableError,
  ConfigError,
  ConflictError,
  InvalidInputError,
  MemoryError,
  StoreNotWritableError,
} from "@memory/api";

// Node socket errors that mean "the server is gone or unreachable".
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

// SQLSTATEs of a lost or refused server: class 08 (connection exception), 57P01 admin shutdown
// (pg_terminate_backend), 57P02 crash shutdown, 57P03 cannot connect now, 53300 too many
// connections.
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

const CONNECTION_MESSAGES = [
  "Connection terminated",
  "connection error",
  "not queryable",
  "timeout exceeded when trying to connect",
  "Client was closed",
  "Cannot use a pool after calling end",
];

/** True when `error` means the database cannot be reached (as opposed to a bad statement). */
export function isConnectionError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith("08"))
      return true;
  }
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" && CONNECTION_MESSAGES.some((part) => message.includes(part));
}

/**
 * Turns a `pg` failure into a typed `@memory` error: a lost server is BACKEND_UNAVAILABLE (the
 * pool drops the broken client and reconnects on the next call), wrong credentials or a missing
 * database are CONFIG, and a constraint violation is CONFLICT. `@memory` errors pass through.
 */
export function toMemoryError(error: unknown, operation: string): Error {
  if (MemoryError.isInstance(error)) return error;
  const code = (error as { code?: unknown })?.code;
  const message = (error as { message?: unknown })?.message ?? String(error);
  if (isConnectionError(error)) {
    return new BackendUnavailableError(
      `PostgreSQL is unavailable during ${operation} (${code ?? "no code"}: ${message}). Check that the server is running and reachable at the configured connectionString; the memory reconnects on the next call.`,
      { cause: error, details: { operation, code } },
    );
  }
  if (code === "28P01" || code === "28000" || code === "3D000") {
    return new ConfigError(
      `PostgreSQL rejected the connection during ${operation} (${code}: ${message}). Fix the user, password or database name in the connection string (connectionString, [postgres].url, MEMORY_POSTGRES_URL or DATABASE_URL).`,
      { cause: error, details: { operation, code } },
    );
  }
  if (code === "23505" || code === "40001" || code === "40P01") {
    return new ConflictError(
      `PostgreSQL reported a conflict during ${operation} (${code}: ${message}); retry the operation.`,
      {
        cause: error,
        details: { operation, code },
      },
    );
  }
  if (code === "53100") {
    return new StoreNotWritableError(
      "full",
      `PostgreSQL's disk is full during ${operation} (${code}: ${message}). Free space on the database server (or its tablespace), then retry; reads keep working and the failed write was rolled back.`,
      { cause: error, details: { operation, code } },
    );
  }
  if (code === "25006") {
    return new StoreNotWritableError(
      "read-only",
      `PostgreSQL refused a write during ${operation} because the session is read-only (${code}: ${message}): connect to the primary, not a standby, and check default_transaction_read_only for the role and database; reads keep working.`,
      { cause: error, details: { operation, code } },
    );
  }
  if (code === "22021" || code === "54000") {
    return new InvalidInputError(
      `PostgreSQL refused the input during ${operation} (${code}: ${message}).`,
      {
        cause: error,
        details: { operation, code },
      },
    );
  }
  // Anything else is a database failure the caller cannot fix by changing input.
  return new BackendUnavailableError(
    `PostgreSQL failed during ${operation} (${code ?? "no code"}: ${message}).`,
    {
      cause: error,
      details: { operation, code },
    },
  );
}
