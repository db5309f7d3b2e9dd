import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, Workspace } from "./helpers/run-memory.js";

// Usage through the CLI, end to end on a real SQLite file (docs/usage.md): every command is its
// own process, so what one records the next one reads from the store.

interface Recalled {
  recallId?: string;
  results: { key: string }[];
}
interface Marked {
  key: string;
  pinned?: boolean;
  snoozedUntil?: string;
}
interface Report {
  namespace: string;
  entries: { key: string; stats: { surfaced: number; used: number; ignored: number } }[];
  pinCandidates?: unknown[];
  snoozeCandidates?: unknown[];
}

describe("memory feedback, pin, unpin, snooze, unsnooze, usage (SQLite)", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = new Workspace();
    for (const [key, text] of [
      ["editor", "The user edits code in Neovim"],
      ["tea", "The user drinks green tea"],
    ])
      await ws.run(["store", text!, "--key", key!]);
  }, 120_000);
  afterAll(() => ws.remove());

  const recallKeys = async (...args: string[]) =>
    json<Recalled>(await ws.run(["recall", "the user", "--min-score", "0", "--json", ...args]));

  it("recall prints a recall id that feedback takes; usage counts both", async () => {
    const human = await ws.run(["recall", "Neovim", "--min-score", "0"]);
    expect(human.code, human.stderr).toBe(0);
    const printed = /recall id (\S+) \(memory feedback \1 --used <keys>\)/.exec(human.stdout);
    expect(printed, human.stdout).not.toBeNull();

    const recalled = await recallKeys();
    expect(recalled.recallId).toEqual(expect.any(String));
    expect(recalled.results.map((entry) => entry.key).sort()).toEqual(["editor", "tea"]);
    const fed = await ws.run([
      "feedback",
      recalled.recallId!,
      "--used",
      "editor",
      "--ignored",
      "tea",
    ]);
    expect(fed.code, fed.stderr).toBe(0);
    expect(fed.stdout).toContain(
      `recorded feedback on ${recalled.recallId}: used editor; ignored tea`,
    );

    const report = json<Report>(await ws.run(["usage", "--candidates", "--json"]));
    expect(report.namespace).toBe("default");
    const editor = report.entries.find((entry) => entry.key === "editor");
    expect(editor?.stats).toMatchObject({ surfaced: 2, used: 1, ignored: 0 });
    expect(report.entries.find((entry) => entry.key === "tea")?.stats).toMatchObject({
      ignored: 1,
    });
    expect(report.pinCandidates).toEqual(expect.any(Array));
    expect(report.snoozeCandidates).toEqual(expect.any(Array));
    const table = await ws.run(["usage", "--candidates"]);
    expect(table.stdout).toMatch(/^usage in namespace default, most used first\n/);
    expect(table.stdout).toContain("pin candidates (used often, on many days and queries):");
    expect(table.stdout).toContain("snooze candidates (surfaced often, almost never used):");

    const untracked = await recallKeys("--no-track");
    expect(untracked).not.toHaveProperty("recallId");
  });

  it("feedback exits 3 for an unknown recall id and 2 for a key that was not a result", async () => {
    const unknown = await ws.run(["feedback", "no-such-recall", "--used", "editor"]);
    expect(unknown.code).toBe(3);
    const { recallId } = json<Recalled>(
      await ws.run(["recall", "Neovim", "--limit", "1", "--json"]),
    );
    const notAResult = await ws.run(["feedback", recallId!, "--used", "nowhere"]);
    expect(notAResult.code, notAResult.stderr).toBe(2);
    const missingUsed = await ws.run(["feedback", recallId!]);
    expect(missingUsed.code).toBe(2);
    const noneUsed = await ws.run(["feedback", recallId!, "--used", ""]);
    expect(noneUsed.code, noneUsed.stderr).toBe(0);
    expect(noneUsed.stdout).toContain("used none; ignored none");
    const both = await ws.run(["feedback", recallId!, "--used", "editor", "--reply", "Neovim"]);
    expect(both.code).toBe(2);
  });

  it("feedback --reply infers what was used from the reply's words", async () => {
    const { recallId } = json<Recalled>(
      await ws.run(["recall", "the user", "--min-score", "0", "--json"]),
    );
    const fed = await ws.run(["feedback", recallId!, "--reply", "You drink green tea, I recall."]);
    expect(fed.code, fed.stderr).toBe(0);
    expect(fed.stdout).toContain(`recorded feedback on ${recallId}: used tea; ignored editor`);
  });

  it("pins and unpins; get shows the mark", async () => {
    const pinned = await ws.run(["pin", "editor"]);
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(pinned.stdout).toContain("pinned editor (namespace default)");
    expect(pinned.stdout).toContain("undo: memory unpin editor");
    expect(json<Marked>(await ws.run(["get", "editor", "--json"])).pinned).toBe(true);
    expect((await ws.run(["get", "editor"])).stdout).toMatch(/editor \[core, pinned\]/);
    const explained = await ws.run(["recall", "Neovim", "--explain", "--no-track"]);
    expect(explained.stdout).toMatch(/editor \[core, pinned\]/);
    expect(explained.stdout).toMatch(/pinned \+0\.\d{3}/);
    const unpinned = json<Marked>(await ws.run(["unpin", "editor", "--json"]));
    expect(unpinned.pinned).toBeUndefined();
    expect((await ws.run(["pin", "nope"])).code).toBe(3);
  });

  it("snoozes for a while or until a time, recall leaves it out, and unsnooze brings it back", async () => {
    const snoozed = json<Marked>(await ws.run(["snooze", "tea", "--for", "7d", "--json"]));
    expect(Date.parse(snoozed.snoozedUntil!)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect((await recallKeys("--no-track")).results.map((entry) => entry.key)).toEqual(["editor"]);
    const all = await recallKeys("--no-track", "--include-snoozed");
    expect(all.results.map((entry) => entry.key).sort()).toEqual(["editor", "tea"]);

    const until = json<Marked>(await ws.run(["snooze", "tea", "--until", "2999-01-01", "--json"]));
    expect(until.snoozedUntil).toBe("2999-01-01T00:00:00.000Z");
    const human = await ws.run(["snooze", "tea"]);
    expect(human.stdout).toMatch(/^snoozed tea until \d{4}-.*recall --include-snoozed shows it/);
    expect(human.stdout).toContain("undo: memory unsnooze tea");

    const woken = await ws.run(["unsnooze", "tea"]);
    expect(woken.stdout).toContain("tea is awake (namespace default)");
    const back = await recallKeys("--no-track");
    expect(back.results.map((entry) => entry.key).sort()).toEqual(["editor", "tea"]);

    for (const args of [
      ["snooze", "tea", "--until", "2001-01-01"],
      ["snooze", "tea", "--until", "someday"],
      ["snooze", "tea", "--for", "7 days"],
      ["snooze", "tea", "--for", "0d"],
      ["snooze", "tea", "--for", "1d", "--until", "2999-01-01"],
    ]) {
      const refused = await ws.run(args);
      expect(refused.code, `${args.join(" ")}: ${refused.stderr}`).toBe(2);
    }
    expect((await ws.run(["snooze", "nope", "--for", "1d"])).code).toBe(3);
    expect((await ws.run(["unsnooze", "nope"])).code).toBe(3);
  });
});
