import { describe, expect, it } from "vitest";
import { chunkMarkdown, type MarkdownChunk } from "../src/index.js";

const sourceLines = (markdown: string) => markdown.split("\n");

/** The chunk body without its heading line. */
const body = (chunk: MarkdownChunk) =>
  chunk.heading ? chunk.content.slice(chunk.heading.length + 1) : chunk.content;

describe("chunkMarkdown: sections", () => {
  const doc = [
    "intro line", // 1
    "", // 2
    "# Title", // 3
    "", // 4
    "para one line one", // 5
    "para one line two", // 6
    "", // 7
    "para two", // 8
    "", // 9
    "## Sub", // 10
    "sub body", // 11
  ].join("\n");

  it("splits at headings first and starts every chunk with its heading line", () => {
    const chunks = chunkMarkdown(doc);
    expect(chunks.map((c) => c.heading)).toEqual(["", "# Title", "## Sub"]);
    expect(chunks[0]!.content).toBe("intro line");
    expect(chunks[1]!.content).toBe("# Title\npara one line one\npara one line two\n\npara two");
    expect(chunks[2]!.content).toBe("## Sub\nsub body");
    expect(chunks.map((c) => c.index)).toEqual([0, 1, 2]);
  });

  it("reports 1-based first and last body lines", () => {
    const chunks = chunkMarkdown(doc);
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 1],
      [5, 8],
      [11, 11],
    ]);
    const lines = sourceLines(doc);
    expect(lines[chunks[1]!.startLine - 1]).toBe("para one line one");
    expect(lines[chunks[1]!.endLine - 1]).toBe("para two");
  });

  it("keeps every chunk of a long section under that section's heading", () => {
    const section = Array.from(
      { length: 12 },
      (_, i) => `Paragraph ${i} talks about topic ${i}.`,
    ).join("\n\n");
    const chunks = chunkMarkdown(`## Preferences\n${section}\n# Other\nx`, { maxTokens: 20 });
    const preference = chunks.filter((c) => c.heading === "## Preferences");
    expect(preference.length).toBeGreaterThan(3);
    for (const chunk of preference) expect(chunk.content.startsWith("## Preferences\n")).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ heading: "# Other", content: "# Other\nx" });
  });

  it("emits a heading with no body as a chunk of its own", () => {
    const chunks = chunkMarkdown("# Empty\n\n# Full\ntext");
    expect(chunks.map((c) => c.content)).toEqual(["# Empty", "# Full\ntext"]);
  });

  it("drops a blank preamble and returns [] for blank input", () => {
    expect(chunkMarkdown("\n\n# A\nb").map((c) => c.heading)).toEqual(["# A"]);
    expect(chunkMarkdown("")).toEqual([]);
    expect(chunkMarkdown(" \n\n \n")).toEqual([]);
  });

  it("does not treat `#tag` (no space) as a heading", () => {
    const chunks = chunkMarkdown("#tag not a heading\n####### seven hashes");
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.heading).toBe("");
  });

  it("does not treat `# comment` lines inside fenced code blocks as headings", () => {
    const md =
      "# Setup\n```bash\n# install deps\npnpm i\n```\n~~~\n## not a heading either\n~~~\nafter";
    const chunks = chunkMarkdown(md);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.heading).toBe("# Setup");
    expect(chunks[0]!.content).toBe(md);
  });

  it("treats CRLF and LF input the same", () => {
    const crlf = doc.replaceAll("\n", "\r\n");
    expect(chunkMarkdown(crlf)).toEqual(chunkMarkdown(doc));
    expect(chunkMarkdown(crlf).some((c) => c.content.includes("\r"))).toBe(false);
  });
});

describe("chunkMarkdown: sizes", () => {
  it("keeps whole paragraphs together while they fit, joined by a blank line", () => {
    const p = (n: number) => `${String(n).repeat(30)}`;
    // maxTokens 20 -> 80 chars; "# T\n" costs 4 -> body budget 76: p1 + p2 = 62 fits, + p3 = 94 does not
    const chunks = chunkMarkdown(`# T\n${p(1)}\n\n${p(2)}\n\n${p(3)}`, { maxTokens: 20 });
    expect(chunks.map(body)).toEqual([`${p(1)}\n\n${p(2)}`, p(3)]);
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([
      [2, 4],
      [6, 6],
    ]);
  });

  it("splits a paragraph that is too big at its lines", () => {
    const lines = ["a".repeat(30), "b".repeat(30), "c".repeat(30)];
    const chunks = chunkMarkdown(`# T\n${lines.join("\n")}`, { maxTokens: 20 });
    expect(chunks.map(body)).toEqual([`${lines[0]}\n${lines[1]}`, lines[2]]);
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([
      [2, 3],
      [4, 4],
    ]);
  });

  it("splits one huge line by characters and loses nothing", () => {
    const line = "x".repeat(100);
    const chunks = chunkMarkdown(line, { maxTokens: 10 });
    expect(chunks.map((c) => c.content.length)).toEqual([40, 40, 20]);
    expect(chunks.map((c) => c.content).join("")).toBe(line);
    for (const chunk of chunks) expect([chunk.startLine, chunk.endLine]).toEqual([1, 1]);
  });

  it("never cuts a surrogate pair when splitting by characters", () => {
    const line = "😀".repeat(50); // 100 UTF-16 code units; maxChars 5 is odd
    const chunks = chunkMarkdown(line, { maxTokens: 5, charsPerToken: 1 });
    for (const chunk of chunks) {
      expect(chunk.content.isWellFormed()).toBe(true);
      expect(chunk.content.length).toBeLessThanOrEqual(5);
    }
    expect(chunks.map((c) => c.content).join("")).toBe(line);
  });

  it("keeps content within maxTokens * charsPerToken, heading included", () => {
    const text = [
      "# A fairly long heading line",
      ...Array.from({ length: 40 }, (_, i) =>
        i % 5 === 4 ? "" : `line ${i} ${"lorem ipsum ".repeat(i % 7)}`,
      ),
      "## Second",
      "z".repeat(500),
    ].join("\n");
    for (const [maxTokens, charsPerToken, overlapTokens] of [
      [10, 4, 0],
      [10, 4, 3],
      [25, 4, 5],
      [12, 3, 2],
    ] as const) {
      const chunks = chunkMarkdown(text, { maxTokens, charsPerToken, overlapTokens });
      for (const chunk of chunks)
        expect(chunk.content.length).toBeLessThanOrEqual(maxTokens * charsPerToken);
    }
  });

  it("uses about 4 characters per token and 400 tokens by default", () => {
    const paragraphs = Array.from({ length: 10 }, () => "w".repeat(399)).join("\n\n");
    const chunks = chunkMarkdown(paragraphs);
    // 1600 chars per chunk: four 399-char paragraphs + 3 separators = 1602 > 1600, three fit
    expect(chunks.map((c) => c.content.length)).toEqual([1201, 1201, 1201, 399]);
    expect(
      chunkMarkdown(paragraphs, { charsPerToken: 2 }).every((c) => c.content.length <= 800),
    ).toBe(true);
  });
});

