import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregateMetrics, scoreQuestion } from "../src/eval/eval-scorer.js";
import { REPO, run } from "./helpers/markdown-snippets.js";
import { cleanEnv, json, Workspace } from "./helpers/run-memory.js";

// `memory eval` must print the LoCoMo kit's numbers for the same configuration: the kit runs the
// project's adapter (packages/sqlite/bench/locomo-adapter.mjs) on the fixture, `memory eval`
// runs on the same fixture with a memory.toml of the same backend, embedder and mode, and every
// metric must be identical (not close: the same floating-point numbers).

// Where the kit is (read-only; the tests work on a copy): LOCOMO_KIT when set, else the
// repository's sibling ../shared/eval/locomo, else /work/shared/eval/locomo (where CI on the
// project's machines finds it from a clean clone). A missing kit FAILS these tests: nothing here
// is skipped, so a green run always means the numbers were compared.
const KIT_CANDIDATES = process.env.LOCOMO_KIT
  ? [path.resolve(process.env.LOCOMO_KIT)]
  : [path.resolve(REPO, "../shared/eval/locomo"), "/work/shared/eval/locomo"];
const KIT = KIT_CANDIDATES.find((dir) => existsSync(path.join(dir, "locomo.mjs")));
const FIXTURE = path.resolve(import.meta.dirname, "fixtures/eval/locomo-mini.json");
const ADAPTER = path.join(REPO, "packages/sqlite/bench/locomo-adapter.mjs");

interface KitSystem {
  status: string;
  reason?: string;
  metrics: unknown;
}
interface KitQuery {
  qid: string;
  keys: string[];
  [score: string]: unknown;
}
interface EvalDocument {
  embedder: string | null;
  metrics: unknown;
  questions: ({ id: string; keys: string[] } & Record<string, unknown>)[];
}

const title = (what: string) => `reproduces the kit's numbers exactly: ${what}`;

function makeWritable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) makeWritable(file);
    else chmodSync(file, 0o644);
  }
}

describe("memory eval against the LoCoMo kit", () => {
  let kit: string;
  let ws: Workspace;
  beforeAll(() => {
    ws = new Workspace();
    if (!KIT) {
      throw new Error(
        `The LoCoMo kit (locomo.mjs) is missing from ${KIT_CANDIDATES.join(" and ")}: set LOCOMO_KIT to its folder.`,
      );
    }
    // The kit is read-only and shared: work on a copy. `--systems none` runs only the external
    // adapter, so the copy needs none of the kit's npm dependencies.
    kit = mkdtempSync(path.join(tmpdir(), "memory-eval-kit-"));
    cpSync(KIT, kit, {
      recursive: true,
      filter: (source) => !source.includes(`${path.sep}node_modules`),
    });
    makeWritable(kit);
  });
  afterAll(() => {
    ws.remove();
    if (kit) rmSync(kit, { recursive: true, force: true });
  });

  // The adapter reads LOCOMO_* settings (options, caches): none may leak in from the shell.
  function kitEnv(): NodeJS.ProcessEnv {
    const env = cleanEnv(ws.dir);
    for (const name of Object.keys(env)) if (name.startsWith("LOCOMO_")) delete env[name];
    return env;
  }

  async function runKit(adapterEnv: string): Promise<{ system: KitSystem; perQuery: KitQuery[] }> {
    const out = path.join(ws.dir, `kit-${adapterEnv.replace(/\W+/g, "_")}`);
    const result = await run(
      process.execPath,
      [
        path.join(kit, "locomo.mjs"),
        "--data",
        FIXTURE,
        "--systems",
        "none",
        "--ext",
        `eval=${adapterEnv} '${process.execPath}' '${ADAPTER}'`,
        "--out",
        out,
      ],
      { cwd: kit, env: kitEnv() },
    );
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(out, "summary.json"), "utf8")) as {
      systems: KitSystem[];
    };
    const system = summary.systems[0]!;
    expect(system.status, system.reason).toBe("ok");
    const perQuery = readFileSync(path.join(out, "per-query", "eval.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as KitQuery);
    return { system, perQuery };
  }

  async function runEval(toml: string): Promise<EvalDocument> {
    const config = ws.writeConfig(`eval-${toml.length}.toml`, `[memory]\n${toml}\n`);
    const result = await ws.run(["--config", config, "eval", FIXTURE, "--json", "--per-question"]);
    expect(result.code, result.stderr).toBe(0);
    return json<EvalDocument>(result);
  }

  function expectIdentical(
    kitRun: { system: KitSystem; perQuery: KitQuery[] },
    ours: EvalDocument,
  ) {
    expect(ours.metrics).toEqual(kitRun.system.metrics);
    // Question by question: the same ranked keys and the same scores.
    expect(ours.questions.map((question) => question.id)).toEqual(
      kitRun.perQuery.map((query) => query.qid),
    );
    kitRun.perQuery.forEach((query, index) => {
      const question = ours.questions[index]!;
      expect(question.keys, query.qid).toEqual(query.keys);
      for (const name of ["returned", "rr", "recall@1", "recall@5", "recall@10", "recall@20"]) {
        expect(question[name], `${query.qid} ${name}`).toBe(query[name]);
      }
    });
  }

  it(title("bm25 with the noop embedder"), async () => {
    const kitRun = await runKit("LOCOMO_MODE=bm25 LOCOMO_EMBEDDER=noop");
    const ours = await runEval('embedding_provider = "noop"\nsearch_mode = "bm25"');
    expect(ours.embedder).toBeNull();
    expectIdentical(kitRun, ours);
  }, 300_000);

  it(title("hybrid with the local embedder"), async () => {
    const ours = await runEval('embedding_provider = "local"\nsearch_mode = "hybrid"');
    // The offline model ships with @memory/embeddings: unavailable is a failure, not a skip.
    expect(ours.embedder).toMatch(/^local:/);
    const kitRun = await runKit("LOCOMO_MODE=hybrid LOCOMO_EMBEDDER=local");
    expectIdentical(kitRun, ours);
  }, 300_000);

  it(title("the scorer on random rankings (scoreQuery, aggregateAll)"), async () => {
    const kitModule = (await import(pathToFileURL(path.join(kit, "locomo.mjs")).href)) as {
      scoreQuery(evidence: string[], keys: string[], topK: number): Record<string, number>;
      aggregateAll(rows: unknown[]): unknown;
    };
    // A fixed pseudo-random sequence: the same cases every run.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const kitRows: unknown[] = [];
    const ourRows: (ReturnType<typeof scoreQuestion> & { category: number })[] = [];
    for (let index = 0; index < 400; index++) {
      const evidence = Array.from({ length: 1 + next(4) }, () => `k${next(30)}`);
      // Duplicates, fewer than k results and empty lists all occur.
      const keys = Array.from({ length: next(30) }, () => `k${next(30)}`);
      const topK = [1, 5, 10, 20, 25][next(5)]!;
      const category = 1 + next(5);
      const kitScores = kitModule.scoreQuery(evidence, keys, topK);
      const ours = scoreQuestion(evidence, keys, topK);
      expect(ours).toEqual(kitScores);
      kitRows.push({ category, ...kitScores });
      ourRows.push({ category, ...ours });
    }
    expect(aggregateMetrics(ourRows, (category) => category !== 5)).toEqual(
      kitModule.aggregateAll(kitRows),
    );
  }, 120_000);
});
