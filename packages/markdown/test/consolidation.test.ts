import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MemoryError } from "@memory/api";
import { createOpenAIChatModel } from "@memory/embeddings/openai";
import { ChatServer, gate } from "@memory/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ConsolidationError,
  consolidateMemoryFile,
  createMarkdownMemory,
  HISTORY_DIR,
  type MarkdownMemory,
  traceLine,
  traceUnit,
  unifiedDiff,
} from "../src/index.js";
import { tempDir } from "./helpers.js";

let server: ChatServer;
const chatModel = () =>
  createOpenAIChatModel({
    preset: "custom",
    baseURL: server.baseURL,
    apiKey: "sk-test",
    model: "scripted-chat",
    maxRetries: 0,
    retryBaseDelayMs: 1,
    sleep: async () => {},
  });

beforeAll(async () => {
  server = await ChatServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const open: MarkdownMemory[] = [];
afterAll(async () => {
  for (const memory of open) await memory.close();
});

/** A tree with four core entries and today's daily log. */
async function seeded(options: { index?: boolean } = {}) {
  const root = tempDir("memory-consolidate-");
  const memory = createMarkdownMemory({ root, index: options.index ?? true });
  open.push(memory);
  await memory.store({ key: "editor", content: "The user edits code in Neovim", category: "core" });
  await memory.store({ key: "city", content: "The user lives in Paris", category: "core" });
  await memory.store({
    key: "pet",
    content: "The user has a cat named Miso",
    category: "core",
    importance: 0.9,
  });
  await memory.store({ key: "diet", content: "The user is vegetarian", category: "core" });
  await memory.store({
    key: "standup",
    content: "I moved to Lyon last week",
    category: "daily",
  });
  await memory.store({
    key: "kickoff",
    content: "Started the Atlas project with Dana; it ships in March",
    category: "daily",
  });
  await memory.store({ key: "lunch", content: "Ate a sandwich", category: "daily" });
  const core = () => readFileSync(join(root, "MEMORY.md"), "utf8");
  return { root, memory, core, before: core() };
}

const lineOf = (text: string, key: string) =>
  text.split("\n").find((line) => line.startsWith(`- **${key}**:`)) as string;

describe("consolidateMemoryFile", () => {
  it("applies a good update: backup kept, diff reported, ids kept, recall finds the new fact", async () => {
    const { root, memory, core, before } = await seeded();
    const ids = Object.fromEntries(
      await Promise.all(
        ["editor", "city", "pet", "diet"].map(async (key) => [key, await memory.get(key)]),
      ),
    );
    server.reply({
      content: [
        "```markdown",
        "# Long-term memory",
        "",
        "- **editor**: The user edits code in Neovim",
        "- **city**: The user moved to Lyon last week",
        lineOf(before, "pet"), // the model kept this comment; the others are re-attached by key
        "- **diet**: The user is vegetarian",
        "- **atlas_project**: The user started the Atlas project, which ships in March",
        "```",
      ].join("\n"),
    });
    const report = await consolidateMemoryFile(memory, { chatModel: chatModel() });
    expect(report).toMatchObject({
      namespace: "default",
      path: "MEMORY.md",
      written: true,
      dryRun: false,
      entriesBefore: 4,
      entriesAfter: 5,
      removedKeys: [],
      addedKeys: ["atlas_project"],
      changedKeys: ["city"],
    });
    expect(report.sources).toHaveLength(1);
    expect(report.tracedTo.city).toEqual([
      expect.stringMatching(/^memory\/\d{4}-\d{2}-\d{2}\.md:\d+$/),
    ]);
    expect(report.diff).toContain("--- a/MEMORY.md\n+++ b/MEMORY.md\n@@ ");
    expect(report.diff).toContain("\n-- **city**: The user lives in Paris <!-- memory ");
    expect(report.diff).toContain("\n+- **city**: The user moved to Lyon last week <!-- memory ");
    expect(report.diff).toMatch(/\n\+- \*\*atlas_project\*\*: The user started the Atlas project/);
    // The previous version is kept, byte for byte.
    expect(report.backup).toMatch(/^\.memory-state\/history\/MEMORY-.*\.md$/);
    expect(readFileSync(join(root, report.backup as string), "utf8")).toBe(before);
    // Ids and metadata of kept entries survive; unchanged lines keep their bytes.
    const after = core();
    for (const key of ["editor", "pet", "diet"])
      expect(lineOf(after, key)).toBe(lineOf(before, key));
    const city = await memory.get("city");
    expect(city).toMatchObject({ id: ids.city.id, createdAt: ids.city.createdAt });
    expect(city?.updatedAt).not.toBe(ids.city.updatedAt);
    expect((await memory.get("pet"))?.importance).toBe(0.9);
    const atlas = await memory.get("atlas_project");
    expect(atlas).toMatchObject({ category: "core" });
    expect(atlas?.id).toMatch(/^[0-9a-f-]{36}$/);
    // The index sees it like any edit; so does a fresh instance.
    const [best] = await memory.recall("Atlas project", { limit: 1 });
    expect(best?.key).toBe("atlas_project");
    const fresh = createMarkdownMemory({ root });
    open.push(fresh);
    expect((await fresh.get("city"))?.content).toBe("The user moved to Lyon last week");
    // The model saw MEMORY.md and the daily log without metadata comments.
    const [prompt] = server.userMessages()[0] ?? [];
    expect(prompt).toContain("- **city**: The user lives in Paris\n");
    expect(prompt).toContain("- **standup**: I moved to Lyon last week");
    expect(prompt).not.toContain("<!-- memory");
  });

  it("refuses to drop more than 25% of the entries, then accepts it with force", async () => {
    const { root, memory, core, before } = await seeded();
    const answer = {
      content:
        "# Long-term memory\n\n- **editor**: The user edits code in Neovim\n- **diet**: The user is vegetarian\n",
    };
    server.reply(answer);
    const error = await consolidateMemoryFile(memory, { chatModel: chatModel() }).catch((e) => e);
    expect(ConsolidationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: "too-many-removals", code: "BACKEND_UNAVAILABLE" });
    expect(error.message).toMatch(/2 of 4 entries \(50%\).*--force/);
    expect(core()).toBe(before);
    expect(existsSync(join(root, HISTORY_DIR))).toBe(false);

    server.reply(answer);
    const report = await consolidateMemoryFile(memory, { chatModel: chatModel(), force: true });
    expect(report).toMatchObject({ written: true, force: true, removedKeys: ["city", "pet"] });
    expect(await memory.get("city")).toBeNull();
    expect(readFileSync(join(root, report.backup as string), "utf8")).toBe(before);
  });

  it("never removes a pinned entry, even forced", async () => {
    const { memory, core } = await seeded();
    await memory.pin("city");
    const before = core();
    for (const force of [false, true]) {
      server.reply({
        content: [lineOf(before, "editor"), lineOf(before, "pet"), lineOf(before, "diet")].join(
          "\n",
        ),
      });
      const error = await consolidateMemoryFile(memory, { chatModel: chatModel(), force }).catch(
        (e) => e,
      );
      expect(error).toMatchObject({ reason: "pinned-removed", problems: ["removed: city"] });
      expect(core()).toBe(before);
    }
  });

  it("allows removing exactly 25% without force", async () => {
    const { memory, before } = await seeded();
    server.reply({
      content: [lineOf(before, "editor"), lineOf(before, "city"), lineOf(before, "pet")].join("\n"),
    });
    const report = await consolidateMemoryFile(memory, { chatModel: chatModel() });
    expect(report.removedKeys).toEqual(["diet"]);
    expect(report.written).toBe(true);
  });

  it("refuses an added line that traces to no source file", async () => {
    const { root, memory, core, before } = await seeded();
    server.reply({
      content: `${before}- **boat**: The user owns a sailing boat\n`,
    });
    const error = await consolidateMemoryFile(memory, { chatModel: chatModel() }).catch((e) => e);
    expect(error).toMatchObject({ reason: "untraceable" });
    expect(error.problems[0]).toMatch(/entry "boat".*"sail", "boat"|entry "boat".*"boat"/);
    // A changed fact counts too: Lyon is in the log, Berlin is not.
    server.reply({
      content: before.replace("The user lives in Paris", "The user moved to Berlin last week"),
    });
    const changed = await consolidateMemoryFile(memory, { chatModel: chatModel() }).catch((e) => e);
    expect(changed).toMatchObject({ reason: "untraceable" });
    expect(changed.problems[0]).toContain('"berlin"');
    // And free text the model adds.
    server.reply({ content: `${before}\nThe user plans a trip to Japan.\n` });
    const free = await consolidateMemoryFile(memory, { chatModel: chatModel() }).catch((e) => e);
    expect(free).toMatchObject({ reason: "untraceable" });
    expect(core()).toBe(before);
    expect(existsSync(join(root, HISTORY_DIR))).toBe(false);
  });

  it("refuses empty and garbage answers, changing nothing", async () => {
    const { root, memory, core, before } = await seeded();
    for (const content of ["", "```\n```", "I'm sorry, I can't help with that.", "- **broken"]) {
      server.reply({ content });
      const error = await consolidateMemoryFile(memory, { chatModel: chatModel() }).catch((e) => e);
      expect(ConsolidationError.isInstance(error), content).toBe(true);
      expect(MemoryError.isInstance(error)).toBe(true);
      expect(["empty-answer", "unparseable", "model-failed"]).toContain(error.reason);
      if (content !== "")
        expect(error.reason).toBe(content.startsWith("```") ? "empty-answer" : "unparseable");
    }
    server.reply({ status: 500 });
    const failed = await consolidateMemoryFile(memory, { chatModel: chatModel() }).catch((e) => e);
    expect(failed).toMatchObject({ reason: "model-failed" });
    expect(core()).toBe(before);
    expect(existsSync(join(root, HISTORY_DIR))).toBe(false);
  });

  it("fails with CONFLICT when MEMORY.md is edited while the model answers, losing nothing", async () => {
    const { root, memory, core, before } = await seeded();
    const slow = gate();
    server.reply({
      content: `${before}- **atlas_project**: Started the Atlas project with Dana\n`,
      release: slow.release,
    });
    const running = consolidateMemoryFile(memory, { chatModel: chatModel() }).catch((e) => e);
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    // Another instance (another process, as far as the files know) writes meanwhile.
    const other = createMarkdownMemory({ root, index: false });
    open.push(other);
    await other.store({ key: "tea", content: "The user drinks green tea", category: "core" });
    const edited = core();
    slow.open();
    const error = await running;
    expect(MemoryError.hasCode(error, "CONFLICT")).toBe(true);
    expect(core()).toBe(edited);
    expect(edited).not.toBe(before);
    expect((await memory.get("tea"))?.content).toBe("The user drinks green tea");
    expect(existsSync(join(root, HISTORY_DIR)) ? readdirSync(join(root, HISTORY_DIR)) : []).toEqual(
      [],
    );
  });

  it("fails with CONFLICT on a save that lands between the check and the rename", async () => {
    const root = tempDir("memory-consolidate-");
    let edit = () => {};
    const memory = createMarkdownMemory({ root, index: false, beforeCommit: () => edit() });
    open.push(memory);
    await memory.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
    });
    await memory.store({ key: "kickoff", content: "Started the Atlas project", category: "daily" });
    const before = readFileSync(join(root, "MEMORY.md"), "utf8");
    const saved = `${before}- **tea**: The user drinks green tea\n`;
    edit = () => writeFileSync(join(root, "MEMORY.md"), saved); // an editor ignoring the lock
    server.reply({ content: `${before}- **atlas**: Started the Atlas project\n` });
    const error = await consolidateMemoryFile(memory, { chatModel: chatModel() }).catch((e) => e);
    expect(MemoryError.hasCode(error, "CONFLICT")).toBe(true);
    expect(readFileSync(join(root, "MEMORY.md"), "utf8")).toBe(saved);
    expect(readdirSync(join(root, HISTORY_DIR))).toEqual([]);
  });

  it("changes nothing on a dry run, and still reports the diff", async () => {
    const { root, memory, core, before } = await seeded();
    server.reply({
      content: `${before}- **atlas_project**: Started the Atlas project with Dana\n`,
    });
    const report = await consolidateMemoryFile(memory, { chatModel: chatModel(), dryRun: true });
    expect(report).toMatchObject({
      dryRun: true,
      written: false,
      backup: null,
      addedKeys: ["atlas_project"],
    });
    expect(report.diff).toContain(
      "+- **atlas_project**: Started the Atlas project with Dana <!-- memory ",
    );
    expect(core()).toBe(before);
    expect(existsSync(join(root, HISTORY_DIR))).toBe(false);
    expect(await memory.get("atlas_project")).toBeNull();
  });

  it("asks nothing when there is no daily file in the period", async () => {
    const root = tempDir("memory-consolidate-");
    const memory = createMarkdownMemory({ root, index: false });
    open.push(memory);
    await memory.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
    });
    const report = await consolidateMemoryFile(memory, { chatModel: chatModel(), days: 3 });
    expect(report).toMatchObject({ skipped: "no-daily-files", written: false, sources: [] });
    expect(server.requests).toHaveLength(0);
  });

  it("consolidates another namespace's tree", async () => {
    const root = tempDir("memory-consolidate-");
    const memory = createMarkdownMemory({ root, index: false });
    open.push(memory);
    await memory.store({
      key: "editor",
      content: "Alice edits in Helix",
      category: "core",
      namespace: "alice",
    });
    await memory.store({
      key: "log",
      content: "Alice adopted a dog called Rex",
      category: "daily",
      namespace: "alice",
    });
    server.reply({
      content:
        "# Long-term memory (alice)\n\n- **editor**: Alice edits in Helix\n- **dog**: Alice adopted a dog called Rex\n",
    });
    const report = await consolidateMemoryFile(memory, {
      chatModel: chatModel(),
      namespace: "alice",
    });
    expect(report).toMatchObject({
      path: "namespaces/alice/MEMORY.md",
      addedKeys: ["dog"],
      written: true,
    });
    expect(report.backup).toMatch(/^\.memory-state\/history\/namespaces\/alice\/MEMORY-/);
    expect((await memory.get("dog", { namespace: "alice" }))?.content).toBe(
      "Alice adopted a dog called Rex",
    );
    expect(await memory.get("dog")).toBeNull();
  });
});

