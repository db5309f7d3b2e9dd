import { describe, expect, it } from "vitest";
import {
  categoryOfTag,
  externalKey,
  fillTemplate,
  parseLucidContext,
  tagOfCategory,
} from "../src/index.js";

describe("parseLucidContext", () => {
  it("reads the - [tag] text lines of the block and ignores what is around it", () => {
    const output = [
      "lucid 1.2 (project /repo)",
      "<lucid-context>",
      "- [decision] Use PostgreSQL for billing",
      "  - [Bug]   Token refresh raced  ",
      "",
      "</lucid-context>",
      "- [decision] after the block",
    ].join("\r\n");
    expect(parseLucidContext(output)).toEqual({
      recognized: true,
      skipped: 0,
      lines: [
        { tag: "decision", text: "Use PostgreSQL for billing" },
        { tag: "Bug", text: "Token refresh raced" },
      ],
    });
  });

  it("skips and counts lines that are not - [tag] text, never failing", () => {
    const parsed = parseLucidContext(
      "<lucid-context>\nplain text\n- [] empty tag\n- [decision]\n- [x] nul\u0000here\n* [decision] star\n- [ok] kept\n",
    );
    expect(parsed.lines).toEqual([{ tag: "ok", text: "kept" }]);
    expect(parsed.skipped).toBe(5);
    expect(parsed.recognized).toBe(true);
  });

  it("treats empty output as an empty answer and other output without a block as unrecognized", () => {
    expect(parseLucidContext("  \n")).toEqual({ recognized: true, lines: [], skipped: 0 });
    expect(parseLucidContext("error: no such project").recognized).toBe(false);
  });
});

describe("tags", () => {
  it("maps the documented tags to categories and unknown ones to lucid", () => {
    expect(categoryOfTag("decision")).toBe("core");
    expect(categoryOfTag("LEARNING")).toBe("core");
    expect(categoryOfTag("solution")).toBe("core");
    expect(categoryOfTag("context")).toBe("daily");
    expect(categoryOfTag("bug")).toBe("daily");
    expect(categoryOfTag("conversation")).toBe("conversation");
    expect(categoryOfTag("visual memory")).toBe("lucid");
    expect(tagOfCategory("core")).toBe("decision");
    expect(tagOfCategory("my_notes")).toBe("learning");
  });

  it("keys external text by the first 16 hex digits of its SHA-256", () => {
    expect(externalKey("abc")).toBe("lucid:ba7816bf8f01cfea");
  });
});

describe("fillTemplate", () => {
  it("keeps each element one argument and expands values only once", () => {
    expect(
      fillTemplate(["context", "--budget={limit}", "--", "{query}", "{unknown}"], {
        query: "a {limit} b\n-x",
        limit: "5",
      }),
    ).toEqual(["context", "--budget=5", "--", "a {limit} b\n-x", "{unknown}"]);
  });
});
