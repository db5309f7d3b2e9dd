import type { CollectionProblem } from "./collection-types.js";

/** The content types a note can have (frontmatter `content_type`, or guessed from its path). */
export const CONTENT_TYPES = [
  "decision",
  "research",
  "project",
  "handoff",
  "conversation",
  "progress",
  "note",
] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** The frontmatter fields a note may set; each is type-checked, others are ignored. */
export interface NoteFrontmatter {
  title?: string;
  tags?: string[];
  contentType?: ContentType;
  /** RFC 3339 UTC (ISO with milliseconds). */
  authoredAt?: string;
}

export interface ParsedFrontmatter {
  fields: NoteFrontmatter;
  /** 0-based index of the first body line (after the closing `---`). */
  bodyStart: number;
  problems: CollectionProblem[];
}

type RawValue = { value: string | string[]; line: number };

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

function unquote(text: string): string {
  const trimmed = text.trim();
  if (
    trimmed.length >= 2 &&
    ((trimmed.startsWith('"') && trimmed.endsWith('"')) ||
      (trimmed.startsWith("'") && trimmed.endsWith("'")))
  )
    return trimmed.slice(1, -1);
  return trimmed;
}

/**
 * Reads the YAML frontmatter at the top of a note (between `---` lines): flat `key: value`
 * fields, `[a, b]` and `- item` lists. It is a deliberately small reader: the four fields it
 * knows are type-checked, and a bad one is reported with its file:line while the note is still
 * indexed (without that field).
 */
export function parseFrontmatter(lines: readonly string[], path: string): ParsedFrontmatter {
  const none: ParsedFrontmatter = { fields: {}, bodyStart: 0, problems: [] };
  if (lines[0]?.trimEnd() !== "---") return none;
  const close = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\s*$/.test(line));
  if (close < 0)
    return {
      ...none,
      problems: [
        {
          path,
          line: 1,
          code: "FRONTMATTER",
          message: "frontmatter opened with --- is never closed: add a --- line after its fields",
        },
      ],
    };
  const raw = new Map<string, RawValue>();
  let listKey: string | undefined;
  for (let index = 1; index < close; index++) {
    const line = lines[index]!;
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && listKey) {
      const current = raw.get(listKey)!;
      if (Array.isArray(current.value)) current.value.push(unquote(item[1]!));
      continue;
    }
    const field = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*(.*)$/.exec(line);
    if (!field) continue;
    const [, key, value] = field as unknown as [string, string, string];
    listKey = undefined;
    if (value.trim() === "") {
      raw.set(key, { value: [], line: index + 1 });
      listKey = key;
    } else if (/^\[.*\]$/.test(value.trim())) {
      const inner = value.trim().slice(1, -1).trim();
      raw.set(key, {
        value: inner === "" ? [] : inner.split(",").map((part) => unquote(part)),
        line: index + 1,
      });
    } else raw.set(key, { value: unquote(value), line: index + 1 });
  }
  const problems: CollectionProblem[] = [];
  const bad = (key: string, line: number, expected: string, got: string | string[]) =>
    problems.push({
      path,
      line,
      code: "FRONTMATTER",
      message: `${key} must be ${expected}, got ${JSON.stringify(got)}: fix it in the note (the note is indexed without it)`,
    });
  const fields: NoteFrontmatter = {};
  const title = raw.get("title");
  if (title) {
    if (typeof title.value === "string" && title.value.trim() !== "")
      fields.title = title.value.trim();
    else bad("title", title.line, "a non-empty text", title.value);
  }
  const tags = raw.get("tags");
  if (tags) {
    const list = typeof tags.value === "string" ? [tags.value] : tags.value;
    if (list.every((tag) => tag.trim() !== "" && !tag.includes("\n")))
      fields.tags = list.map((tag) => tag.trim());
    else bad("tags", tags.line, "a list of non-empty texts", tags.value);
  }
  const type = raw.get("content_type");
  if (type) {
    if (typeof type.value === "string" && (CONTENT_TYPES as readonly string[]).includes(type.value))
      fields.contentType = type.value as ContentType;
    else bad("content_type", type.line, `one of ${CONTENT_TYPES.join(", ")}`, type.value);
  }
  const authored = raw.get("authored_at");
  if (authored) {
    const text = typeof authored.value === "string" ? authored.value : "";
    const time = DATE_ONLY.test(text)
      ? Date.parse(`${text}T00:00:00Z`)
      : DATE_TIME.test(text)
        ? Date.parse(text.replace(" ", "T"))
        : Number.NaN;
    if (Number.isFinite(time)) fields.authoredAt = new Date(time).toISOString();
    else
      bad(
        "authored_at",
        authored.line,
        "a date (2026-01-31) or a time with its offset (2026-01-31T09:00:00+01:00)",
        authored.value,
      );
  }
  return { fields, bodyStart: close + 1, problems };
}
