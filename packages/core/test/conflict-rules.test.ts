import { describe, expect, it } from "vitest";
import { conflictQuery, decideConflict, factReading, readFact } from "../src/index.js";

/** The rules' verdict for an older and a newer text. */
const decide = (older: string, newer: string) => decideConflict(readFact(older), readFact(newer));
const reading = (text: string) => factReading(readFact(text));

describe("readFact: subjects", () => {
  it('reads "I", "my", "we" and "the user" as the user', () => {
    for (const text of ["I live in Lyon", "We live in Lyon", "The user lives in Lyon"]) {
      expect(reading(text).subject, text).toBe("@user");
    }
    expect(reading("My brother lives in Lyon").subject).toBe("@user > brother");
  });

  it("keeps possessive chains and names: the user's sister Ines is not the user", () => {
    expect(reading("The user's sister Ines works at Airbus").subject).toBe("@user > sister ines");
    expect(reading("Ines's manager's favourite food is ramen")).toMatchObject({
      subject: "ines > manag",
      attribute: "favorite:food",
    });
    expect(reading("Marks and Spencer has a new CEO, Ruth Bell")).toMatchObject({
      subject: "marks and spencer",
      attribute: "role:ceo",
      value: "Ruth Bell",
    });
  });

  it("reads plural nouns before a verb as nouns and irregular verbs as verbs", () => {
    expect(reading("The user's grandparents live in Porto")).toMatchObject({
      subject: "@user > grandpar",
      attribute: "lives_in",
    });
    expect(reading("The user drove a Fiat Panda")).toMatchObject({
      subject: "@user",
      attribute: "drives",
    });
  });

  it("unifies British and American spellings and inflections", () => {
    expect(reading("The user's favourite colour is teal").attribute).toBe(
      reading("The user's favorite color is teal").attribute,
    );
    expect(reading("The user is living in Graz").attribute).toBe("lives_in");
  });

  it("leaves a pronoun subject unresolved and says what it could not read", () => {
    expect(reading("She moved to Oslo").subject).toBe("?she");
    expect(reading("!!!").note).toBe("no words");
  });
});

describe("readFact: attributes, values and markers", () => {
  it("normalizes everyday updates to the attribute they change", () => {
    expect(reading("The user relocated to Leeds in May")).toMatchObject({
      attribute: "lives_in",
      value: "Leeds",
      markers: ["change"],
    });
    expect(reading("Dentist: Dr. Okafor")).toMatchObject({
      attribute: "dentist",
      value: "Dr Okafor",
    });
    // "X now chairs Y": Y's chair is X.
    expect(reading("Gemma now chairs the book club")).toMatchObject({
      subject: "book club",
      attribute: "role:chair",
    });
  });

  it("marks additive, ended and change phrasing", () => {
    expect(reading("The user also plays chess").markers).toContain("additive");
    expect(reading("The user no longer plays chess")).toMatchObject({
      negated: true,
      markers: ["ended"],
    });
    expect(reading("The user switched from Firefox to Safari").ends).toEqual(["firefox"]);
  });
});

describe("decideConflict", () => {
  it("supersedes a single-valued attribute's old value", () => {
    expect(decide("The user lives in Lyon", "The user moved to Nantes last spring")).toMatchObject({
      supersede: true,
      rule: "single-value-changed",
    });
    expect(decide("Vet: Dr. Haas", "Vet: Dr. Moreau").supersede).toBe(true);
  });

  it("supersedes the same statement negated or reversed", () => {
    expect(decide("The user eats fish", "The user doesn't eat fish").rule).toBe("negated");
    // "anymore" also says the value is over, which is checked first
    expect(decide("The user eats fish", "The user doesn't eat fish anymore").rule).toBe(
      "value-ended",
    );
    expect(decide("The user does not own a bike", "The user owns a bike now").rule).toBe("negated");
  });

  it("never supersedes across subjects", () => {
    expect(
      decide("The user lives in Lyon", "The user's cousin Theo lives in Nantes"),
    ).toMatchObject({
      supersede: false,
      rule: "different-subjects",
    });
    expect(
      decide("Acme's web app costs 5 euros", "Acme's desktop app costs 9 euros").supersede,
    ).toBe(false);
  });

  it("never supersedes for additive phrasing or another value of a multi-valued attribute", () => {
    expect(decide("The user plays chess", "The user plays go as well").rule).toBe("additive");
    expect(decide("The user speaks Dutch", "The user speaks Polish").rule).toBe("multi-valued");
    expect(decide("The user plays chess", "The user stopped playing chess").supersede).toBe(true);
  });

  it("keeps a restated value and a partial negation", () => {
    expect(decide("The user lives in Lyon", "The user lives in Lyon, France").rule).toBe(
      "same-value",
    );
    expect(decide("The user drinks tea", "The user does not drink tea after 6 pm").rule).toBe(
      "partial-negation",
    );
  });

  it("keeps different attributes of the same subject apart", () => {
    expect(
      decide(
        "The user's pension plan is with Helvetia",
        "The user upgraded the Spotify plan to Duo",
      ),
    ).toMatchObject({
      supersede: false,
      rule: "different-attributes",
    });
    expect(decide("Home city: Lyon", "Birth city: Dijon").supersede).toBe(false);
  });
});

describe("conflictQuery", () => {
  it("adds the subject's head and the attribute's surface forms before the text", () => {
    const query = conflictQuery("The user moved to Nantes", readFact("The user moved to Nantes"));
    // the subject's head, then the attribute's nouns (the surer words), then its phrases' words
    expect(query.startsWith("user home city residence")).toBe(true);
    expect(query).toContain(" lives based resides ");
    expect(query.endsWith("The user moved to Nantes")).toBe(true);
  });
});