describe("the tracing rule", () => {
  const units = [
    traceUnit("memory/2026-11-24.md:3", "standup I moved to Lyon last week"),
    traceUnit(
      "memory/2026-11-24.md:4",
      "kickoff Started the Atlas project with Dana; it ships on 12 March",
    ),
    traceUnit("memory/2026-11-23.md:3", "The user's favourite editor is Neovim"),
    traceUnit("MEMORY.md:5", "用户喜欢喝绿茶"),
  ];
  const traces = (text: string) => traceLine(text, units).traced;

  it.each([
    ["a line copied from a source", "I moved to Lyon last week"],
    ["the same words reordered and framed", "Lyon is where the user moved last week"],
    ["another inflection and punctuation", "The user moves to LYON!"],
    [
      "clauses from two sources, joined by and",
      "The user moved to Lyon and started the Atlas project",
    ],
    ["clauses from two sources, joined by a comma", "Favourite editor: Neovim, ships on 12 March"],
    ["a CJK phrase inside a source", "喜欢喝绿茶"],
    ["a line without content words", "It is what it is."],
  ])("traces %s", (_, text) => expect(traces(text)).toBe(true));

  it.each([
    ["a new place", "The user moved to Berlin last week"],
    ["a changed number", "The Atlas project ships on 13 March"],
    ["an invented fact", "The user owns a sailing boat"],
    ["words of two sources in one clause", "Dana moved to Lyon"],
    ["a CJK phrase no source holds", "用户喜欢喝咖啡"],
  ])("does not trace %s", (_, text) => expect(traces(text)).toBe(false));

  it("names the clause and the missing words", () => {
    expect(traceLine("The user moved to Berlin", units)).toEqual({
      traced: false,
      clause: "The user moved to Berlin",
      missing: ["berlin"],
    });
  });
});

