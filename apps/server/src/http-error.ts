import { MemoryError, type MemoryErrorCode } from "@memory/api";
import { z } from "zod";

/** Codes that only exist on the wire (auth, limits, routing), beside the contract's codes. */
export type HttpOnlyErrorCode =
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "PAYLOAD_TOO_LARGE"
  | "METHOD_NOT_ALLOWED"
  | "SHUTTING_DOWN"
  | "INTERNAL";

export type ErrorCode = MemoryErrorCode | HttpOnlyErrorCode;

/** HTTP status of every contract error code. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  NOT_FOUND: 404,
  UNSUPPORTED: 501,
  CONFLICT: 409,
  BACKEND_UNAVAILABLE: 503,
  // 507 Insufficient Storage: the request was fine, the store cannot take it (full or read-only).
  STORE_NOT_WRITABLE: 507,
  TIMEOUT: 504,
  EMBEDDING_FAILED: 502,
  CONFIG: 500,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PAYLOAD_TOO_LARGE: 413,
  METHOD_NOT_ALLOWED: 405,
  SHUTTING_DOWN: 503,
  INTERNAL: 500,
};

/** An error the HTTP layer raises itself (auth, limits, malformed bodies). */
export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "HttpError";
    this.code = code;
    this.status = STATUS_BY_CODE[code];
  }
}

/** The one error shape every endpoint uses. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}

function describeZodError(error: z.ZodError, where: string): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.length > 0 ? `${where}.${issue.path.map(String).join(".")}` : where;
      if (issue.code === "unrecognized_keys")
        return `${path}: unknown field(s) ${issue.keys.join(", ")}`;
      return `${path}: ${issue.message}`;
    })
    .join("; ");
}

/** Wraps a schema failure as a 400 that names the field. */
export function invalidInput(error: z.ZodError, where: string): HttpError {
  return new HttpError("INVALID_INPUT", `Invalid ${where}: ${describeZodError(error, where)}.`, {
    cause: error,
  });
}

/** Maps any thrown value to a status and the wire error shape; `internal` is true for bugs. */
export function toErrorResponse(error: unknown): {
  status: number;
  body: ErrorBody;
  internal: boolean;
} {
  if (error instanceof HttpError) {
    return {
      status: error.status,
      body: { error: { code: error.code, message: error.message } },
      internal: false,
    };
  }
  if (MemoryError.isInstance(error)) {
    return {
      status: STATUS_BY_CODE[error.code] ?? 500,
      body: { error: { code: error.code, message: error.message } },
      internal: false,
    };
  }
  if (error instanceof z.ZodError) {
    const wrapped = invalidInput(error, "input");
    return {
      status: 400,
      body: { error: { code: wrapped.code, message: wrapped.message } },
      internal: false,
    };
  }
  return {
    status: 500,
    body: {
      error: {
        code: "INTERNAL",
        message: "Internal server error; the server log has the details.",
      },
    },
    internal: true,
  };
}
