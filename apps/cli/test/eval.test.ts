import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POSTGRES_URL, schemaNames } from "./helpers/postgres-schemas.js";
import { BIN, cleanEnv, json, Workspace } from "./helpers/run-memory.js";

const FIXTURES = path.resolve(import.meta.dirname, "fixtures/eval");
const LOCOMO_MINI = path.join(FIXTURES, "locomo-mini.json");
const MEMORIES = path.join(FIXTURES, "memories.jsonl");
const QUESTIONS = path.join(FIXTURES, "questions.jsonl");

interface Scores {
  n: number;
  "recall@1": number | null;
  "recall@5": number | null;
  "hit@1": number | null;
  mrr: number | null;
}
interface EvalDocument {
  format: string;
  backend: string;
  embedder: string | null;
  mode: string;
  limit: number;
  dataset: {
    namespaces: number;
    memories: number;
    questions: number;
    skippedWithoutEvidence: number;
    imported: number;
  };
  metrics: { overall: Scores; all: Scores; by_category: Record<string, Scores> };
  timing: { latency_ms_p50: number };
  questions?: { id: string; keys: string[]; rr: number }[];
}
interface ErrorDocument {
  error: { code: string; message: string; exitCode: number };
}

describe("memory eval", () => {
  let ws: Workspace;
  // Each run's temporary store goes under here, so the tests can see that it is removed.
  let scratch: string;
  const evalRun = (args: string[], env: Record<string, string> = {}) =>
    ws.run(["eval", ...args], { env: { TMPDIR: scratch, ...env } });

  beforeAll(() => {
    ws = new Workspace("", 'embedding_provider = "noop"\nsearch_mode = "bm25"');
    scratch = ws.file("tmp");
    mkdirSync(scratch);
  });
  afterAll(() => ws.remove());

  it("scores a LoCoMo file on a temporary store and never touches the configured one", async () => {
    const result = await evalRun([LOCOMO_MINI, "--json", "--per-question"]);
    expect(result.code, result.stderr).toBe(0);
    const report = json<EvalDocument>(result);
    expect(report).toMatchObject({
      format: "locomo",
      backend: "sqlite",
      embedder: null,
      mode: "bm25",
      limit: 20,
      // 9 + 8 QA items; two have no valid evidence ("D9:9", []) and are skipped, as the kit does.
      dataset: { namespaces: 2, memories: 38, questions: 15, skippedWithoutEvidence: 2 },
    });
    expect(report.dataset.imported).toBe(38);
    expect(Object.keys(report.metrics.by_category)).toEqual(["1", "2", "3", "4", "5"]);
    // Overall leaves out category 5 (adversarial); all keeps it.
    expect(report.metrics.overall.n).toBe(13);
    expect(report.metrics.all.n).toBe(15);
    expect(report.questions).toHaveLength(15);
    // Repaired evidence ("D1:4; D1:6", "D:1:7", "D2:04") is scored, with the kit's keys.
    const pottery = report.questions?.find((question) => question.id === "mini-1/q0");
    expect(pottery?.keys[0]).toBe("mini-1/D1:1");
    expect(pottery?.rr).toBe(1);
    // The configured store (brain.db next to memory.toml) was never created, and the
    // temporary one is gone.
    expect(existsSync(ws.file("brain.db"))).toBe(false);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it("prints a table per category, with overall and all, when not --json", async () => {
    const result = await evalRun([LOCOMO_MINI]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(
      "LoCoMo, 2 conversations: 38 memories, 15 questions (2 without expected keys skipped)",
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^category\s+n\s+R@1\s+R@5\s+R@10\s+R@20\s+hit@1\s+hit@5\s+hit@10\s+hit@20\s+MRR$/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^5 adversarial\s+2\s/));
    expect(lines).toContainEqual(expect.stringMatching(/^overall \(without 5\)\s+13\s/));
    expect(lines).toContainEqual(expect.stringMatching(/^all\s+15\s/));
    expect(result.stdout).toMatch(/recall p50 [\d.]+ ms/);
    // No progress bar when stderr is not a terminal.
    expect(result.stderr).not.toContain("eval: import");
  });

  it("runs only the conversations named by --conversations", async () => {
    const report = json<EvalDocument>(
      await evalRun([LOCOMO_MINI, "--conversations", "mini-2", "--json"]),
    );
    expect(report.dataset).toMatchObject({ namespaces: 1, memories: 18, questions: 7 });
  });

  it("scores the generic format: each question in its namespace, overall = every question", async () => {
    const result = await evalRun(["--memories", MEMORIES, "--questions", QUESTIONS, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = json<EvalDocument>(result);
    expect(report).toMatchObject({
      format: "generic",
      dataset: { namespaces: 2, memories: 9, questions: 7, skippedWithoutEvidence: 0 },
    });
    expect(Object.keys(report.metrics.by_category)).toEqual([
      "facts",
      "preferences",
      "uncategorized",
      "work",
    ]);
    expect(report.metrics.overall).toEqual(report.metrics.all);
    expect(report.metrics.overall.n).toBe(7);
    // "When do we ship to production?" shares no word with "Deploys happen on Friday...".
    expect(report.metrics.by_category.work).toMatchObject({ n: 1, mrr: 0 });
    expect(report.metrics.by_category.preferences).toMatchObject({ n: 2, "recall@1": 1 });
  });

  it("--limit cuts the results each question is scored on", async () => {
    const report = json<EvalDocument>(
      await evalRun([LOCOMO_MINI, "--limit", "1", "--json", "--per-question"]),
    );
    expect(report.limit).toBe(1);
    expect(report.questions?.every((question) => question.keys.length <= 1)).toBe(true);
    expect(report.metrics.all["recall@5"]).toBe(report.metrics.all["recall@1"]);
  });

  describe("bad input is a typed error that says what to do", () => {
    const fail = async (args: string[], env: Record<string, string> = {}) => {
      const result = await evalRun([...args, "--json"], env);
      return { code: result.code, error: json<ErrorDocument>(result).error, stderr: result.stderr };
    };

    it("a missing file: exit 3", async () => {
      const { code, error } = await fail([ws.file("nope.json")]);
      expect(code).toBe(3);
      expect(error.message).toContain("nope.json does not exist");
      expect(error.message).toContain("--memories");
    });

    it("an empty file: exit 2", async () => {
      writeFileSync(ws.file("empty.json"), "\n");
      const { code, error } = await fail([ws.file("empty.json")]);
      expect(code).toBe(2);
      expect(error.message).toMatch(/empty\.json is empty; expected .*LoCoMo/);
    });

    it("a file that is neither format: exit 2", async () => {
      writeFileSync(ws.file("other.json"), '{"hello":"world"}');
      const { code, error } = await fail([ws.file("other.json")]);
      expect(code).toBe(2);
      expect(error.message).toContain("is neither format");
    });

    it("a JSONL file given as the LoCoMo file: points at --memories/--questions", async () => {
      const { code, error } = await fail([MEMORIES]);
      expect(code).toBe(2);
      expect(error.message).toContain("is JSON lines, not a LoCoMo file");
      expect(error.message).toContain("--memories");
    });

    it("a question expecting a key that no memory has: exit 2, with the line", async () => {
      writeFileSync(
        ws.file("bad-questions.jsonl"),
        '{"question":"Which editor?","expected":["editor"],"namespace":"alice"}\n{"question":"Where?","expected":["town"],"namespace":"bob"}\n',
      );
      const { code, error } = await fail([
        "--memories",
        MEMORIES,
        "--questions",
        ws.file("bad-questions.jsonl"),
      ]);
      expect(code).toBe(2);
      expect(error.message).toMatch(
        /bad-questions\.jsonl line 2: expected key "town" is not a memory of namespace "bob"/,
      );
    });

    it("a memory line without content, and a duplicate key: exit 2, with the line", async () => {
      writeFileSync(ws.file("m1.jsonl"), '{"key":"a","content":"x"}\n{"key":"b"}\n');
      const missing = await fail(["--memories", ws.file("m1.jsonl"), "--questions", QUESTIONS]);
      expect(missing.code).toBe(2);
      expect(missing.error.message).toContain('m1.jsonl line 2: "content" is missing');
      writeFileSync(ws.file("m2.jsonl"), '{"key":"a","content":"x"}\n{"key":"a","content":"y"}\n');
      const duplicate = await fail(["--memories", ws.file("m2.jsonl"), "--questions", QUESTIONS]);
      expect(duplicate.error.message).toContain(
        'key "a" of namespace "default" is already on line 1',
      );
    });

    it("no input, both inputs, or half of the generic format: usage errors", async () => {
      expect((await fail([])).code).toBe(2);
      expect((await fail([LOCOMO_MINI, "--memories", MEMORIES])).error.message).toContain(
        "not both",
      );
      expect((await fail(["--memories", MEMORIES])).error.message).toContain("needs both files");
      expect((await fail([LOCOMO_MINI, "--conversations", "conv-99"])).error.message).toContain(
        "conv-99 is not in",
      );
    });

    it.each(["lucid", "markdown", "none"])(
      "a backend it cannot isolate (%s): refused, naming the supported ones",
      async (backend) => {
        const { code, error } = await fail([LOCOMO_MINI], { MEMORY_BACKEND: backend });
        expect(code).toBe(1);
        expect(error.code).toBe("CONFIG");
        expect(error.message).toContain("supports only sqlite and postgres");
        expect(error.message).toContain(`backend = "${backend}"`);
      },
    );
  });

  it("stops on SIGINT, deletes its temporary store and exits 130", async () => {
    // Big enough that the import is still running when the signal comes.
    const lines: string[] = [];
    for (let index = 0; index < 60_000; index++) {
      lines.push(
        JSON.stringify({
          key: `k${index}`,
          content: `memory number ${index} about topic ${index % 97}`,
        }),
      );
    }
    writeFileSync(ws.file("big.jsonl"), `${lines.join("\n")}\n`);
    writeFileSync(ws.file("big-questions.jsonl"), '{"question":"topic 5","expected":["k5"]}\n');
    const child = spawn(
      process.execPath,
      [BIN, "eval", "--memories", "big.jsonl", "--questions", "big-questions.jsonl"],
      {
        cwd: ws.dir,
        env: cleanEnv(ws.dir, { TMPDIR: scratch }),
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    await new Promise<void>((resolve) => {
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
        if (stderr.includes("memory eval: temporary")) resolve();
      });
      child.on("close", () => resolve());
    });
    child.kill("SIGINT");
    const code = await exited;
    expect(stderr).toContain("SIGINT");
    expect(code, stderr).toBe(130);
    expect(stderr).toContain("interrupted");
    expect(readdirSync(scratch)).toEqual([]);
  }, 180_000);
});

const evalSchemas = () => schemaNames("memory\\_eval\\_%");
const schemaExists = async (name: string) => (await schemaNames(name)).length > 0;

describe("memory eval on PostgreSQL", () => {
  it("runs in a schema of its own, never the configured one, and drops it", async () => {
    const before = await evalSchemas();
    // The configured schema: memory eval must neither create nor touch it.
    const userSchema = `eval_user_${Date.now()}`;
    const ws = new Workspace("", 'embedding_provider = "noop"\nsearch_mode = "bm25"');
    try {
      ws.writeConfig(
        "pg.toml",
        `[memory]\nbackend = "postgres"\nembedding_provider = "noop"\nsearch_mode = "bm25"\n\n[postgres]\nurl = "${POSTGRES_URL}"\nschema = "${userSchema}"\n`,
      );
      const postgres = await ws.run(["--config", "pg.toml", "eval", LOCOMO_MINI, "--json"]);
      expect(postgres.code, postgres.stderr).toBe(0);
      const sqlite = await ws.run(["eval", LOCOMO_MINI, "--json"]);
      const pgReport = json<EvalDocument>(postgres);
      expect(pgReport.backend).toBe("postgres");
      // The keyword stage is each database's own full-text search, so the ranks may differ
      // from SQLite's; the same questions are scored.
      expect(pgReport.dataset).toEqual(json<EvalDocument>(sqlite).dataset);
      expect(pgReport.metrics.all.n).toBe(15);
      expect(await evalSchemas()).toEqual(before);
      expect(await schemaExists(userSchema)).toBe(false);
    } finally {
      ws.remove();
    }
  }, 180_000);
});
