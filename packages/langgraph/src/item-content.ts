import { InvalidInputError } from "@memory/api";

/**
 * How a LangGraph item's value is kept in an entry's `content`.
 *
 * A value that is only `{ text: "..." }` (the usual memory shape) is stored as that text alone,
 * so the entry is an ordinary memory: recall, embeddings, a reindex and the CLI see just the
 * text, and an entry that another program stored reads back as `{ text: content }`.
 *
 * Any other value is stored as its recall text (see {@link recallText}), then one last line: a
 * marker and the value's JSON in UTF-8, written in hexadecimal. Hex is one run of letters and
 * digits, so the shared text analyzer makes it a single term that no query word matches: keyword
 * recall matches the indexed fields only, never the value's keys or the fields left out of the
 * index. An embedder does read the line, which blurs vector similarity (measured in
 * docs/frameworks/langgraph.md). A hex line has no newline, so the value is always the whole
 * last line, whatever the text holds.
 *
 *     Ada is allergic to peanuts
 *     ␞7b2274657874223a22416461...
 */
export const VALUE_MARKER = "\u241e";

const HEX = /^(?:[0-9a-f]{2})+$/;

/** A LangGraph item value: a JSON object. */
export type ItemValue = Record<string, unknown>;

/** The content of an entry holding `value`, whose recall text comes from `fields`. */
export function encodeContent(
  value: unknown,
  fields: readonly string[] | false | undefined,
): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidInputError(
      `A LangGraph item value must be a JSON object like { text: "..." }, got ${describe(value)}; use null to delete an item.`,
    );
  }
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new InvalidInputError(
      `A LangGraph item value cannot be written as JSON (${(error as Error).message}); keep values to objects, arrays, strings, numbers, booleans and null.`,
      { cause: error },
    );
  }
  const texts = fields === false ? [] : recallText(value as ItemValue, fields);
  if (isPlainText(value as ItemValue, texts)) return texts[0] as string;
  const valueLine = VALUE_MARKER + Buffer.from(json, "utf8").toString("hex");
  return texts.length === 0 ? valueLine : `${texts.join("\n")}\n${valueLine}`;
}

/** The value `content` holds: its value line, else `{ text: content }`. */
export function decodeContent(content: string): ItemValue {
  return decodeValueLine(content) ?? { text: content };
}

// Stored as the bare text only when reading it back gives the same value: the value is exactly
// { text }, recall indexes exactly that text (not `index: false`, no other fields, nothing
// replaced), and the text's own last line is not a value line.
function isPlainText(value: ItemValue, texts: readonly string[]): boolean {
  const keys = Object.keys(value);
  return (
    keys.length === 1 &&
    keys[0] === "text" &&
    typeof value.text === "string" &&
    texts.length === 1 &&
    texts[0] === value.text &&
    decodeValueLine(value.text) === undefined
  );
}

function decodeValueLine(content: string): ItemValue | undefined {
  const lastLine = content.slice(content.lastIndexOf("\n") + 1);
  const hex = lastLine.slice(VALUE_MARKER.length);
  if (!lastLine.startsWith(VALUE_MARKER) || !HEX.test(hex)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(hex, "hex").toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as ItemValue)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The texts recall should match for `value`: the strings (and numbers, booleans) at `fields`,
 * LangGraph's path syntax (`title`, `meta.summary`, `chapters[*].content`, `tags[0]`, `$` for
 * every leaf), or every string leaf of the value when no fields are given. Objects reached by a
 * path give their string leaves, not their JSON, so keys and punctuation do not pollute recall.
 */
export function recallText(value: ItemValue, fields: readonly string[] | undefined): string[] {
  const texts: string[] = [];
  if (fields === undefined) collectLeaves(value, texts, true);
  else for (const field of fields) collectPath(value, tokenizePath(field), texts);
  // The text only feeds recall (the JSON line keeps the value exactly), so characters our
  // content rules refuse (NUL, lone surrogates) are replaced instead of failing the write.
  return texts
    .map((text) => text.replaceAll("\u0000", " ").replace(LONE_SURROGATE, "\ufffd"))
    .filter(Boolean);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function tokenizePath(path: string): string[] {
  if (typeof path !== "string" || path === "") {
    throw new InvalidInputError(
      `index field ${JSON.stringify(path)} is not a path; use e.g. "text", "meta.title" or "chapters[*].content".`,
    );
  }
  return path === "$" ? [] : (path.match(/\[[^\]]*\]|[^.[\]]+/g) ?? []);
}

function collectPath(value: unknown, tokens: readonly string[], texts: string[]): void {
  const [token, ...rest] = tokens;
  if (token === undefined) {
    collectLeaves(value, texts, false);
    return;
  }
  if (token.startsWith("[")) {
    if (!Array.isArray(value)) return;
    const index = token.slice(1, -1);
    if (index === "*") {
      for (const element of value) collectPath(element, rest, texts);
      return;
    }
    const position = Number.parseInt(index, 10);
    const element = position < 0 ? value[value.length + position] : value[position];
    if (element !== undefined) collectPath(element, rest, texts);
    return;
  }
  if (token === "*") {
    const children = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
    for (const child of children) collectPath(child, rest, texts);
    return;
  }
  if (isObject(value) && Object.hasOwn(value, token)) collectPath(value[token], rest, texts);
}

function collectLeaves(value: unknown, texts: string[], stringsOnly: boolean): void {
  if (typeof value === "string") texts.push(value);
  else if (!stringsOnly && (typeof value === "number" || typeof value === "boolean")) {
    texts.push(String(value));
  } else if (Array.isArray(value)) {
    for (const element of value) collectLeaves(element, texts, stringsOnly);
  } else if (isObject(value)) {
    for (const child of Object.values(value)) collectLeaves(child, texts, stringsOnly);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value;
}
