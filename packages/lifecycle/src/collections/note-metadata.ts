import path from "node:path";
import type { ContentType } from "./frontmatter.js";

// The first rule whose words appear as a path segment (or a word of the file name) decides.
const PATH_TYPES: readonly [ContentType, RegExp][] = [
  ["decision", /(^|[/_\-. ])(decisions?|adrs?|rfcs?)([/_\-. ]|\d|$)/i],
  ["research", /(^|[/_\-. ])(research|papers?|reading|literature)([/_\-. ]|$)/i],
  ["handoff", /(^|[/_\-. ])(handoffs?|hand-offs?)([/_\-. ]|$)/i],
  ["conversation", /(^|[/_\-. ])(conversations?|chats?|transcripts?|meetings?)([/_\-. ]|$)/i],
  ["progress", /(^|[/_\-. ])(progress|status|standups?|journal|daily|changelog)([/_\-. ]|$)/i],
  ["project", /(^|[/_\-. ])(projects?)([/_\-. ]|$)/i],
];

/** A note's content type from its path (`decisions/0007-cache.md` is a decision). */
export function contentTypeFromPath(relative: string): ContentType {
  for (const [type, pattern] of PATH_TYPES) if (pattern.test(relative)) return type;
  return "note";
}

/** The note's title: the frontmatter's, else its first heading's, else the file name's. */
export function noteTitle(
  frontmatterTitle: string | undefined,
  bodyLines: readonly string[],
  relative: string,
): string {
  if (frontmatterTitle) return frontmatterTitle;
  let fenced = false;
  for (const line of bodyLines) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading?.[1]) return heading[1];
  }
  return path.posix.basename(relative).replace(/\.[^.]+$/, "");
}
