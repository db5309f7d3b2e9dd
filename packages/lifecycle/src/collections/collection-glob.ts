import { InvalidInputError } from "@memory/api";

/** The pattern a collection uses when none is given. */
export const DEFAULT_COLLECTION_PATTERN = "**/*.md";

function escapeRegExp(text: string): string {
  return text.replace(/[.+^$()|[\]\\]/g, "\\$&");
}

/**
 * A glob relative to the collection's root as a RegExp over `/`-separated relative paths:
 * `**` any number of folders, `*` and `?` within one segment, `{a,b}` alternatives. A pattern
 * that could reach outside the root (absolute, a `..` segment, a backslash) is refused, so the
 * walk never leaves the folder it was given.
 */
export function compileCollectionPattern(pattern: string): RegExp {
  if (typeof pattern !== "string" || pattern.trim() === "")
    throw new InvalidInputError(
      `pattern must be a glob relative to the collection's folder, such as "${DEFAULT_COLLECTION_PATTERN}".`,
    );
  const segments = pattern.split("/");
  if (
    pattern.startsWith("/") ||
    pattern.includes("\\") ||
    /^[A-Za-z]:/.test(pattern) ||
    segments.includes("..") ||
    pattern.includes("\0")
  )
    throw new InvalidInputError(
      `pattern ${JSON.stringify(pattern)} escapes the collection's folder (an absolute path, a ".." segment or a backslash): use a glob relative to the folder, such as "${DEFAULT_COLLECTION_PATTERN}", and point the collection's path at the folder itself.`,
      { details: { pattern } },
    );
  let source = "";
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    const last = index === segments.length - 1;
    if (segment === "**") {
      source += last ? ".*" : "(?:[^/]+/)*";
      continue;
    }
    source += segmentSource(segment, pattern) + (last ? "" : "/");
  }
  return new RegExp(`^${source}$`);
}

function segmentSource(segment: string, pattern: string): string {
  let source = "";
  for (let at = 0; at < segment.length; at++) {
    const char = segment[at]!;
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "{") {
      const close = segment.indexOf("}", at);
      if (close < 0)
        throw new InvalidInputError(
          `pattern ${JSON.stringify(pattern)} has a "{" without its "}": write alternatives as {md,markdown}.`,
        );
      const options = segment.slice(at + 1, close).split(",");
      source += `(?:${options.map((option) => segmentSource(option, pattern)).join("|")})`;
      at = close;
    } else source += escapeRegExp(char);
  }
  return source;
}
