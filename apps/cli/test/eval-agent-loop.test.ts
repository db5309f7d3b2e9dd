/**
 * `memory eval --agent-loop` through the built binary, on a tiny LoCoMo file and a tiny life
 * (test/fixtures/agent-loop/), keyword-only (`embedding_provider = "noop"`).
 *
 * The fixture is written so that every expected number follows from reading it: each answerable
 * question's content words are in its evidence turn and in no other turn of the same session
 * (recall's keyword relevance is the question's IDF weight an entry holds, and the context keeps
 * entries at 0.4 or more, so each context holds its evidence, plus the turns of the evidence's
 * session that carry content, which the evidence raises as neighbours: per question 2, 2, 3, 1
 * and 2 entries, half of them not evidence); the two conversations share
 * no content word (the "never heard" contexts are empty); no user message shares a word with
 * anything said before it (the loop's own contexts are empty); every other assistant reply is
 * contentless ("Sure, noted!", "Got it.", "Welcome back!"), which the context never shows.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POSTGRES_URL, schemaNames } from "./helpers/postgres-schemas.js";
import { json, Workspace } from "./helpers/run-memory.js";

const FIXTURES = path.resolve(import.meta.dirname, "fixtures/agent-loop");
const LOCOMO = path.join(FIXTURES, "locomo-tiny.json");
const LIFE = path.join(FIXTURES, "life-tiny.json");

interface ClockResult {
  clock: string;
  locomo: Record<string, number>;
  locomoLoop: Record<string, number>;
  followUps: Record<string, unknown>;
  life: { changed: { context: Record<string, number> }; all: { context: Record<string, number> } };
  answers?: unknown[];
}
interface AgentLoopDocument {
  format: string;
  backend: string;
  embedder: string | null;
  context: Record<string, unknown>;
  conversations: string[];
  life: { sessions: number; questions: number };
  results: ClockResult[];
}
interface ErrorDocument {
  error: { code: string; message: string; exitCode: number };
}

// loop-1 (Ana the user, Ben the assistant) asks 5 QA items: q0 "What is Ana's greyhound
// called?" (D1:1), q1 "What does Ben restore on weekends?" (D1:4, a reply with content), q2
// "When does the pottery class meet?" ("D:1:3", repaired), q3 category 5, q4 without evidence
// (skipped). loop-2 (Cy, Dee) asks q0 "Where does Cy's violin teacher live?" (D1:1) and q1
// naming both speakers ("D2:1; D2:9": D2:9 names no turn and is dropped).
const EXPECTED_LOCOMO = {
  answerable: 5, // loop-1 q0 q1 q2, loop-2 q0 q1
  evidenceAny: 1,
  evidenceShare: 1,
  top5EvidenceAny: 1,
  emptyContext: 0,
  meanEntries: 2, // its evidence entry and its session's neighbours with content
  noiseShare: 0.5,
  noiseAssistantShare: 0.1, // D1:4 (Ben's reply with content) beside loop-1 q2's evidence
  contentlessShare: 0,
  contextsWithContentless: 0,
  adversarial: 1, // "What did Ben glaze?": "Ben" is in D1:4, "glaze" in D2:2
  adversarialNonEmpty: 1,
  neverHeard: 6, // loop-2's 2 questions asked of loop-1, loop-1's 4 asked of loop-2
  neverHeardNonEmpty: 0,
};
// User messages: loop-1 D1:1, D1:3, D2:2; loop-2 D1:1, D2:1.
const EXPECTED_LOOP = { contexts: 5, nonEmpty: 0, entries: 0, characters: 0 };
// Follow-ups for loop-1 q0 (Ana), q1 (Ben) and loop-2 q0 (Cy); loop-1 q2 names nobody, loop-2
// q1 names both. The follow-up keeps the question's other words, so it still finds its
// evidence; with the session, the opener "Let's talk about <name>." is the discovery query's
// second line, and the context leaves it out (a turn of the current conversation's last
// minutes: the agent has it already): the evidence and its neighbours, 2, 2 and 1 entries.
const rates = (meanEntries: number) => ({
  evidenceAny: 1,
  evidenceShare: 1,
  empty: 0,
  meanEntries,
});
const EXPECTED_FOLLOW_UPS = {
  followUps: 3,
  skipped: { noSpeakerNamed: 1, bothSpeakersNamed: 1 },
  named: rates(5 / 3),
  alone: rates(5 / 3),
  multiTurn: { ...rates(5 / 3), openerInContext: 0, superseded: 0 },
};
// "We moved to Porto" supersedes "I live in Lisbon" (promoted facts); the sister's job is stated once.
const EXPECTED_LIFE_CONTEXT = {
  current: 1,
  stale: 0,
  otherFirst: 0,
  ownReplyShare: 0,
  withOwnReply: 0,
  empty: 0,
};

describe("memory eval --agent-loop", () => {
  let ws: Workspace;
  let scratch: string;
  const evalRun = (args: string[], env: Record<string, string> = {}) =>
    ws.run(["eval", ...args], { env: { TMPDIR: scratch, ...env } });
  const fail = async (args: string[], env: Record<string, string> = {}) => {
    const result = await evalRun([...args, "--json"], env);
    return { code: result.code, error: json<ErrorDocument>(result).error };
  };

  beforeAll(() => {
    ws = new Workspace("", 'embedding_provider = "noop"');
    scratch = ws.file("tmp");
    mkdirSync(scratch);
  });
  afterAll(() => ws.remove());

  it("replays the fixture on both clocks and reports what it implies, on temporary stores", async () => {
    const result = await evalRun(["--agent-loop", "--dataset", LOCOMO, "--life", LIFE, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = json<AgentLoopDocument>(result);
    expect(report).toMatchObject({
      format: "agent-loop",
      backend: "sqlite",
      embedder: null,
      context: { recall: true, limit: 5, minScore: 0.4 },
      conversations: ["loop-1", "loop-2"],
      life: { sessions: 2, questions: 2 },
    });
    expect(report.results.map((r) => r.clock)).toEqual(["wall", "dated"]);
    for (const clock of report.results) {
      expect(clock.locomo).toMatchObject(EXPECTED_LOCOMO);
      expect(clock.locomoLoop).toEqual(EXPECTED_LOOP);
      expect(clock.followUps).toEqual(EXPECTED_FOLLOW_UPS);
      expect(clock.life.changed.context).toMatchObject({ questions: 1, ...EXPECTED_LIFE_CONTEXT });
      expect(clock.life.all.context).toMatchObject({ questions: 2, ...EXPECTED_LIFE_CONTEXT });
      expect(clock.answers).toBeUndefined(); // only with --per-question
    }
    // The configured store (brain.db next to memory.toml) was never created; the temporary
    // stores are gone.
    expect(readdirSync(ws.dir).sort()).toEqual(["memory.toml", "tmp"]);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it("prints the benchmark's tables without --json, and reads the dataset from MEMORY_EVAL_LOCOMO", async () => {
    const result = await evalRun(["--agent-loop", "--clock", "wall"], {
      MEMORY_EVAL_LOCOMO: LOCOMO,
    });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^sqlite \(temporary stores, deleted\) · no embedder/);
    expect(lines).toContain("LoCoMo (loop-1, loop-2; categories 1-4 answerable):");
    // answerable, evidence any, evidence share, top-5, empty
    expect(result.stdout).toContain("| none | wall | 5 | 100.0% | 100.0% | 100.0% | 0.0% | 2.00 |");
    expect(result.stdout).toContain(
      "| none | wall | follow-up, with session | 100.0% | 100.0% | 0.0% | 1.67 | 0.0% |",
    );
    // Without --life, the scenario that ships with @memory/lifecycle (9 sessions, 20 questions).
    expect(lines).toContain("Scripted life (9 sessions, 20 questions):");
  });

  describe("bad input is a typed error that says what to pass", () => {
    it("no dataset: exit 2, naming --dataset and MEMORY_EVAL_LOCOMO", async () => {
      const { code, error } = await fail(["--agent-loop"]);
      expect(code).toBe(2);
      expect(error.code).toBe("USAGE");
      expect(error.message).toContain("pass --dataset <locomo.json>");
      expect(error.message).toContain("MEMORY_EVAL_LOCOMO");
    });

    it("a dataset that does not exist: exit 3", async () => {
      const { code, error } = await fail(["--agent-loop", "--dataset", ws.file("nope.json")]);
      expect(code).toBe(3);
      expect(error.message).toContain("nope.json does not exist; pass an existing LoCoMo file");
    });

    it("a dataset that is not LoCoMo, a session date that does not parse: exit 2", async () => {
      writeFileSync(ws.file("object.json"), '{"conversation": {}}');
      const notLocomo = await fail(["--agent-loop", "--dataset", ws.file("object.json")]);
      expect(notLocomo.code).toBe(2);
      expect(notLocomo.error.message).toContain("not a LoCoMo file");
      const undated = [
        {
          sample_id: "c1",
          conversation: {
            speaker_a: "A",
            speaker_b: "B",
            session_1_date_time: "last Tuesday",
            session_1: [{ speaker: "A", dia_id: "D1:1", text: "I like tea." }],
          },
          qa: [{ question: "What does A like?", evidence: ["D1:1"], category: 4 }],
        },
      ];
      writeFileSync(ws.file("undated.json"), JSON.stringify(undated));
      const badDate = await fail(["--agent-loop", "--dataset", ws.file("undated.json")]);
      expect(badDate.code).toBe(2);
      expect(badDate.error.message).toContain(
        'c1/session_1: its session_1_date_time does not parse; give it as "1:56 pm on 8 May, 2023"',
      );
    });

    it("a life scenario of the wrong shape: exit 2, naming the field", async () => {
      writeFileSync(ws.file("life.json"), JSON.stringify({ description: "x", sessions: [] }));
      const { code, error } = await fail([
        "--agent-loop",
        "--dataset",
        LOCOMO,
        "--life",
        ws.file("life.json"),
      ]);
      expect(code).toBe(2);
      expect(error.message).toContain("is not a life scenario (askedAt:");
    });

    it("options of the other mode: exit 2", async () => {
      const loopOnly = await fail([LOCOMO, "--clock", "dated"]);
      expect(loopOnly.code).toBe(2);
      expect(loopOnly.error.message).toContain("--clock belongs to --agent-loop");
      const limit = await fail(["--agent-loop", "--dataset", LOCOMO, "--limit", "10"]);
      expect(limit.code).toBe(2);
      expect(limit.error.message).toContain("auto_recall_limit");
      const twice = await fail(["--agent-loop", LOCOMO, "--dataset", LOCOMO]);
      expect(twice.code).toBe(2);
      expect(twice.error.message).toContain("give the LoCoMo file once");
    });
  });
});

describe("memory eval --agent-loop on PostgreSQL", () => {
  it("replays each conversation in a temporary schema of its own, drops them all, and gets the same numbers", async () => {
    const evalSchemas = () => schemaNames("memory\\_eval\\_%");
    const before = await evalSchemas();
    const userSchema = `agent_loop_user_${process.pid}`;
    const ws = new Workspace("", 'embedding_provider = "noop"');
    try {
      ws.writeConfig(
        "pg.toml",
        `[memory]\nbackend = "postgres"\nembedding_provider = "noop"\n\n[postgres]\nurl = "${POSTGRES_URL}"\nschema = "${userSchema}"\n`,
      );
      const jsonRun = await ws.run(
        [
          "--config",
          "pg.toml",
          "eval",
          "--agent-loop",
          "--dataset",
          LOCOMO,
          "--life",
          LIFE,
          "--clock",
          "wall",
          "--json",
        ],
        { env: { TMPDIR: ws.dir } },
      );
      expect(jsonRun.code, jsonRun.stderr).toBe(0);
      const report = json<AgentLoopDocument>(jsonRun);
      expect(report.backend).toBe("postgres");
      expect(report.results[0]?.locomo).toMatchObject(EXPECTED_LOCOMO);
      expect(report.results[0]?.followUps).toEqual(EXPECTED_FOLLOW_UPS);
      expect(report.results[0]?.life.all.context).toMatchObject(EXPECTED_LIFE_CONTEXT);
      expect(await evalSchemas()).toEqual(before);
      expect(await schemaNames(userSchema)).toEqual([]);
    } finally {
      ws.remove();
    }
  }, 240_000);
});
