import { describe, expect, it } from "vitest";
import { SubjectAliases } from "../src/conflicts/facts/subject-aliases.js";
import { decideConflict, factReading, readFact } from "../src/index.js";

/** The rules' verdict for an older and a newer text. */
const decide = (older: string, newer: string) => decideConflict(readFact(older), readFact(newer));
const reading = (text: string) => factReading(readFact(text));

describe("readFact: everyday phrasing", () => {
  it("reads contractions, progressives and leading presence words", () => {
    expect(reading("I'm a pharmacist")).toMatchObject({ subject: "@user", attribute: "job_title" });
    expect(reading("I'm training for a half marathon")).toMatchObject({
      attribute: "verb:train",
    });
    expect(reading("The user's favourite tea these days is rooibos")).toMatchObject({
      attribute: "favorite:tea",
      value: "rooibos",
      markers: ["change"],
    });
  });

  it("puts the owner of 'X of Y' first and reads multi-word titles as roles", () => {
    expect(reading("The chief financial officer of Initech is Bill Lumbergh")).toMatchObject({
      subject: "initech",
      attribute: "role:cfo",
    });
    expect(reading("The price of the family pass is 40 euros")).toMatchObject({
      subject: "famili pass",
      attribute: "price",
    });
  });

  it("does not take acronyms or places inside a subject for names", () => {
    expect(decide("My neighbour Ada's GP is Dr. Roth.", "My GP is now Dr. Weiss.").rule).toBe(
      "different-subjects",
    );
    expect(
      decide("The user's cousin from Lille plays rugby.", "The user's aunt from Lille plays golf.")
        .rule,
    ).toBe("different-subjects");
  });

  it("reads passives, intentions and abilities", () => {
    expect(
      decide("The book fair is held in Leipzig.", "The book fair is now held in Frankfurt."),
    ).toMatchObject({ supersede: true });
    expect(
      decide("The user plans to sell the house.", "The user decided not to sell the house."),
    ).toMatchObject({ supersede: true, rule: "negated" });
    expect(decide("I can't ride a bike.", "I learned to ride a bike in May.")).toMatchObject({
      supersede: true,
    });
  });

  it("lets a value's kind name the attribute of a generic reading", () => {
    expect(
      decide("The user carries a Pixel 6.", "The user switched to an iPhone 16."),
    ).toMatchObject({ supersede: true });
    expect(decide("My son is in second grade.", "My son started third grade.")).toMatchObject({
      supersede: true,
    });
  });

  it("ties a general verb to a named attribute through cue words, only on a said change", () => {
    expect(decide("I see Dr. Brandt for my teeth.", "My dentist is now Dr. Keller.")).toMatchObject(
      { supersede: true, rule: "cued-attribute" },
    );
    // no change said: two facts that may both hold
    expect(decide("I see Dr. Brandt for my teeth.", "My dentist is Dr. Keller.").supersede).toBe(
      false,
    );
  });

  it("ends what a death, a retirement or a sale ends, and nothing else", () => {
    expect(decide("I have a rabbit named Pip.", "My rabbit Pip died in April.")).toMatchObject({
      supersede: true,
      rule: "thing-ended",
    });
    expect(decide("My father is a carpenter.", "My father retired last spring.").supersede).toBe(
      true,
    );
    expect(decide("The user drives a Kia Ceed.", "The user sold the car.").supersede).toBe(true);
    expect(
      decide("The user works at Bosch.", "The user stopped working on the garden.").supersede,
    ).toBe(false);
  });

  it("replaces a multi-valued value only when a replacement is said", () => {
    expect(
      decide("The user's friends include Omar.", "The user became friends with Lea.").supersede,
    ).toBe(false);
    expect(decide("The user plays squash.", "The user now plays padel instead.").supersede).toBe(
      true,
    );
  });
});

describe("SubjectAliases", () => {
  it("resolves a bare name and a bare relation through the facts at hand, when unambiguous", () => {
    const facts = ["The user's brother Karim lives in Lyon.", "Karim's wife Sofia is a nurse."].map(
      readFact,
    );
    const aliases = new SubjectAliases(facts);
    const older = readFact("The user's brother drives a Renault Clio.");
    const newer = readFact("Karim now drives a Peugeot 208.");
    expect(decideConflict(older, newer).supersede).toBe(false);
    const resolved = decideConflict(
      { ...older, subject: aliases.resolve(older.subject) },
      { ...newer, subject: aliases.resolve(newer.subject) },
    );
    expect(resolved).toMatchObject({ supersede: true, rule: "single-value-changed" });
  });

  it("leaves a relation with two names unresolved", () => {
    const aliases = new SubjectAliases(
      ["The user's brother Karim lives in Lyon.", "The user's brother Yanis lives in Nice."].map(
        readFact,
      ),
    );
    const older = readFact("The user's brother drives a Renault Clio.");
    expect(aliases.resolve(older.subject)).toEqual(older.subject);
  });
});