describe("unifiedDiff", () => {
  it("prints hunks with context like diff -u", () => {
    const before = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
    const after = "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\n";
    expect(unifiedDiff(before, after, "MEMORY.md")).toBe(
      [
        "--- a/MEMORY.md",
        "+++ b/MEMORY.md",
        "@@ -1,10 +1,11 @@",
        " a",
        " b",
        " c",
        "-d",
        "+D",
        " e",
        " f",
        " g",
        " h",
        " i",
        " j",
        "+k",
        "",
      ].join("\n"),
    );
    expect(unifiedDiff("x\n", "x\n", "MEMORY.md")).toBe("");
    expect(unifiedDiff("", "x\n", "MEMORY.md")).toBe(
      "--- a/MEMORY.md\n+++ b/MEMORY.md\n@@ -0,0 +1,1 @@\n+x\n",
    );
  });

  it("splits distant changes into hunks", () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const changed = [...lines];
    changed[1] = "two";
    changed[17] = "eighteen";
    const diff = unifiedDiff(`${lines.join("\n")}\n`, `${changed.join("\n")}\n`, "f.md");
    expect(diff.match(/^@@ .* @@$/gm)).toEqual(["@@ -1,5 +1,5 @@", "@@ -15,6 +15,6 @@"]);
  });
});
