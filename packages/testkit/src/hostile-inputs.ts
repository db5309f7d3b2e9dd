/** What a backend must do with a hostile input: store it exactly, reject it with a typed error, or either. */
export type HostileExpectation = "store" | "reject" | "either";

export interface HostileCase {
  name: string;
  value: string;
  expect: HostileExpectation;
}

const syntax = [
  '"',
  '""',
  '"unbalanced',
  "*",
  "**",
  "a*",
  "*a",
  "NEAR(a b)",
  "NEAR(",
  "a NEAR/2 b",
  "a OR b",
  "OR",
  "AND",
  "NOT",
  "-x",
  "+x",
  "col:val",
  "content:foo",
  "key:bar",
  "^start",
  "(",
  ")",
  "(a OR b) AND NOT c",
  "{a b}: c",
  "a:*",
  "a & b",
  "!a",
  "a <-> b",
  "a | b",
  "'",
  "''",
  "\\",
  "\\\\",
  "%",
  "_",
  "%_%",
  "100%",
  "a_b",
  "[abc]",
  "a$",
  "$1",
  "?",
  ":name",
  "@p",
  "'; DROP TABLE memories; --",
  '" OR 1=1 --',
  "1; DELETE FROM memories",
  "x' UNION SELECT * FROM meta --",
  "Robert'); DROP TABLE students;--",
  "$$ language plpgsql $$",
  "E'\\x00'",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal template placeholder is the point
  "${process.env.HOME}",
  "{{template}}",
];

const unicode = [
  ["emoji", "🚀🔥 launch party 🎉"],
  ["family emoji (ZWJ)", "👨‍👩‍👧‍👦 family"],
  ["flags", "🇯🇵🇩🇪"],
  ["chinese", "我喜欢喝绿茶，也喜欢读书。"],
  ["japanese", "私は記憶力が良いです"],
  ["korean", "저는 커피를 좋아합니다"],
  ["arabic rtl", "مرحبا بالعالم"],
  ["hebrew with rtl mark", "\u200fשלום עולם"],
  ["combining marks", "e\u0301e\u0301 cafe\u0301"],
  ["precomposed", "café"],
  ["ligature (changes under NFKC)", "ﬁnance ﬂow"],
  ["fullwidth", "ＡＢＣ１２３"],
  ["math alphanumerics", "𝕳𝖊𝖑𝖑𝖔"],
  ["zero-width space", "a\u200bb"],
  ["bom", "\ufeffstarts with a BOM"],
  ["line separator", "a\u2028b\u2029c"],
  ["max code point", "\u{10ffff} end"],
  ["noncharacter", "\uffff\ufffe"],
  ["control characters", "a\u0001b\u0007c\u001bd\u007f"],
  ["newlines", "line1\nline2\r\nline3\rline4"],
  ["tabs", "\tindented\tvalue"],
  ["leading and trailing spaces", "   padded   "],
  ["html", "<script>alert('x')</script>"],
  ["json", '{"key": "value", "n": [1, 2]}'],
  ["markdown entry line", "- **key**: content with **bold**"],
  ["markdown heading", "# Heading\n\n## Sub"],
  ["path traversal text", "../../etc/passwd"],
  ["windows path", "C:\\Windows\\System32"],
  ["url", "https://example.com/a?b=c&d=%20"],
  ["single character", "x"],
  ["digits only", "12345"],
  ["long word", "a".repeat(100_000)],
  ["many short lines", "x\n".repeat(10_000)],
] as const;

/** Content inputs: every one must be stored byte-for-byte or rejected with a typed error. */
export function hostileContents(): HostileCase[] {
  return [
    { name: "empty", value: "", expect: "reject" },
    { name: "whitespace only", value: " \t\n ", expect: "reject" },
    // docs/input-rules.md: NUL and lone surrogates are refused on every backend.
    { name: "NUL only", value: "\u0000", expect: "reject" },
    { name: "embedded NUL", value: "before\u0000after", expect: "reject" },
    { name: "lone high surrogate", value: "a\ud800b", expect: "reject" },
    { name: "lone low surrogate", value: "\udc00", expect: "reject" },
    { name: "reversed surrogate pair", value: "\ude00\ud83d", expect: "reject" },
    { name: "1 MB", value: "memory ".repeat(150_000).slice(0, 1_048_576), expect: "store" },
    { name: "10 MB", value: "x".repeat(10 * 1024 * 1024), expect: "reject" },
    ...syntax.map((value) => ({
      name: `syntax ${JSON.stringify(value)}`,
      value,
      expect: "store" as const,
    })),
    ...unicode.map(([name, value]) => ({ name, value, expect: "store" as const })),
  ];
}

