import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../src/conformance-options.js";
import {
  declarationProblems,
  requireFeature,
  UnmetDeclarationError,
  undeclaredCapabilities,
} from "../src/declarations.js";
import { createInMemoryMemory, createTestEmbedder } from "../src/index.js";

const options = (
  supports: ConformanceOptions["supports"],
  extra: Partial<ConformanceOptions> = {},
) =>
  ({
    name: "probe",
    supports,
    create: async () => createInMemoryMemory(),
    ...extra,
  }) satisfies ConformanceOptions;

/** What `check` throws; fails the test when it does not throw. */
function thrownBy(check: () => void): unknown {
  try {
    check();
  } catch (error) {
    return error;
  }
  throw new Error("expected the precondition check to fail, but it passed");
}

describe("a declared feature whose precondition is missing fails", () => {
  it("vector search declared on the in-memory backend opened without an embedder", async () => {
    await using memory = createInMemoryMemory();
    const error = thrownBy(() => requireFeature(options(["vectorSearch"]), memory, "vectorSearch"));
    expect(error).toBeInstanceOf(UnmetDeclarationError);
    expect((error as Error).message).toBe(
      'probe declares "vectorSearch", but capabilities.vectorSearch is false on the instance the factory returned (opened with an embedder): pass context.embedder (and the rest of the factory context) on to the backend, or remove "vectorSearch" from supports.',
    );
  });

  it("deferred embedding declared on a backend that has none (the in-memory reference)", async () => {
    await using memory = createInMemoryMemory({ embedder: createTestEmbedder() });
    const error = thrownBy(() =>
      requireFeature(options(["deferredEmbedding"]), memory, "deferredEmbedding"),
    );
    expect((error as Error).message).toMatch(
      /^probe declares "deferredEmbedding", but capabilities\.deferredEmbedding is false/,
    );
  });

  it("passes when the precondition holds", async () => {
    await using memory = createInMemoryMemory({ embedder: createTestEmbedder() });
    expect(requireFeature(options(["vectorSearch"]), memory, "vectorSearch")).toBeUndefined();
  });
});

describe("declarations are checked against each other and against capabilities", () => {
  it("names a feature declared without what it needs", () => {
    expect(
      declarationProblems(options(["persistent", "multiProcess", "deferredEmbedding"])),
    ).toEqual([
      '"persistent" needs "sharedStore" declared as well',
      '"multiProcess" needs "sharedStore" declared as well',
      '"deferredEmbedding" needs "vectorSearch" declared as well',
      '"multiProcess" needs the childOpener option: a module whose openShared(location, { now }) opens the store in a child process',
    ]);
    expect(declarationProblems(options(["sharedStore"]))).toEqual([
      '"sharedStore" needs the createShared() option: one store, opened several times',
    ]);
  });

  it("names every capability the backend claims but does not declare", async () => {
    await using memory = createInMemoryMemory({ embedder: createTestEmbedder() });
    expect(undeclaredCapabilities(options([]), memory.capabilities)).toEqual([
      'capabilities.vectorSearch is true but "vectorSearch" is not declared',
      'capabilities.cjkSearch is true but "cjkSearch" is not declared',
      'capabilities.relations is true but "relations" is not declared',
      'capabilities.usage is true but "usage" is not declared',
      'capabilities.multiInstance is true but "sharedStore" is not declared',
    ]);
    expect(
      undeclaredCapabilities(
        options(["vectorSearch", "cjkSearch", "sharedStore", "relations", "usage"]),
        memory.capabilities,
      ),
    ).toEqual([]);
  });
});

describe("the suite over a backend that declares what it cannot do", () => {
  const dir = mkdtempSync(join(tmpdir(), "memory-misdeclared-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fails every declared vector test with the missing precondition, and skips none", async () => {
    const report = join(dir, "report.json");
    // A child vitest, so the expected failures do not fail this run: its exit code is 1.
    const run = await promisify(execFile)(
      process.execPath,
      [
        "node_modules/vitest/vitest.mjs",
        "run",
        "--config",
        "test/fixtures/vitest.misdeclared.config.ts",
        "--reporter=json",
        `--outputFile=${report}`,
      ],
      { cwd: join(import.meta.dirname, ".."), maxBuffer: 64 * 1024 * 1024 },
    ).then(
      () => ({ code: 0 }),
      (error: { code?: number }) => ({ code: error.code }),
    );
    expect(run.code).toBe(1);
    const results = JSON.parse(readFileSync(report, "utf8")) as {
      numPendingTests: number;
      numTodoTests: number;
      testResults: {
        assertionResults: { title: string; status: string; failureMessages: string[] }[];
      }[];
    };
    expect(results.numPendingTests + results.numTodoTests, "skipped tests").toBe(0);
    const tests = results.testResults.flatMap((file) => file.assertionResults);
    const failed = tests.filter((test) => test.status === "failed");
    // The vector groups and the vector tests of other groups: each fails on the declaration.
    expect(failed.length).toBeGreaterThanOrEqual(20);
    for (const test of failed)
      expect(test.failureMessages.join("\n"), test.title).toContain(
        'misdeclared declares "vectorSearch", but capabilities.vectorSearch is false',
      );
    expect(failed.map((test) => test.title)).toEqual(
      expect.arrayContaining([
        "finds by meaning what keywords cannot (embedding mode)",
        "answers from keywords and says the provider failed when the embedder throws",
        "never returns early with the default settings",
        "removes deleted entries from vector recall",
      ]),
    );
    // Everything that does not need vectors still passes.
    expect(tests.filter((test) => test.status === "passed").length).toBeGreaterThan(60);
  });
});
