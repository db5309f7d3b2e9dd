import { describe, expect, it } from "vitest";
import {
  BackendUnavailableError,
  ConfigError,
  ConflictError,
  EmbeddingError,
  InvalidInputError,
  MemoryClosedError,
  MemoryError,
  MemoryTimeoutError,
  NotFoundError,
  UnsupportedOperationError,
} from "../src/index.js";

describe("MemoryError", () => {
  it.each([
    [InvalidInputError, "INVALID_INPUT", "InvalidInputError"],
    [NotFoundError, "NOT_FOUND", "NotFoundError"],
    [UnsupportedOperationError, "UNSUPPORTED", "UnsupportedOperationError"],
    [BackendUnavailableError, "BACKEND_UNAVAILABLE", "BackendUnavailableError"],
    [EmbeddingError, "EMBEDDING_FAILED", "EmbeddingError"],
    [MemoryTimeoutError, "TIMEOUT", "MemoryTimeoutError"],
    [ConflictError, "CONFLICT", "ConflictError"],
    [ConfigError, "CONFIG", "ConfigError"],
  ] as const)("%o has code %s and name %s", (ErrorClass, code, name) => {
    const error = new ErrorClass("what to do");
    expect(error.code).toBe(code);
    expect(error.name).toBe(name);
    expect(error.message).toBe("what to do");
    expect(error).toBeInstanceOf(MemoryError);
    expect(error).toBeInstanceOf(Error);
    expect(MemoryError.isInstance(error)).toBe(true);
    expect(MemoryError.hasCode(error, code)).toBe(true);
  });

  it("keeps the original error as cause and the details", () => {
    const cause = new Error("ECONNREFUSED");
    const error = new BackendUnavailableError("Start PostgreSQL.", {
      cause,
      details: { host: "db" },
    });
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ host: "db" });
  });

  it("has no cause property when none is given", () => {
    expect("cause" in new NotFoundError("x")).toBe(false);
  });

  it("MemoryClosedError is a BACKEND_UNAVAILABLE error that says what to do", () => {
    const error = new MemoryClosedError("sqlite");
    expect(error).toBeInstanceOf(BackendUnavailableError);
    expect(error.code).toBe("BACKEND_UNAVAILABLE");
    expect(error.name).toBe("MemoryClosedError");
    expect(error.message).toMatch(/sqlite memory is closed/);
  });

  it("isInstance recognizes an error from a second copy of the package by its registry symbol", () => {
    const foreign = Object.assign(new Error("from another copy"), {
      code: "NOT_FOUND",
      [Symbol.for("@memory/api.MemoryError")]: true,
    });
    expect(foreign instanceof MemoryError).toBe(false);
    expect(MemoryError.isInstance(foreign)).toBe(true);
    expect(MemoryError.hasCode(foreign, "NOT_FOUND")).toBe(true);
    expect(MemoryError.hasCode(foreign, "CONFIG")).toBe(false);
  });

  it("isInstance rejects look-alikes without the marker", () => {
    expect(MemoryError.isInstance(new Error("x"))).toBe(false);
    expect(MemoryError.isInstance({ code: "NOT_FOUND", name: "MemoryError" })).toBe(false);
    expect(MemoryError.isInstance({ [Symbol("@memory/api.MemoryError")]: true })).toBe(false);
    expect(MemoryError.isInstance(null)).toBe(false);
    expect(MemoryError.isInstance("INVALID_INPUT")).toBe(false);
  });

  it("hasCode is false for a different code", () => {
    expect(MemoryError.hasCode(new NotFoundError("x"), "INVALID_INPUT")).toBe(false);
  });
});
