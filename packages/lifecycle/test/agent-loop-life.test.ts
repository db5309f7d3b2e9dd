/**
 * The agent-loop benchmark's scripted life (src/agent-loop-eval/life.json): its shape and that every
 * question can be answered from what the user said, never the quality of the memory context
 * (that is what `pnpm bench:agent-loop` measures).
 */
import { describe, expect, it } from "vitest";
import { lifeConversation, loadLifeScenario, mentions } from "../src/agent-loop-eval/life-data.js";

const life = loadLifeScenario();
const userTurns = life.sessions.flatMap((session) => session.turns.map((turn) => turn.user));
const replies = life.sessions.flatMap((session) => session.turns.map((turn) => turn.assistant));
const statedBy = (fact: string) => userTurns.filter((turn) => mentions(turn, fact));

describe("agent-loop life scenario", () => {
  it("spans eight to ten sessions over about six weeks, in date order, asked after the last", () => {
    const dates = life.sessions.map((session) => Date.parse(session.date));
    const days = ((dates.at(-1) ?? 0) - (dates[0] ?? 0)) / 86_400_000;
    expect({
      sessions: life.sessions.length >= 8 && life.sessions.length <= 10,
      weeks: days >= 35 && days <= 49,
      ordered: dates.every((date, i) => i === 0 || date > (dates[i - 1] ?? 0)),
      askedAfter: Date.parse(life.askedAt) > (dates.at(-1) ?? 0),
    }).toEqual({ sessions: true, weeks: true, ordered: true, askedAfter: true });
  });

  it("has unique turn and question ids", () => {
    const turnIds = life.sessions.flatMap((session) => session.turns.map((turn) => turn.id));
    const questionIds = life.questions.map((question) => question.id);
    expect(new Set(turnIds).size).toBe(turnIds.length);
    expect(new Set(questionIds).size).toBe(questionIds.length);
  });

  it("states every question's current fact in exactly one user message", () => {
    const unstated = life.questions
      .filter((question) => statedBy(question.current).length !== 1)
      .map((question) => ({ id: question.id, stated: statedBy(question.current).length }));
    expect(unstated).toEqual([]);
  });

  it("states every stale version and other person's fact in some user message", () => {
    const missing = life.questions.flatMap((question) =>
      [...question.stale, ...question.others]
        .filter((fact) => statedBy(fact).length === 0)
        .map((fact) => `${question.id}: ${fact}`),
    );
    expect(missing).toEqual([]);
  });

  it("gives every changed fact a stale version, stated in an earlier session than the current one", () => {
    const sessionOf = (fact: string) =>
      life.sessions.findIndex((session) => session.turns.some((turn) => mentions(turn.user, fact)));
    const wrong = life.questions
      .filter((question) => question.changed)
      .filter(
        (question) =>
          question.stale.length === 0 ||
          question.stale.some((fact) => sessionOf(fact) >= sessionOf(question.current)),
      )
      .map((question) => question.id);
    expect(wrong).toEqual([]);
    expect(life.questions.filter((question) => question.changed).length).toBeGreaterThanOrEqual(8);
  });

  it("never lets an assistant reply repeat a fact a question checks for", () => {
    const facts = life.questions.flatMap((q) => [q.current, ...q.stale, ...q.others]);
    const repeated = replies.filter((reply) => facts.some((fact) => mentions(reply, fact)));
    expect(repeated).toEqual([]);
  });

  it("replays as one user/assistant message pair per turn", () => {
    const conversation = lifeConversation(life);
    const roles = conversation.sessions.flatMap((session) => session.messages.map((m) => m.role));
    expect(roles.length).toBe(userTurns.length * 2);
    expect(roles.filter((role, i) => role !== (i % 2 === 0 ? "user" : "assistant"))).toEqual([]);
  });
});