/** Key inputs. */
export function hostileKeys(): HostileCase[] {
  return [
    { name: "empty key", value: "", expect: "reject" },
    { name: "blank key", value: "   ", expect: "reject" },
    { name: "NUL key", value: "k\u0000", expect: "reject" },
    { name: "lone surrogate key", value: "k\ud800", expect: "reject" },
    { name: "line-break key", value: "k\nv", expect: "store" },
    { name: "tab key", value: "k\tv", expect: "store" },
    { name: "1025-char key", value: "k".repeat(1025), expect: "reject" },
    { name: "1024-char key", value: "k".repeat(1024), expect: "store" },
    { name: "512-char CJK key", value: "記".repeat(512), expect: "store" },
    {
      name: "513-char CJK key (over 1,536 UTF-8 bytes)",
      value: "記".repeat(513),
      expect: "reject",
    },
    { name: "slash key", value: "a/b", expect: "store" },
    { name: "traversal key", value: "../../x", expect: "store" },
    { name: "dot key", value: ".", expect: "store" },
    { name: "dot-dot key", value: "..", expect: "store" },
    { name: "dot segments key", value: "./..", expect: "store" },
    { name: "spaced key", value: "key with spaces", expect: "store" },
    { name: "cyrillic key", value: "ключ", expect: "store" },
    { name: "cjk key", value: "記憶", expect: "store" },
    { name: "quote key", value: '"quoted"', expect: "store" },
    { name: "sql key", value: "k'; DROP TABLE memories; --", expect: "store" },
    { name: "percent key", value: "%_%", expect: "store" },
  ];
}

/** Category names: only core/daily/conversation and [A-Za-z0-9_-]{1,64} are valid. */
export function hostileCategories(): HostileCase[] {
  const bad = [
    "../etc",
    "a/b",
    "/",
    "\\",
    "",
    " ",
    "a b",
    ".",
    "..",
    "c".repeat(65),
    "core;DROP",
    "cat\u0000",
    "日記",
    "a.b",
  ];
  const good = ["CORE", "my-notes_2", "c".repeat(64), "x"];
  return [
    ...bad.map((value) => ({
      name: `category ${JSON.stringify(value)}`,
      value,
      expect: "reject" as const,
    })),
    ...good.map((value) => ({
      name: `category ${JSON.stringify(value)}`,
      value,
      expect: "store" as const,
    })),
  ];
}

/**
 * Namespaces: any text of 1-256 characters, not blank, without control characters or lone
 * surrogates, compared exactly (docs/input-rules.md).
 */
export function hostileNamespaces(): HostileCase[] {
  const bad = ["", " ", "n".repeat(257), "ns\u0000", "a\nb", "tab\t", "\ud800"];
  const good = [
    "x",
    "alice@example.com",
    "acme:billing",
    "../x",
    "a/b",
    ".",
    "Zürich-团队",
    "\u00c4", // Ä, precomposed
    "A\u0308", // A + combining diaeresis: another namespace
    "Team",
    "team",
    "*",
    "'; DROP TABLE memories; --",
    "n".repeat(256),
    "名".repeat(256),
  ];
  return [
    ...bad.map((value) => ({
      name: `namespace ${JSON.stringify(value.slice(0, 40))}`,
      value,
      expect: "reject" as const,
    })),
    ...good.map((value) => ({
      name: `namespace ${JSON.stringify(value.slice(0, 40))}`,
      value,
      expect: "store" as const,
    })),
  ];
}

/** Recall queries: each must give results or a typed error, never an engine syntax error. */
export function hostileQueries(): string[] {
  return [
    ...syntax,
    "記憶",
    "🚀",
    "a\u0000b",
    "\ud800",
    "x".repeat(10_000),
    "word ".repeat(500),
    "wild*",
    "*wild",
    "-",
    "--",
    '"""',
  ];
}

/** Embeddings of the wrong shape for a store with a known dimension. */
export function hostileEmbeddings(dimensions: number): { name: string; value: number[] }[] {
  return [
    { name: "empty vector", value: [] },
    { name: "too short", value: [1, 2, 3] },
    { name: "too long", value: new Array(dimensions + 1).fill(0.1) },
    { name: "NaN", value: new Array(dimensions).fill(Number.NaN) },
    { name: "Infinity", value: [Number.POSITIVE_INFINITY, ...new Array(dimensions - 1).fill(0)] },
  ];
}
