import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLucidMemory, type LucidMemory, type LucidMemoryOptions } from "../src/index.js";
import { calls, FAKE_LUCID, fakeLucid, manualClock, tempDir } from "./helpers.js";

const open: LucidMemory[] = [];
afterEach(async () => {
  for (const memory of open.splice(0)) await memory.close();
});

interface Fixture {
  memory: LucidMemory;
  log: string;
  messages: string[];
  clock: ReturnType<typeof manualClock>;
}

function setup(env: Record<string, string> = {}, options: LucidMemoryOptions = {}): Fixture {
  const dir = tempDir();
  const log = join(dir, "calls.jsonl");
  const messages: string[] = [];
  const clock = manualClock();
  const memory = createLucidMemory({
    ...fakeLucid({ FAKE_LUCID_LOG: log, ...env }),
    sqlite: { path: join(dir, "brain.db"), logger: () => {} },
    logger: (message) => messages.push(message),
    now: clock.now,
    syncRetryDelayMs: 0,
    // The fake is a real Node process: on a busy machine it can take seconds to start. Tests
    // that expect an answer must not race the default 500/800 ms bounds; tests of the timeouts
    // set their own and count attempts on the wrapper's side, never in the fake's log.
    recallTimeoutMs: 60_000,
    storeTimeoutMs: 60_000,
    ...options,
  });
  open.push(memory);
  return { memory, log, messages, clock };
}

const contextCalls = (log: string) => calls(log).filter((args) => args[0] === "context");
const storeCalls = (log: string) => calls(log).filter((args) => args[0] === "store");

async function lucidDetails(memory: LucidMemory) {
  const report = await memory.healthCheck();
  return report.details.lucid as {
    cooldownUntil?: string;
    lastFailure?: { reason: string };
    skippedLines: number;
    externalRecalls: number;
    sync: { pending: number; succeeded: number; failedAttempts: number; dropped: number };
  };
}

