import {
  BackendUnavailableError,
  ConfigError,
  EmbeddingError,
  InvalidInputError,
  MemoryError,
  type MemoryErrorCode,
  MemoryTimeoutError,
} from "@memory/api";

/** Parent -> worker. */
export type WorkerRequest =
  | { type: "init"; id: number }
  | { type: "embed"; id: number; texts: string[]; cancellable: boolean; query: boolean }
  | { type: "cancel"; id: number };

/** Worker -> parent. Vectors travel as one transferred Float64Array, row after row. */
export type WorkerResponse =
  | { id: number; ok: true; rows: number; data: Float64Array }
  | { id: number; ok: false; error: SerializedError };

/** What survives the thread boundary of an error: enough to rebuild the same typed error. */
export interface SerializedError {
  name: string;
  message: string;
  code?: MemoryErrorCode;
  details?: Record<string, unknown>;
  cause?: { name: string; message: string };
}

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const serialized: SerializedError = { name: error.name, message: error.message };
  if (MemoryError.isInstance(error)) {
    serialized.code = error.code;
    if (error.details !== undefined) serialized.details = plain(error.details);
  }
  if (error.cause instanceof Error) {
    serialized.cause = { name: error.cause.name, message: error.cause.message };
  }
  return serialized;
}

/** Rebuilds the error thrown in the worker as the same `@memory/api` class, same message. */
export function deserializeError(serialized: SerializedError): Error {
  const options = {
    ...(serialized.details === undefined ? {} : { details: serialized.details }),
    ...(serialized.cause === undefined ? {} : { cause: rebuildPlain(serialized.cause) }),
  };
  switch (serialized.code) {
    case undefined:
      return rebuildPlain(serialized, options.cause);
    case "CONFIG":
      return new ConfigError(serialized.message, options);
    case "EMBEDDING_FAILED":
      return new EmbeddingError(serialized.message, options);
    case "INVALID_INPUT":
      return new InvalidInputError(serialized.message, options);
    case "BACKEND_UNAVAILABLE":
      return new BackendUnavailableError(serialized.message, options);
    case "TIMEOUT":
      return new MemoryTimeoutError(serialized.message, options);
    default: {
      const error = new MemoryError(serialized.code, serialized.message, options);
      error.name = serialized.name;
      return error;
    }
  }
}

function rebuildPlain(serialized: { name: string; message: string }, cause?: unknown): Error {
  const error = new Error(serialized.message, cause === undefined ? undefined : { cause });
  error.name = serialized.name;
  return error;
}

/** Details are meant to be plain data; anything structured clone rejects is dropped to a string. */
function plain(details: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(details);
  } catch {
    return { summary: String(details) };
  }
}
