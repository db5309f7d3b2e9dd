/**
 * The follow-up questions of the agent-loop evaluation (src/agent-loop-eval/follow-ups.ts): the
 * rule set on LoCoMo-style questions. What the context does with them is measured by
 * `pnpm bench:agent-loop` and `memory eval --agent-loop`, not asserted here.
 */
import { describe, expect, it } from "vitest";
import { deriveFollowUp, deriveFollowUps, pronounFor } from "../src/agent-loop-eval/follow-ups.js";
import type { LocomoQuestion } from "../src/agent-loop-eval/locomo-data.js";

const speakers = { a: "Caroline", b: "Melanie" };
const question = (id: string, text: string, category = 4): LocomoQuestion => ({
  id,
  conversation: "conv-26",
  text,
  category,
  evidence: ["D1:1"],
});

describe("follow-up questions derived from LoCoMo", () => {
  it("opens with the speaker the question names, then asks with a pronoun", () => {
    expect(deriveFollowUp(question("q1", "What did Caroline research?"), speakers)).toEqual({
      questionId: "q1",
      entity: "Caroline",
      opener: "Let's talk about Caroline.",
      text: "What did they research?",
    });
  });

  it("uses their for a possessive, them after a preposition or verb, they for a subject", () => {
    expect(pronounFor("What is Caroline's identity?", "Caroline")).toBe("What is their identity?");
    expect(pronounFor("What was grandma's gift to Caroline?", "Caroline")).toBe(
      "What was grandma's gift to them?",
    );
    expect(pronounFor("What attributes describe Caroline?", "Caroline")).toBe(
      "What attributes describe them?",
    );
    expect(pronounFor("Caroline went hiking when?", "Caroline")).toBe("They went hiking when?");
    expect(pronounFor("When did Melanie paint a sunrise?", "Melanie")).toBe(
      "When did they paint a sunrise?",
    );
  });

  it("makes the auxiliary next to a new they plural", () => {
    expect(pronounFor("What kind of art does Caroline make?", "Caroline")).toBe(
      "What kind of art do they make?",
    );
    expect(pronounFor("How long has Melanie been painting?", "Melanie")).toBe(
      "How long have they been painting?",
    );
    expect(pronounFor("Is Caroline still single?", "Caroline")).toBe("Are they still single?");
    expect(pronounFor("When Melanie was in Paris, what did she see?", "Melanie")).toBe(
      "When they were in Paris, what did she see?",
    );
  });

  it("matches whole words only: a name inside another word is no mention", () => {
    expect(deriveFollowUp(question("q2", "Who is Carolineville's mayor?"), speakers)).toBe(
      "noSpeakerNamed",
    );
    expect(pronounFor("Did Jon meet Jonas?", "Jon")).toBe("Did they meet Jonas?");
  });

  it("leaves out questions that name both speakers or neither, and counts them", () => {
    const derived = deriveFollowUps(
      [
        question("q1", "What did Caroline research?"),
        question("q2", "What do Caroline and Melanie both like?"),
        question("q3", "When was the pride parade?"),
        question("q4", "What is Melanie's favourite book?", 2),
        // Adversarial (category 5) questions are not answerable: never derived.
        question("q5", "What did Melanie research?", 5),
      ],
      () => speakers,
    );
    expect(derived.followUps.map((followUp) => [followUp.questionId, followUp.text])).toEqual([
      ["q1", "What did they research?"],
      ["q4", "What is their favourite book?"],
    ]);
    expect(derived.skipped).toEqual({ noSpeakerNamed: 1, bothSpeakersNamed: 1 });
  });
});
