import { describe, expect, it } from "vitest";
import { decideConflict, factReading, readFact } from "../src/index.js";

/**
 * Chat sentences the fact reading once took for changes (found replaying LoCoMo conversations
 * through the agent loop): each superseded a true statement of the same speaker.
 */
const decide = (older: string, newer: string) => decideConflict(readFact(older), readFact(newer));
const reading = (text: string) => factReading(readFact(text));

describe("fact reading of chat: what is not a change", () => {
  it("a negated ending verb ends nothing", () => {
    expect(readFact("I won't quit on my dreams.").ends).toEqual([]);
    expect(readFact("I never stopped painting.").ends).toEqual([]);
    expect(decide("I'm living my dreams now.", "I won't quit on my dreams.").supersede).toBe(false);
    // and an ending still ends
    expect(decide("I drink coffee every morning.", "I quit coffee.").supersede).toBe(true);
  });

  it('"from X to Y" past a comma is a range, not a move', () => {
    expect(readFact("We do all kinds of dances, from contemporary to hip-hop.").ends).toEqual([]);
    expect(readFact("We moved from Berlin to Munich.").ends).toEqual([["berlin"]]);
  });

  it('"over X" is "instead of X" only after a verb of choice', () => {
    expect(readFact("I hope to put a roof over kids who never had one.").ends).toEqual([]);
    expect(readFact("I prefer tea over coffee.").ends).toEqual([["coffe"]]);
  });

  it('"get to" and "getting ready" own nothing', () => {
    expect(reading("I get to share that with other people.").attribute).not.toBe("owns");
    expect(reading("I'm getting ready for a dance comp.").attribute).not.toBe("owns");
    expect(reading("I got a new bike.").attribute).not.toBe("verb:get");
  });

  it("an activity with its object is no subject; a lone gerund still is", () => {
    expect(readFact("Losing my job was hard.").subject).toBeUndefined();
    expect(
      readFact("Representing diversity in my art is important to me.").subject,
    ).toBeUndefined();
    expect(reading("Caching is enabled on the staging cluster").subject).toBe("caching");
  });
});

describe("fact reading: a scheduled date", () => {
  it("reads a date set for a thing as that thing's attribute, so moving it supersedes", () => {
    expect(reading("Lena and I set our wedding date for the 14th of June.").attribute).toBe(
      "of:wed",
    );
    const moved = decide(
      "Lena and I set our wedding date for the 14th of June next year.",
      "We moved the wedding to the 6th of September.",
    );
    expect(moved).toMatchObject({ supersede: true, rule: "single-value-changed" });
  });

  it("needs a date for a value", () => {
    expect(reading("We set the table for dinner.").attribute).not.toBe("of:tabl");
  });
});
