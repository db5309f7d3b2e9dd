import { InvalidInputError } from "@memory/api";

/**
 * How a LangGraph item's value is kept in an entry's `content`: first the recall text (what
 * keyword and vector recall match), then one last line holding the value: a marker and the
 * value's JSON in UTF-8, written in hexadecimal. Hex is one run of letters and digits, so the
 * shared text analyzer makes it a single term that no query word matches: recall matches the
 * indexed fields only, never the value's keys or the fields left out of the index. A hex line
 * has no newline, so the value is always the whole last line, whatever the text holds.
 *
 *     I like pizza
 *     ␞7b2274657874223a2249206c696b652070697a7a61227d
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
  const text = fields === false ? "" : recallText(value as ItemValue, fields).join("\n");
  const valueLine = VALUE_MARKER + Buffer.from(json, "utf8").toString("hex");
  return text === "" ? valueLine : `${text}\n${valueLine}`;
}

/**
 * The value held by `content`, or undefined when the entry was not written by this adapter
 * (stored by the CLI, MCP or another program).
 */
export function decodeContent(content: string): ItemValue | undefined {
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
