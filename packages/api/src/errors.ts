/**
 * Stable machine-readable error codes. They never change meaning between releases, so callers
 * (and the HTTP server, which puts them on the wire) can branch on them.
 */
export type MemoryErrorCode =
  | "INVALID_INPUT"
  | "NOT_FOUND"
  | "UNSUPPORTED"
  | "BACKEND_UNAVAILABLE"
  | "STORE_NOT_WRITABLE"
  | "EMBEDDING_FAILED"
  | "TIMEOUT"
  | "CONFLICT"
  | "CONFIG";

// A registry-wide symbol, so isInstance() works across two installed copies of this package,
// where `instanceof` would silently fail.
const marker = Symbol.for("@memory/api.MemoryError");

/** Options accepted by every error constructor. */
export interface MemoryErrorOptions {
  /** The underlying error, kept for debugging (`--verbose` prints the chain). */
  cause?: unknown;
  /** Structured details safe to show to users (never secrets). */
  details?: Record<string, unknown>;
}

/**
 * Base class of every error thrown by `@memory` packages. The message says what went wrong,
 * with which input, and what to do about it.
 */
export class MemoryError extends Error {
  readonly [marker] = true;
  /** Stable error code; see {@link MemoryErrorCode}. */
  readonly code: MemoryErrorCode;
  /** Structured details safe to show to users. */
  readonly details: Record<string, unknown> | undefined;

  constructor(code: MemoryErrorCode, message: string, options: MemoryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "MemoryError";
    this.code = code;
    this.details = options.details;
  }

  /** True for any `@memory` error, from any copy of the package. */
  static isInstance(error: unknown): error is MemoryError {
    return typeof error === "object" && error !== null && marker in error;
  }

  /** True when `error` is a `@memory` error with the given code. */
  static hasCode(error: unknown, code: MemoryErrorCode): error is MemoryError {
    return MemoryError.isInstance(error) && error.code === code;
  }
}

/** The caller passed something the operation cannot accept (bad key, content, option...). */
export class InvalidInputError extends MemoryError {
  constructor(message: string, options?: MemoryErrorOptions) {
    super("INVALID_INPUT", message, options);
    this.name = "InvalidInputError";
  }
}

/** The entry (or other named thing) does not exist. */
export class NotFoundError extends MemoryError {
  constructor(message: string, options?: MemoryErrorOptions) {
    super("NOT_FOUND", message, options);
    this.name = "NotFoundError";
  }
}

/** The backend cannot do this operation at all; see its `capabilities`. */
export class UnsupportedOperationError extends MemoryError {
  constructor(message: string, options?: MemoryErrorOptions) {
    super("UNSUPPORTED", message, options);
    this.name = "UnsupportedOperationError";
  }
}

/** The backend cannot be reached or opened (lost connection, corrupt file, closed instance). */
export class BackendUnavailableError extends MemoryError {
  constructor(message: string, options?: MemoryErrorOptions) {
    super("BACKEND_UNAVAILABLE", message, options);
    this.name = "BackendUnavailableError";
  }
}

/** Why a store refuses writes: its disk (or quota) is full, or it is read-only. */
export type NotWritableReason = "full" | "read-only";

/**
 * The store cannot be written: the disk or the database's size limit is full, or the file,
 * its directory, the file system or the database is read-only. Reads keep working; the write
 * that failed left nothing behind. `details.reason` says which; the message says what to fix.
 */
export class StoreNotWritableError extends MemoryError {
  readonly reason: NotWritableReason;
  constructor(reason: NotWritableReason, message: string, options?: MemoryErrorOptions) {
    super("STORE_NOT_WRITABLE", message, {
      ...options,
      details: { ...options?.details, reason },
    });
    this.name = "StoreNotWritableError";
    this.reason = reason;
  }
}

/** Thrown by every operation after `close()`. */
export class MemoryClosedError extends BackendUnavailableError {
  constructor(backend: string) {
    super(
      `This ${backend} memory is closed: create a new instance (or open the store again) before using it.`,
    );
    this.name = "MemoryClosedError";
  }
}

/** An embedding provider failed (wrong key, wrong dimensions, malformed response...). */
export class EmbeddingError extends MemoryError {
  constructor(message: string, options?: MemoryErrorOptions) {
    super("EMBEDDING_FAILED", message, options);
    this.name = "EmbeddingError";
  }
}

/** An operation did not finish in time. */
export class MemoryTimeoutError extends MemoryError {
  constructor(message: string, options?: MemoryErrorOptions) {
    super("TIMEOUT", message, options);
    this.name = "MemoryTimeoutError";
  }
}

/** A write conflicts with the stored state (for example a lease held by someone else). */
export class ConflictError extends MemoryError {
  constructor(message: string, options?: MemoryErrorOptions) {
    super("CONFLICT", message, options);
    this.name = "ConflictError";
  }
}

/** The configuration is invalid or names something that is not installed. */
export class ConfigError extends MemoryError {
  constructor(message: string, options?: MemoryErrorOptions) {
    super("CONFIG", message, options);
    this.name = "ConfigError";
  }
}
