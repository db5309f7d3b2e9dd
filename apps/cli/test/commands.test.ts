import { readFileSync } from "node:fs";
import { defaultConfig } from "@memory/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, runMemory, Workspace } from "./helpers/run-memory.js";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

interface Entry {
  id: string;
  key: string;
  content: string;
  category: string;
  namespace: string;
  sessionId?: string;
  importance?: number;
  createdAt: string;
  updatedAt: string;
  score?: number;
  explain?: Record<string, unknown>;
}

describe("memory --version and usage", () => {
  it("prints the version injected from package.json", async () => {
    const plain = await runMemory(["--version"]);
    expect(plain).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    expect(json(await runMemory(["--version", "--json"]))).toEqual({ version: pkg.version });
  });

  it("exits 2 with one line for usage errors", async () => {
    const unknown = await runMemory(["list", "--bogus"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
    expect(unknown.stderr).toContain("unknown option '--bogus'");

    const missing = await runMemory(["get"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'key'");

    const badNumber = await runMemory(["store", "x", "--importance", "7"]);
    expect(badNumber.code).toBe(2);
    expect(badNumber.stderr).toContain("from 0 to 1");

    expect((await runMemory([])).code).toBe(2);
    expect((await runMemory(["--help"])).code).toBe(0);
  });

  it("reports usage errors as JSON with --json", async () => {
    const result = await runMemory(["list", "--bogus", "--json"]);
    expect(result.code).toBe(2);
    expect(json(result)).toEqual({
      error: { code: "USAGE", message: expect.stringContaining("--bogus"), exitCode: 2 },
    });
  });
});

describe("memory commands on a SQLite store", () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = new Workspace();
  });
  afterAll(() => ws.remove());

  it("stores from an argument and returns the entry as JSON", async () => {
    const result = await ws.run([
      "store",
      "The user prefers TypeScript",
      "--key",
      "lang",
      "--importance",
      "0.9",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const entry = json<Entry>(result);
    expect(entry).toMatchObject({
      key: "lang",
      content: "The user prefers TypeScript",
      category: "core",
      namespace: "default",
      importance: 0.9,
    });
    expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(entry.createdAt).toMatch(/Z$/);
  });

  it("stores content read from stdin, without the trailing newline", async () => {
    const result = await ws.run(
      ["store", "--key", "deploys", "--category", "daily", "--session", "s1", "--json"],
      {
        input: "Deploys happen on Fridays\nafter the standup\n",
      },
    );
    expect(result.code).toBe(0);
    expect(json<Entry>(result)).toMatchObject({
      key: "deploys",
      content: "Deploys happen on Fridays\nafter the standup",
      category: "daily",
      sessionId: "s1",
    });
  });

  it("derives a key from the content, so storing twice makes one entry", async () => {
    const first = json<Entry>(
      await ws.run(["store", "Coffee", "black", "--namespace", "prefs", "--json"]),
    );
    const second = json<Entry>(
      await ws.run(["store", "Coffee black", "--namespace", "prefs", "--json"]),
    );
    expect(first.key).toMatch(/^mem-[0-9a-f]{16}$/);
    expect(second.key).toBe(first.key);
    expect(second.id).toBe(first.id);
    expect(json(await ws.run(["count", "--namespace", "prefs", "--json"]))).toEqual({
      count: 1,
      namespace: "prefs",
    });
  });

  it("rejects empty stdin content with exit code 2", async () => {
    const result = await ws.run(["store", "--key", "empty"], { input: "" });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: content is empty/m);
  });

  it("gets an entry, and exits 3 for a missing key", async () => {
    const found = await ws.run(["get", "lang"]);
    expect(found.code).toBe(0);
    expect(found.stdout).toContain("The user prefers TypeScript");
    expect(json<Entry>(await ws.run(["get", "lang", "--json"])).key).toBe("lang");

    const missing = await ws.run(["get", "nope"]);
    expect(missing.code).toBe(3);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toContain("memory list");
    expect(json(await ws.run(["get", "nope", "--json"]))).toMatchObject({
      error: { code: "NOT_FOUND", exitCode: 3 },
    });
  });

  it("lists entries as a table and as JSON with the total", async () => {
    const table = await ws.run(["list"]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^KEY\s+CATEGORY\s+UPDATED\s+CONTENT$/);
    expect(table.stdout).toContain("Deploys happen on Fridays after the standup");
    // No ANSI escapes: stdout is a pipe.
    expect(table.stdout).not.toContain("\u001b[");

    const page = json<{ entries: Entry[]; total: number; limit: number; offset: number }>(
      await ws.run(["list", "--limit", "1", "--json"]),
    );
    expect(page.total).toBe(2);
    expect(page.entries).toHaveLength(1);
    expect(page.entries[0]!.key).toBe("deploys");

    const daily = json<{ entries: Entry[] }>(
      await ws.run(["list", "--category", "daily", "--json"]),
    );
    expect(daily.entries.map((entry) => entry.key)).toEqual(["deploys"]);
  });

  it("lists daily entries' long keys without cutting the content to a stub", async () => {
    const daily = new Workspace();
    try {
      const key = "daily_2026-11-27T07:50:00.000Z_4d3c2b1a-9e8f-4a6b-8c7d-0123456789ab";
      const content =
        "User: which editor do I use for the backend services? Assistant: Neovim, with the LSP set up";
      expect((await daily.run(["store", content, "--key", key, "--category", "daily"])).code).toBe(
        0,
      );
      expect((await daily.run(["store", "Deploys on Fridays", "--key", "deploys"])).code).toBe(0);
      const table = await daily.run(["list"]);
      expect(table.code).toBe(0);
      const lines = table.stdout.trimEnd().split("\n");
      // Piped, the table is 100 columns wide; every key stays whole.
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(100);
      expect(table.stdout).toContain(key);
      // At least 80 characters of the content are shown (it was cut to about 20).
      expect(table.stdout).toContain(content.slice(0, 80));
      expect(table.stdout).toContain("Deploys on Fridays");
    } finally {
      daily.remove();
    }
  });

  it("recalls with scores and explains them", async () => {
    const result = await ws.run(["recall", "typescript", "--json"]);
    expect(result.code).toBe(0);
    const body = json<{ query: string; count: number; results: Entry[] }>(result);
    expect(body.query).toBe("typescript");
    expect(body.results[0]).toMatchObject({
      key: "lang",
      explain: { keywordRank: 0, source: "keyword" },
    });
    expect(typeof body.results[0]!.score).toBe("number");
    expect(body.results[0]!.explain!.degraded).toEqual(expect.any(String));

    const explained = await ws.run(["recall", "typescript", "--explain"]);
    expect(explained.stdout).toMatch(/1\. lang/);
    expect(explained.stdout).toMatch(
      /keyword #1 \(bm25 [^,]+, relevance [^)]+\) · vector - · relevance \S+ · decay 1\.000/,
    );
    // Keyword-only recall says why, on stderr.
    expect(explained.stderr).toContain("keyword-only");

    const none = json<{ count: number }>(await ws.run(["recall", "zebra", "--json"]));
    expect(none.count).toBe(0);
  });

  it("rejects an invalid time filter with exit code 2", async () => {
    const result = await ws.run(["recall", "x", "--since", "yesterday-ish"]);
    expect(result.code).toBe(2);
  });

  it("counts with filters", async () => {
    expect(json(await ws.run(["count", "--json"]))).toEqual({ count: 2, namespace: "default" });
    expect((await ws.run(["count", "--session", "s1"])).stdout).toBe("1\n");
    expect((await ws.run(["count", "--since", "1h"])).stdout).toBe("2\n");
    expect((await ws.run(["count", "--until", "1h"])).stdout).toBe("0\n");
  });

  it("forgets an entry, then exits 3 for it", async () => {
    await ws.run(["store", "temporary", "--key", "tmp"]);
    expect(json(await ws.run(["forget", "tmp", "--json"]))).toEqual({
      key: "tmp",
      namespace: "default",
      forgotten: true,
    });
    expect((await ws.run(["forget", "tmp"])).code).toBe(3);
  });

  it("purges only with confirmation and says how many were removed", async () => {
    for (const key of ["a", "b", "c"])
      await ws.run(["store", `scratch ${key}`, "--key", key, "--namespace", "scratch"]);
    const refused = await ws.run(["purge", "--namespace", "scratch"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--yes");
    expect(json(await ws.run(["count", "--namespace", "scratch", "--json"]))).toMatchObject({
      count: 3,
    });

    expect((await ws.run(["purge"])).code).toBe(2);
    const purged = await ws.run(["purge", "--namespace", "scratch", "--yes"]);
    expect(purged).toMatchObject({ code: 0, stdout: "removed 3 entries of namespace scratch\n" });
    expect(json(await ws.run(["purge", "--session", "s1", "--yes", "--json"]))).toEqual({
      removed: 1,
      sessionId: "s1",
    });
    expect(json(await ws.run(["count", "--json"]))).toMatchObject({ count: 1 });
  });

  it("prints the cause chain only with --verbose", async () => {
    const quiet = await ws.run(["--config", "missing.toml", "list"]);
    expect(quiet.code).toBe(1);
    expect(quiet.stderr.trim().split("\n")).toHaveLength(1);
    expect(quiet.stderr).toContain("memory init");
    const verbose = await ws.run(["--config", "missing.toml", "list", "--verbose"]);
    expect(verbose.stderr).toContain("caused by: Error [ENOENT]");
  });
});

describe("memory init and config", () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = new Workspace();
  });
  afterAll(() => ws.remove());

  it("init writes the embedded default and refuses to overwrite it", async () => {
    const dir = new Workspace();
    try {
      const result = await dir.run(["init", "--force", "--json"]);
      expect(result.code).toBe(0);
      const text = readFileSync(dir.file("memory.toml"), "utf8");
      expect(text).toContain('backend = "sqlite"');
      expect(text).toContain('data_dir = "./.memory"');
      expect(text).toContain('embedding_provider = "local"');
      expect(text).toContain("defer_embedding = true");
      expect(json(result)).toMatchObject({
        backend: "sqlite",
        embeddingProvider: "local",
        dataDir: dir.file(".memory"),
      });

      const again = await dir.run(["init"]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain("--force");

      // The default stores under ./.memory; noop keeps this test free of the model.
      const stored = await dir.run(["store", "hello", "--key", "k"], {
        env: { MEMORY_EMBEDDING_PROVIDER: "noop" },
      });
      expect(stored.code).toBe(0);
      expect(json(await dir.run(["config", "show", "--json"]))).toMatchObject({
        memory: { data_dir: { value: dir.file(".memory"), source: "file" } },
      });
      const doctor = json<{ checks: { name: string; message: string }[] }>(
        await dir.run(["doctor", "--json"], { env: { MEMORY_EMBEDDING_PROVIDER: "noop" } }),
      );
      expect(doctor.checks.find((check) => check.name === "size")?.message).toContain(
        dir.file(".memory/memory/brain.db"),
      );
    } finally {
      dir.remove();
    }
  });

  it("init writes the documented defaults: every key it does not choose equals an empty file's", async () => {
    const dir = new Workspace();
    try {
      expect((await dir.run(["init", "--force"])).code).toBe(0);
      const shown = json<{ memory: Record<string, { value: unknown; source: string }> }>(
        await dir.run(["config", "show", "--json"]),
      );
      const defaults = defaultConfig().memory as Record<string, unknown>;
      // What init chooses on purpose (README, `memory init`); data_dir is shown resolved.
      const chosen = new Set(["embedding_provider", "defer_embedding", "data_dir"]);
      const written = Object.entries(shown.memory).filter(([, item]) => item.source === "file");
      expect(written.map(([key]) => key)).toEqual(
        expect.arrayContaining(["search_mode", "merge_strategy"]),
      );
      // Every key init writes but does not choose on purpose equals the default, compared as one object.
      const unchosen = written.filter(([key]) => !chosen.has(key));
      expect(Object.fromEntries(unchosen.map(([key, { value }]) => [key, value]))).toEqual(
        Object.fromEntries(unchosen.map(([key]) => [key, defaults[key]])),
      );
      expect(shown.memory.merge_strategy!.value).toBe("weighted");
    } finally {
      dir.remove();
    }
  });

  it("config show gives each value with its source and masks secrets", async () => {
    ws.writeConfig(
      "secret.toml",
      '[memory]\nembedding_provider = "noop"\nsearch_mode = "bm25"\n\n[postgres]\nurl = "postgresql://app:hunter2@db:5432/memory"\n\n[[server.tokens]]\ntoken = "s3cr3t"\nnamespaces = ["*"]\n',
    );
    const result = await ws.run(["--config", "secret.toml", "config", "show", "--json"], {
      env: { MEMORY_MERGE_STRATEGY: "weighted" },
    });
    expect(result.code).toBe(0);
    const body = json<{
      file: string;
      memory: Record<string, { value: unknown; source: string }>;
      tables: Record<string, Record<string, unknown>>;
      warnings: string[];
    }>(result);
    expect(body.file).toBe(ws.file("secret.toml"));
    expect(body.warnings).toEqual([]);
    expect(body.memory.search_mode).toEqual({ value: "bm25", source: "file" });
    expect(body.memory.merge_strategy).toEqual({
      value: "weighted",
      source: "env MEMORY_MERGE_STRATEGY",
    });
    expect(body.memory.rrf_k).toEqual({ value: 60, source: "default" });
    expect(body.tables.postgres!.url).toBe("postgresql://app:********@db:5432/memory");
    expect(body.tables.server!.tokens).toEqual([{ token: "********", namespaces: ["*"] }]);
    expect(result.stdout).not.toContain("hunter2");
    expect(result.stdout).not.toContain("s3cr3t");

    const human = await ws.run(["--config", "secret.toml", "config", "show"]);
    expect(human.stdout).toMatch(/search_mode = "bm25"\s+# file/);
    expect(human.stdout).not.toContain("hunter2");
  });

  it("finds the user config directory when there is no ./memory.toml", async () => {
    const dir = new Workspace();
    try {
      dir.writeConfig("memory.toml", "");
      const { mkdirSync, renameSync } = await import("node:fs");
      mkdirSync(dir.file("xdg/memory"), { recursive: true });
      renameSync(dir.file("memory.toml"), dir.file("xdg/memory/memory.toml"));
      dir.writeConfig(
        "xdg/memory/memory.toml",
        '[memory]\nembedding_provider = "noop"\nsearch_mode = "bm25"\n',
      );
      const body = json<{ file: string; origin: string }>(
        await dir.run(["config", "show", "--json"]),
      );
      expect(body).toMatchObject({ file: dir.file("xdg/memory/memory.toml"), origin: "user" });
    } finally {
      dir.remove();
    }
  });

  it("config validate accepts a good file and names the bad key of a bad one", async () => {
    const good = await ws.run(["config", "validate", "--json"]);
    expect(good.code).toBe(0);
    expect(json(good)).toMatchObject({
      valid: true,
      file: ws.file("memory.toml"),
      backend: "sqlite",
    });

    ws.writeConfig("bad.toml", '[memory]\nsearch_mod = "bm25"\nmerge_strategy = "avg"\n');
    const bad = await ws.run(["config", "validate", "bad.toml", "--json"]);
    expect(bad.code).toBe(1);
    const body = json<{ error: { message: string; details: { problems: string[] } } }>(bad);
    expect(body.error.details.problems.join(" ")).toContain("[memory].search_mod");
    expect(body.error.details.problems.join(" ")).toContain("[memory].merge_strategy");

    ws.writeConfig("broken.toml", "[memory\n");
    const broken = await ws.run(["config", "validate", "broken.toml"]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("not valid TOML");
  });

  // Before: `[sqlite] pth = ...` opened the default database without a word, and a key the
  // backend ignores (markdown and defer_embedding) looked as if it worked.
  it("config validate names an unknown key of any table with its line and the closest key", async () => {
    ws.writeConfig("typo.toml", '[memory]\nbackend = "sqlite"\n\n[sqlite]\npth = "x.db"\n');
    const typo = await ws.run(["config", "validate", "typo.toml", "--json"]);
    expect(typo.code).toBe(1);
    const body = json<{ error: { details: { problems: string[] } } }>(typo);
    expect(body.error.details.problems).toEqual([
      `unknown key [sqlite].pth (${ws.file("typo.toml")}:5): did you mean [sqlite].path?`,
    ]);
    const opened = await ws.run(["--config", "typo.toml", "count"]);
    expect(opened.code).not.toBe(0);
    expect(opened.stderr).toContain("did you mean [sqlite].path?");
  });

  it("config show, config validate and opening the store warn about a key the backend ignores", async () => {
    const dir = new Workspace();
    try {
      dir.writeConfig(
        "memory.toml",
        '[memory]\nbackend = "markdown"\nembedding_provider = "noop"\ndefer_embedding = true\n',
      );
      const warning = /\[memory\]\.defer_embedding = true has no effect with backend = "markdown"/;
      const shown = json<{ warnings: string[] }>(await dir.run(["config", "show", "--json"]));
      expect(shown.warnings).toEqual([expect.stringMatching(warning)]);
      const validated = await dir.run(["config", "validate", "--json"]);
      expect(validated.code).toBe(0);
      expect(json<{ warnings: string[] }>(validated).warnings).toEqual([
        expect.stringMatching(warning),
      ]);
      const human = await dir.run(["config", "validate"]);
      expect(human.stdout).toMatch(warning);
      const stored = await dir.run(["store", "hello", "--key", "k"]);
      expect(stored.code).toBe(0);
      expect(stored.stderr).toMatch(warning);
      dir.writeConfig(
        "memory.toml",
        '[memory]\nbackend = "markdown"\nembedding_provider = "noop"\n',
      );
      const quiet = await dir.run(["store", "hello again", "--key", "k2"]);
      expect(quiet.stderr).not.toMatch(/has no effect/);
    } finally {
      dir.remove();
    }
  });

  it("reindex and backfill explain that they need an embedding provider", async () => {
    for (const command of ["reindex", "backfill"]) {
      const result = await ws.run([command]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("embedding_provider");
    }
  });

  it("serve rejects a bad port as a usage error", async () => {
    const result = await ws.run(["serve", "--port", "notaport"]);
    expect(result.code).toBe(2);
  });
});
