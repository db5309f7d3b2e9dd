import { describe, expect, it } from "vitest";
import {
  asksWhen,
  endsWithQuestion,
  intentFactor,
  isQuestion,
  mentionsTime,
  queryIntent,
  speakerTerms,
} from "../src/recall/query-intent.js";

const WEIGHTS = { questionPenalty: 0.2, temporalBoost: 0.2, speakerBoost: 0.2 };

describe("query intent", () => {
  it("tells questions from statements", () => {
    expect(isQuestion("What did Caroline research?")).toBe(true);
    expect(isQuestion("when is the dentist appointment")).toBe(true);
    expect(isQuestion("dentist appointment")).toBe(false);
    expect(isQuestion("Whatever works")).toBe(false);
    expect(endsWithQuestion("Any plans for the weekend?  ")).toBe(true);
    expect(endsWithQuestion("I asked why? Then I left.")).toBe(false);
  });

  it("reads a question's end as /\\?\\s*$/ does, for every kind of white space", () => {
    // Every code unit JavaScript's \s matches, and some it does not.
    const units = Array.from({ length: 0x3100 }, (_, code) => String.fromCharCode(code)).concat(
      "\ufeff",
      "\ufffe",
    );
    for (const unit of units)
      for (const text of [`why?${unit}`, `why?${unit}${unit}`, `${unit}?`, `${unit}`, `why${unit}`])
        expect([text, endsWithQuestion(text)]).toEqual([text, /\?\s*$/.test(text)]);
    expect(endsWithQuestion("")).toBe(false);
    expect(endsWithQuestion("?")).toBe(true);
  });

  it("recognises when-questions and time expressions", () => {
    expect(asksWhen("When did Melanie run a charity race?")).toBe(true);
    expect(asksWhen("What year did they move?")).toBe(true);
    expect(asksWhen("How long ago was the trip?")).toBe(true);
    expect(asksWhen("What did Melanie paint?")).toBe(false);
    for (const text of [
      "I ran a charity race last Saturday",
      "we met two days ago",
      "back in May",
      "since 2019",
      "yesterday was fun",
    ])
      expect(mentionsTime(text), text).toBe(true);
    expect(mentionsTime("I love painting lakes")).toBe(false);
    // "may" the month is also the verb: accepted, the boost only applies to when-questions.
    expect(mentionsTime("mayor of the town")).toBe(false);
  });

  it("reads a leading speaker label of up to three words", () => {
    expect(speakerTerms("Caroline: I researched adoption agencies")).toEqual(["carolin"]);
    expect(speakerTerms("user: my dog is called Rex")).toEqual(["user"]);
    expect(speakerTerms("Dr Ann Lee: take two a day")).toEqual(["dr", "ann", "lee"]);
    expect(speakerTerms("The meeting we had last week: a summary")).toEqual([]);
    expect(speakerTerms("No label here")).toEqual([]);
    expect(speakerTerms("time 10:30 is fine")).toEqual([]);
  });

  it("multiplies the factors that apply, and only those", () => {
    const question = queryIntent("When did Caroline go to the support group?");
    expect(
      intentFactor(question, "Caroline: I went to the support group yesterday.", WEIGHTS),
    ).toBeCloseTo(1.44, 10);
    expect(
      intentFactor(question, "Melanie: Did you go to the support group?", WEIGHTS),
    ).toBeCloseTo(0.8, 10);
    expect(intentFactor(question, "Melanie: the group was great", WEIGHTS)).toBe(1);
    const statement = queryIntent("support group");
    expect(intentFactor(statement, "Melanie: Did you go to the support group?", WEIGHTS)).toBe(1);
    const off = { questionPenalty: 0, temporalBoost: 0, speakerBoost: 0 };
    expect(intentFactor(question, "Caroline: Did you go yesterday?", off)).toBe(1);
  });
});