describe("store and sync", () => {
  it("writes locally, then sends the entry as an argument vector with the content after --", async () => {
    const { memory, log } = setup();
    const entry = await memory.store({ key: "editor", content: "-rf uses vim", category: "daily" });
    expect((await memory.get("editor"))!.content).toBe("-rf uses vim");
    await memory.flush();
    expect(storeCalls(log)).toEqual([
      ["store", "--category", "daily", "--key", "editor", "--", "-rf uses vim"],
    ]);
    expect(entry.key).toBe("editor");
    expect((await lucidDetails(memory)).sync).toMatchObject({ succeeded: 1, dropped: 0 });
  });

  it("sends a changed entry once and never the version it keeps of the previous content", async () => {
    const { memory, log } = setup();
    await memory.store({ key: "city", content: "The user lives in Berlin" });
    // Sent before the next store: a waiting sync of the same key would be replaced by it.
    await memory.flush();
    await memory.store({ key: "city", content: "The user lives in Lisbon" });
    await memory.flush();
    expect((await memory.history("city")).map((entry) => entry.key)).toEqual([
      "city",
      "city::history:1",
    ]);
    const sent = storeCalls(log).map((args) => args.slice(-4));
    expect(sent).toEqual([
      ["--key", "city", "--", "The user lives in Berlin"],
      ["--key", "city", "--", "The user lives in Lisbon"],
    ]);
  });

  it("returns from store while the sync still hangs, and close drops it after its bound", async () => {
    const { memory, messages } = setup(
      { FAKE_LUCID_MODE: "hang" },
      { storeTimeoutMs: 60_000, closeTimeoutMs: 100 },
    );
    await memory.store({ key: "k", content: "kept locally" });
    expect((await lucidDetails(memory)).sync.pending).toBe(1);
    expect((await memory.get("k"))!.content).toBe("kept locally");
    await memory.close();
    expect(messages.join("\n")).toMatch(/closed with 1 sync\(s\) to .* unfinished after 100 ms/);
  });

  it("flush gives up on a pending sync with a TIMEOUT error", async () => {
    const { memory } = setup(
      { FAKE_LUCID_MODE: "hang" },
      { storeTimeoutMs: 60_000, closeTimeoutMs: 50 },
    );
    await memory.store({ key: "k", content: "v" });
    await expect(memory.flush({ timeoutMs: 50 })).rejects.toMatchObject({ code: "TIMEOUT" });
  });

  it("retries a failed sync a bounded number of times, then drops it and says so", async () => {
    const { memory, log, messages } = setup({ FAKE_LUCID_MODE: "fail" }, { syncRetries: 2 });
    const stored = await memory.store({ key: "k", content: "v" });
    expect(stored.content).toBe("v");
    await memory.flush();
    expect(storeCalls(log)).toHaveLength(3);
    expect((await lucidDetails(memory)).sync).toMatchObject({ failedAttempts: 3, dropped: 1 });
    expect(messages.join("\n")).toMatch(/exited with 1: lucid: database is locked/);
    expect(messages.join("\n")).toMatch(/was not copied .* after 3 attempts/);
  });

  it("succeeds on a retry after a transient failure", async () => {
    const { memory, log } = setup({ FAKE_LUCID_FAIL_TIMES: "1" }, { syncRetries: 2 });
    await memory.store({ key: "k", content: "v" });
    await memory.flush();
    expect(storeCalls(log)).toHaveLength(2);
    expect((await lucidDetails(memory)).sync).toMatchObject({ succeeded: 1, dropped: 0 });
  });

  it("times a sync out and retries it", async () => {
    const { memory, log } = setup(
      { FAKE_LUCID_MODE: "hang" },
      { storeTimeoutMs: 100, syncRetries: 1 },
    );
    await memory.store({ key: "k", content: "v" });
    await memory.flush();
    // The fake may be killed before it starts (and logs), so attempts are counted by the wrapper.
    const details = await lucidDetails(memory);
    expect(details.sync).toMatchObject({ failedAttempts: 2, dropped: 1 });
    expect(storeCalls(log).length).toBeLessThanOrEqual(2);
    expect(details.lastFailure!.reason).toMatch(/did not answer within 100 ms/);
  });

  it("does not retry when the command does not exist", async () => {
    const dir = tempDir();
    const messages: string[] = [];
    const memory = createLucidMemory({
      command: join(dir, "missing-lucid"),
      sqlite: { path: join(dir, "brain.db"), logger: () => {} },
      logger: (message) => messages.push(message),
    });
    open.push(memory);
    await memory.store({ key: "k", content: "v" });
    await memory.flush();
    expect((await lucidDetails(memory)).sync).toMatchObject({ failedAttempts: 1, dropped: 1 });
    expect(messages[0]).toMatch(/was not found: install it or set \[lucid\]\.command/);
    expect((await memory.recall("v", { minScore: 0 })).map((entry) => entry.key)).toEqual(["k"]);
  });

  it("sends only the latest content when a key is stored again before its sync ran", async () => {
    const { memory, log } = setup({}, {});
    await Promise.all([
      memory.store({ key: "a", content: "first" }),
      memory.store({ key: "b", content: "other" }),
      memory.store({ key: "c", content: "third" }),
      memory.store({ key: "c", content: "latest" }),
    ]);
    await memory.flush();
    const sent = storeCalls(log).map((args) => args.at(-1));
    expect(sent).toContain("latest");
    expect(sent).not.toContain("third");
  });
});