describe("decideConflict: linked attributes", () => {
  it("reads a joint subject with the user as the user", () => {
    expect(reading("My wife and I live in Ghent")).toMatchObject({ subject: "@user" });
    expect(reading("The user and Noor moved to Utrecht")).toMatchObject({ subject: "@user" });
  });

  it("breaks a diet by what is eaten, and the other way round", () => {
    expect(decide("I'm vegetarian.", "I eat chicken again.")).toMatchObject({
      supersede: true,
      rule: "diet-broken",
    });
    expect(decide("I'm pescatarian.", "I eat salmon every week.").supersede).toBe(false);
  });

  it("replaces a tool switched to for the same purpose, not one for another purpose", () => {
    expect(
      decide("The team uses Trello for planning.", "The team switched to Asana for planning."),
    ).toMatchObject({ supersede: true, rule: "changed-same-context" });
    expect(
      decide("The team uses Trello for planning.", "The team switched to Zoom for calls.")
        .supersede,
    ).toBe(false);
  });
});

describe("decideConflict: what is not a new value", () => {
  it("keeps a brand's accessory, a momentary activity and a description apart", () => {
    expect(
      decide("The user's phone is an iPhone 13.", "The user bought an iPhone case.").supersede,
    ).toBe(false);
    expect(
      decide("The user reads crime novels.", "The user is now reading a biography of Lincoln.")
        .supersede,
    ).toBe(false);
    expect(
      decide("The user's gym is FitX.", "The user's gym is now open until midnight."),
    ).toMatchObject({ supersede: false, rule: "value-not-a-name" });
    expect(decide("The user's gym is FitX.", "The user's gym is now McFit.").supersede).toBe(true);
  });
});

describe("readFact: several clauses", () => {
  it("reads what holds from the clause after 'and now', keeping what earlier clauses ended", () => {
    expect(
      decide(
        "My uncle drives a Ford Focus.",
        "My uncle drove a Ford Focus but sold it and now drives a Kia.",
      ),
    ).toMatchObject({ supersede: true });
    expect(reading("I quit nursing and I'm now a paramedic.")).toMatchObject({
      attribute: "job_title",
      ends: ["nurs"],
    });
  });

  it("ends a value at the start of a relative clause", () => {
    expect(reading("The user has forgotten all the Danish they learned.")).toMatchObject({
      ends: ["danish"],
    });
  });
});

describe("readFact: discourse labels and kinds of things", () => {
  it("skips a discourse label and ends a kind through its general word", () => {
    expect(reading("Big news: we moved to Leeds last weekend.")).toMatchObject({
      subject: "@user",
      attribute: "lives_in",
    });
    expect(decide("I drink two lattes a day.", "I quit coffee in March.").supersede).toBe(true);
    expect(decide("I drink two lattes a day.", "I quit sugar in March.").supersede).toBe(false);
  });
});

describe("readFact: chat that states no attribute", () => {
  it("reads a fragment without a predicate without throwing", () => {
    for (const text of ["btw.", "ok", "...", ""]) expect(() => readFact(text), text).not.toThrow();
  });

  it("takes 'goes to' for a school and 'makes' for a salary only with a value of that shape", () => {
    expect(reading("Last week I went to an LGBTQ+ pride parade.").attribute).not.toBe("school");
    expect(reading("My daughter goes to Lindenschule.").attribute).toBe("school");
    expect(reading("My son goes to a boarding school in Kent.").attribute).toBe("school");
    expect(reading("We made pizza!").attribute).not.toBe("salary");
    expect(reading("I make $90k a year.").attribute).toBe("salary");
  });

  it("supersedes a value by a changed one that says more, never by a restatement", () => {
    expect(
      decide(
        "My sister Clara works as a nurse at the university hospital.",
        "Clara got promoted to head nurse of the cardiology ward.",
      ),
    ).toMatchObject({ supersede: true, rule: "changed-to-narrower" });
    expect(
      decide("My sister Clara works as a nurse.", "My sister Clara works as a nurse at the clinic.")
        .supersede,
    ).toBe(false);
  });
});