describe("chunkMarkdown: overlap", () => {
  const paragraphs = [
    "alpha bravo charlie delta",
    "echo foxtrot golf hotel",
    "india juliett kilo lima",
  ];
  const md = `## Notes\n${paragraphs.join("\n\n")}`;

  it("is off by default", () => {
    const chunks = chunkMarkdown(md, { maxTokens: 10 });
    expect(chunks.map(body)).toEqual(paragraphs);
  });

  it("repeats the tail of the previous chunk, cut at a word boundary", () => {
    const chunks = chunkMarkdown(md, { maxTokens: 20, overlapTokens: 3 });
    // budget 80 - 9 = 71; 12 overlap chars "o golf hotel" start at a word boundary: "golf hotel"
    expect(chunks).toHaveLength(2);
    expect(body(chunks[0]!)).toBe(`${paragraphs[0]}\n\n${paragraphs[1]}`);
    expect(body(chunks[1]!)).toBe(`golf hotel\n${paragraphs[2]}`);
    expect(chunks[1]!.startLine).toBe(6);
  });

  it("does not carry a tail across sections", () => {
    const chunks = chunkMarkdown("# A\none two three four\n# B\nfive six", {
      maxTokens: 20,
      overlapTokens: 4,
    });
    expect(chunks.map((c) => c.content)).toEqual(["# A\none two three four", "# B\nfive six"]);
  });
});

describe("chunkMarkdown: deep headings", () => {
  it("keeps a #### subsection inside its parent section, under the parent's heading", () => {
    const md = "## Preferences\n\n#### Editor\nUses Neovim\n\n#### Shell\nfish\n### Work\nparser";
    const chunks = chunkMarkdown(md);
    expect(chunks.map((c) => c.heading)).toEqual(["## Preferences", "### Work"]);
    expect(chunks[0]!.content).toBe("## Preferences\n#### Editor\nUses Neovim\n\n#### Shell\nfish");
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([
      [3, 7],
      [9, 9],
    ]);
  });

  it("starts every chunk of a long subsection with its heading path", () => {
    // 77-character paragraphs: with "## Prefs" and the longest path (34 characters) at most one
    // fits in a 120-character chunk.
    const paragraphs = Array.from({ length: 6 }, (_, i) => `fact ${i} ${"word ".repeat(14)}`);
    const md = `# Me\n## Prefs\n#### Editor\n##### Themes\n\n${paragraphs.join("\n\n")}\n\n#### Shell\nfish`;
    const chunks = chunkMarkdown(md, { maxTokens: 30 });
    const prefs = chunks.filter((c) => c.heading === "## Prefs");
    expect(prefs.length).toBeGreaterThan(2);
    expect(prefs[0]!.content.startsWith("## Prefs\n#### Editor\n##### Themes\nfact 0")).toBe(true);
    for (const chunk of prefs.slice(1, -1))
      expect(chunk.content.startsWith("## Prefs\n#### Editor\n##### Themes\nfact ")).toBe(true);
    // A sibling closes the deeper headings: no "#### Editor" above "#### Shell".
    expect(prefs.at(-1)!.content.endsWith("#### Shell\nfish")).toBe(true);
    expect(prefs.at(-1)!.content).not.toContain("Editor");
    for (const chunk of chunks) expect(chunk.content.length).toBeLessThanOrEqual(120);
  });

  it("drops a preamble of deep headings alone, and keeps one that has text", () => {
    expect(chunkMarkdown("#### Lone\n\n# A\nb").map((c) => c.content)).toEqual(["# A\nb"]);
    expect(chunkMarkdown("#### Intro\nhello").map((c) => [c.heading, c.content])).toEqual([
      ["", "#### Intro\nhello"],
    ]);
  });

  it("treats a section of deep headings alone as a heading with no body", () => {
    expect(chunkMarkdown("## Empty\n#### Nothing\n## Full\ntext").map((c) => c.startLine)).toEqual([
      0, 4,
    ]);
  });
});