describe("recall", () => {
  const ANSWER = [
    "- [decision] Deploys go through the blue green pipeline",
    "- [bug] Pipeline cache broke after the upgrade",
    "- [mystery-tag] Pipeline owners meet on Fridays",
    "- [context] Unrelated text about lunch",
    "this line is not a context line",
    "- [learning]",
  ].join("\n");

  it("asks the tool only when local recall found fewer than local_hit_threshold results", async () => {
    const { memory, log } = setup({ FAKE_LUCID_ANSWER: ANSWER });
    for (const key of ["a", "b", "c"]) {
      await memory.store({ key, content: `the pipeline note ${key}` });
    }
    await memory.flush();
    await memory.recall("pipeline", { minScore: 0 });
    expect(contextCalls(log)).toHaveLength(0);
    await memory.recall("lunch");
    expect(contextCalls(log)).toEqual([["context", "--", "lunch"]]);
  });

  it("merges external lines with the local results and says where each came from", async () => {
    const { memory, clock } = setup({ FAKE_LUCID_ANSWER: ANSWER });
    await memory.store({ key: "deploy", content: "Deploys go through the blue green pipeline" });
    const results = await memory.recall("pipeline deploys", { limit: 10, minScore: 0.1 });
    const local = results.find((entry) => entry.key === "deploy")!;
    expect(local.explain!.source).not.toBe("external");
    const external = results.filter((entry) => entry.explain!.source === "external");
    // The local fact coming back from the tool is not repeated; the lunch line shares no word.
    expect(external.map((entry) => entry.content).sort()).toEqual([
      "Pipeline cache broke after the upgrade",
      "Pipeline owners meet on Fridays",
    ]);
    const bug = external.find((entry) => entry.content.startsWith("Pipeline cache"))!;
    expect(bug).toMatchObject({
      category: "daily",
      namespace: "default",
      createdAt: new Date(clock.now()).toISOString(),
      explain: { source: "external", decay: 1 },
    });
    expect(bug.key).toMatch(/^lucid:[0-9a-f]{16}$/);
    expect(bug.score).toBeLessThanOrEqual(0.5);
    expect(bug.score).toBe(bug.explain!.fused);
    expect(external.find((entry) => entry.content.includes("owners"))!.category).toBe("lucid");
    const scores = results.map((entry) => entry.score!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect((await lucidDetails(memory)).skippedLines).toBe(2);
  });

  it("drops external results below minScore and respects limit and filters", async () => {
    const { memory, log } = setup({ FAKE_LUCID_ANSWER: ANSWER });
    expect(await memory.recall("pipeline", { minScore: 0.6 })).toEqual([]);
    expect(await memory.recall("pipeline", { minScore: 0, limit: 1 })).toHaveLength(1);
    const daily = await memory.recall("pipeline", { minScore: 0, categories: ["daily"] });
    expect(daily.map((entry) => entry.category)).toEqual(["daily"]);
    expect(
      await memory.recall("pipeline", { minScore: 0, until: "2020-01-01T00:00:00.000Z" }),
    ).toEqual([]);
    const before = contextCalls(log).length;
    expect(await memory.recall("pipeline", { minScore: 0, sessionId: "s1" })).toEqual([]);
    expect(await memory.recall("", { minScore: 0 })).toEqual([]);
    expect(await memory.recall("pipeline", { limit: 0 })).toEqual([]);
    expect(contextCalls(log)).toHaveLength(before);
  });

  it("passes hostile queries as one argument that cannot change the command", async () => {
    const dir = tempDir();
    const marker = join(dir, "pwned");
    const { memory, log } = setup({ FAKE_LUCID_ANSWER: "" });
    const queries = [
      "--help",
      "-rf /",
      "line one\nline two",
      `"quoted" 'single' \`tick\``,
      `$(touch ${marker}); touch ${marker}`,
      "{query} {key}",
    ];
    for (const query of queries) await memory.recall(query);
    // A NUL cannot be in any argument: such a query is refused before the tool is asked.
    await expect(memory.recall("nul\u0000inside")).rejects.toMatchObject({ code: "INVALID_INPUT" });
    expect(contextCalls(log)).toEqual(queries.map((query) => ["context", "--", query]));
    expect(existsSync(marker)).toBe(false);
  });
});

describe("external failures", () => {
  const failures: [string, Record<string, string>, LucidMemoryOptions, RegExp][] = [
    ["exits non-zero", { FAKE_LUCID_MODE: "fail" }, {}, /exited with 1: lucid: database is locked/],
    [
      "hangs",
      { FAKE_LUCID_MODE: "hang" },
      { recallTimeoutMs: 150 },
      /did not answer within 150 ms/,
    ],
    ["prints garbage", { FAKE_LUCID_MODE: "garbage" }, {}, /without a <lucid-context> block/],
    ["prints no block", { FAKE_LUCID_MODE: "absent-block" }, {}, /without a <lucid-context> block/],
    [
      "prints a huge output",
      { FAKE_LUCID_MODE: "huge" },
      { maxOutputBytes: 64 * 1024 },
      /more than 65536 bytes/,
    ],
  ];

  for (const [what, env, options, reason] of failures) {
    it(`returns the local results when the tool ${what}, then leaves it alone for the cooldown`, async () => {
      const { memory, messages, clock } = setup(env, { ...options, syncRetries: 0 });
      await memory.importEntries([{ key: "local", content: "the pipeline runbook" }]);
      const first = await memory.recall("pipeline runbook");
      expect(first.map((entry) => entry.key)).toEqual(["local"]);
      // Calls are counted by the wrapper: a timed-out fake may be killed before it logs.
      const details = await lucidDetails(memory);
      expect(details.externalRecalls).toBe(1);
      expect(details.lastFailure!.reason).toMatch(reason);
      expect(details.cooldownUntil).toBe(new Date(clock.now() + 15_000).toISOString());
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(/local results only for the next 15 s/);

      clock.advance(14_999);
      expect((await memory.recall("pipeline runbook")).map((entry) => entry.key)).toEqual([
        "local",
      ]);
      expect((await lucidDetails(memory)).externalRecalls).toBe(1);

      clock.advance(1);
      await memory.recall("pipeline runbook");
      expect((await lucidDetails(memory)).externalRecalls).toBe(2);
    });
  }

  it("clears the cooldown after a success", async () => {
    const { memory, log, clock } = setup({ FAKE_LUCID_FAIL_TIMES: "1", FAKE_LUCID_ANSWER: "" });
    await memory.recall("anything");
    expect((await lucidDetails(memory)).cooldownUntil).toBeDefined();
    clock.advance(15_000);
    await memory.recall("anything");
    expect((await lucidDetails(memory)).cooldownUntil).toBeUndefined();
    await memory.recall("anything");
    expect(contextCalls(log)).toHaveLength(3);
  });

  it("ends a hanging external recall at the recall timeout (the process is killed)", async () => {
    const { memory } = setup({ FAKE_LUCID_MODE: "hang" }, { recallTimeoutMs: 100 });
    const report = await lucidDetails(memory);
    expect(report.externalRecalls).toBe(0);
    await expect(memory.recall("anything")).resolves.toEqual([]);
    expect((await lucidDetails(memory)).lastFailure!.reason).toMatch(/killed/);
  });
});

describe("lifecycle", () => {
  it("runs the tool as an executable found by path (the fake's shebang)", async () => {
    const dir = tempDir();
    const log = join(dir, "calls.jsonl");
    const memory = createLucidMemory({
      command: FAKE_LUCID,
      env: { FAKE_LUCID_LOG: log, FAKE_LUCID_ANSWER: "- [fact] The shebang path works" },
      sqlite: { path: join(dir, "brain.db"), logger: () => {} },
      logger: () => {},
      // A real child process: on a busy machine it may take seconds to start.
      recallTimeoutMs: 60_000,
    });
    open.push(memory);
    const [result] = await memory.recall("shebang path", { minScore: 0 });
    expect(result).toMatchObject({ content: "The shebang path works", category: "core" });
    expect(contextCalls(log)).toEqual([["context", "--", "shebang path"]]);
  });

  // Lucid is a decorator of any driver, not a wrapper of SQLite: here the in-memory one.
  it("decorates the driver given as local: syncs its writes and supplements its recalls", async () => {
    const dir = tempDir();
    const log = join(dir, "calls.jsonl");
    const { createInMemoryDriver } = await import("@memory/core");
    const memory = createLucidMemory({
      ...fakeLucid({ FAKE_LUCID_LOG: log }),
      local: createInMemoryDriver(),
      logger: () => {},
      syncRetryDelayMs: 0,
      recallTimeoutMs: 60_000,
      storeTimeoutMs: 60_000,
    });
    open.push(memory);
    await memory.store({ key: "k", content: "the pipeline runbook" });
    await memory.flush();
    expect(storeCalls(log)).toHaveLength(1);
    await memory.recall("pipeline", { minScore: 0 });
    expect(contextCalls(log)).toEqual([["context", "--", "pipeline"]]);
    const report = await memory.healthCheck();
    expect(report.backend).toBe("lucid");
    expect(report.details.local).toBe("memory");
    await memory.close();
    await expect(memory.get("k")).rejects.toMatchObject({ code: "BACKEND_UNAVAILABLE" });
  });

  it("declares the local store's capabilities", async () => {
    const { memory } = setup();
    expect(memory.capabilities).toMatchObject({ persistent: true, keywordSearch: true });
    expect(memory.name).toBe("lucid");
    expect((await memory.healthCheck()).backend).toBe("lucid");
  });
});

// Before: external lines were stemmed as English whatever text_language said, so with `none`
// "pipelines" still matched "pipeline" in a lucid line while the local store did not.
describe("text_language", () => {
  const ANSWER = "- [decision] Deploys go through the blue green pipeline";
  const external = async (language: "english" | "none") => {
    const dir = tempDir();
    const { memory } = setup(
      { FAKE_LUCID_ANSWER: ANSWER },
      { sqlite: { path: join(dir, "brain.db"), logger: () => {}, textLanguage: language } },
    );
    const results = await memory.recall("pipelines", { minScore: 0 });
    return results.filter((entry) => entry.explain?.source === "external");
  };

  it("scores external lines with the local store's text_language", async () => {
    const english = await external("english");
    expect(english).toHaveLength(1);
    expect(english[0]!.score).toBeGreaterThan(0);
    const none = await external("none");
    expect(none.every((entry) => entry.score === 0)).toBe(true);
  });

  it("takes an explicit textLanguage over the local store's", async () => {
    const { memory } = setup({ FAKE_LUCID_ANSWER: ANSWER }, { textLanguage: "none" });
    const results = await memory.recall("pipelines", { minScore: 0 });
    const lines = results.filter((entry) => entry.explain?.source === "external");
    expect(lines.every((entry) => entry.score === 0)).toBe(true);
  });
});
