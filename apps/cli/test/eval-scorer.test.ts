import {
  locomoTimeToIso,
  normalizeEvidence,
  parseLocomoDate,
  readLocomoSample,
} from "@memory/lifecycle/agent-loop-eval";
import { describe, expect, it } from "vitest";
import {
  aggregateMetrics,
  aggregateScores,
  compareCategories,
  quantile,
  scoreQuestion,
} from "../src/eval/eval-scorer.js";
import { turnContent } from "../src/eval/locomo-dataset.js";

describe("eval scorer (the LoCoMo kit's rules)", () => {
  it("scores recall@k, hit@k and the reciprocal rank of the first expected key", () => {
    const keys = ["x1", "a", "x2", "x3", "x4", "x5", "b", "x6"];
    const scores = scoreQuestion(["a", "b", "c"], keys, 20);
    expect(scores).toEqual({
      returned: 8,
      "recall@1": 0,
      "hit@1": 0,
      "recall@5": 1 / 3, // a at rank 2
      "hit@5": 1,
      "recall@10": 2 / 3, // b at rank 7
      "hit@10": 1,
      "recall@20": 2 / 3, // c never returned
      "hit@20": 1,
      rr: 1 / 2,
    });
  });

  it("keeps the first occurrence of a duplicate key, so a repeat takes no rank", () => {
    // Deduplicated: a, a(dropped), x, b -> a #1, x #2, b #3.
    const scores = scoreQuestion(["b"], ["a", "a", "x", "b"], 20);
    expect(scores.rr).toBe(1 / 3);
    expect(scores.returned).toBe(3);
    expect(scores["hit@1"]).toBe(0);
    expect(scores["recall@5"]).toBe(1);
  });

  it("cuts the deduplicated list at the limit before scoring", () => {
    const keys = ["x1", "x1", "x2", "x3", "a"];
    // limit 3: x1, x2, x3 -> a is past the cut.
    expect(scoreQuestion(["a"], keys, 3)).toMatchObject({ returned: 3, rr: 0, "hit@20": 0 });
    expect(scoreQuestion(["a"], keys, 4)).toMatchObject({ returned: 4, rr: 1 / 4, "hit@5": 1 });
  });

  it("counts missing ranks as misses when fewer than k keys come back, and empty as empty", () => {
    expect(scoreQuestion(["a", "b"], ["b"], 20)).toMatchObject({
      returned: 1,
      "recall@1": 0.5,
      "recall@20": 0.5,
      "hit@1": 1,
      rr: 1,
    });
    expect(scoreQuestion(["a"], [], 20)).toEqual({
      returned: 0,
      "recall@1": 0,
      "recall@5": 0,
      "recall@10": 0,
      "recall@20": 0,
      "hit@1": 0,
      "hit@5": 0,
      "hit@10": 0,
      "hit@20": 0,
      rr: 0,
    });
  });

  it("counts an expected key listed twice once", () => {
    expect(scoreQuestion(["a", "a", "b"], ["a"], 20)["recall@1"]).toBe(0.5);
  });

  it("averages per group, with null for an empty group", () => {
    const one = scoreQuestion(["a"], ["a"], 20); // everything 1
    const two = scoreQuestion(["a", "b"], ["x", "b"], 20); // R@1 0, R@5 0.5, rr 0.5
    const three = scoreQuestion(["a"], [], 20); // everything 0, empty
    const mean = aggregateScores([one, two, three]);
    expect(mean).toMatchObject({
      n: 3,
      "recall@1": 1 / 3,
      "recall@5": (1 + 0.5 + 0) / 3,
      "hit@1": 1 / 3,
      "hit@5": 2 / 3,
      mrr: (1 + 0.5 + 0) / 3,
      empty: 1 / 3,
    });
    expect(aggregateScores([])).toMatchObject({ n: 0, "recall@1": null, mrr: null, empty: null });
  });

  it("leaves the categories the dataset excludes out of overall, not out of all", () => {
    const rows = [
      { category: 2, ...scoreQuestion(["a"], ["a"], 20) },
      { category: 5, ...scoreQuestion(["a"], ["x"], 20) },
      { category: 1, ...scoreQuestion(["a"], ["x", "a"], 20) },
    ];
    const metrics = aggregateMetrics(rows, (category) => category !== 5);
    expect(metrics.overall).toMatchObject({ n: 2, mrr: 0.75, "hit@1": 0.5 });
    expect(metrics.all).toMatchObject({ n: 3, mrr: 0.5 });
    expect(Object.keys(metrics.by_category)).toEqual(["1", "2", "5"]);
    expect(metrics.by_category["5"]).toMatchObject({ n: 1, mrr: 0 });
  });

  it("orders categories numbers first, then names", () => {
    expect(["work", "10", "2", "facts"].sort(compareCategories)).toEqual([
      "2",
      "10",
      "facts",
      "work",
    ]);
  });

  it("takes the latency quantile at rank ceil(q * n)", () => {
    expect(quantile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.95)).toBe(4);
    expect(quantile([], 0.5)).toBeNull();
  });
});

describe("LoCoMo loading (the kit's rules)", () => {
  it("reads session times as naive times, then as UTC", () => {
    expect(parseLocomoDate("1:56 pm on 8 May, 2023")).toBe("2023-05-08T13:56:00");
    expect(parseLocomoDate("12:05 am on 1 January 2022")).toBe("2022-01-01T00:05:00");
    expect(parseLocomoDate("yesterday")).toBeUndefined();
    expect(locomoTimeToIso("2023-05-08T13:56:00")).toBe("2023-05-08T13:56:00.000Z");
  });

  it("writes a turn as speaker: text, plus the caption of a shared image", () => {
    const { sessions } = readLocomoSample({
      sample_id: "x",
      conversation: {
        speaker_a: "Mel",
        speaker_b: "Jo",
        session_1: [
          { speaker: "Mel", dia_id: "D1:1", text: "Look!", blip_caption: "a photo of a dog" },
          { speaker: "Mel", dia_id: "D1:2" },
        ],
      },
      qa: [],
    });
    expect(sessions[0]?.turns.map(turnContent)).toEqual([
      "Mel: Look! [image: a photo of a dog]",
      "Mel: ",
    ]);
  });

  it("repairs the known evidence defects and drops ids that name no turn", () => {
    const valid = new Set(["D1:3", "D8:6", "D9:17", "D11:26", "D30:5"]);
    expect(
      normalizeEvidence(["D8:6; D9:17", "D:11:26", "D30:05", "D", "D2:2", "D1:3", "D1:3"], valid),
    ).toEqual(["D8:6", "D9:17", "D11:26", "D30:5", "D1:3"]);
  });
});
