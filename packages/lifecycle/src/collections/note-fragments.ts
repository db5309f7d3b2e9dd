/** A piece of a note stored as one entry: its exact lines (1-based, inclusive). */
export interface NoteFragment {
  startLine: number;
  endLine: number;
  text: string;
}

/** Fragments with fewer visible characters are dropped (a bare heading, a one-word list). */
export const MIN_FRAGMENT_CHARS = 120;
/** Longer fragments are cut at paragraph breaks (then at line breaks) into pieces this long. */
export const MAX_FRAGMENT_CHARS = 3000;

const HEADING = /^#{1,6}\s+\S/;
const FENCE = /^\s*(```|~~~)/;
const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+\S/;

type Range = [start: number, end: number]; // 0-based, inclusive

/**
 * The fragments recall searches for one note: the whole note, then its sections (heading to the
 * next heading), lists and fenced code blocks. Small ones are dropped, long ones cut at
 * paragraph breaks; each keeps its line range, and one range is one fragment.
 */
export function noteFragments(lines: readonly string[], bodyStart: number): NoteFragment[] {
  const whole = trimRange(lines, [bodyStart, lines.length - 1]);
  if (!whole) return [];
  const ranges: Range[] = [];
  const add = (range: Range | undefined, keepSmall = false) => {
    const trimmed = range && trimRange(lines, range);
    if (!trimmed) return;
    for (const piece of cutLong(lines, trimmed))
      if (keepSmall || visibleChars(lines, piece) >= MIN_FRAGMENT_CHARS) ranges.push(piece);
  };
  add(whole, true);
  const structure = scanStructure(lines, whole);
  if (structure.headings.length > 0) {
    const starts =
      structure.headings[0] === whole[0] ? structure.headings : [whole[0], ...structure.headings];
    starts.forEach((start, index) => {
      add([start, (starts[index + 1] ?? whole[1] + 1) - 1]);
    });
  }
  for (const block of [...structure.lists, ...structure.code]) add(block);
  const seen = new Set<string>();
  return ranges
    .filter(([start, end]) => {
      const id = `${start}-${end}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .map(([start, end]) => ({
      startLine: start + 1,
      endLine: end + 1,
      text: lines.slice(start, end + 1).join("\n"),
    }));
}

function isBlank(line: string | undefined): boolean {
  return line === undefined || line.trim() === "";
}

function trimRange(lines: readonly string[], [start, end]: Range): Range | undefined {
  while (start <= end && isBlank(lines[start])) start++;
  while (end >= start && isBlank(lines[end])) end--;
  return start <= end ? [start, end] : undefined;
}

function visibleChars(lines: readonly string[], [start, end]: Range): number {
  let count = 0;
  for (let index = start; index <= end; index++) count += lines[index]!.replace(/\s/g, "").length;
  return count;
}

function length(lines: readonly string[], [start, end]: Range): number {
  let total = 0;
  for (let index = start; index <= end; index++) total += lines[index]!.length + 1;
  return total;
}

/** Headings, lists and code blocks of the body, outside code fences. */
function scanStructure(lines: readonly string[], [start, end]: Range) {
  const headings: number[] = [];
  const lists: Range[] = [];
  const code: Range[] = [];
  let fenceStart: number | undefined;
  let listStart: number | undefined;
  let listEnd = 0;
  const closeList = () => {
    if (listStart !== undefined) lists.push([listStart, listEnd]);
    listStart = undefined;
  };
  for (let index = start; index <= end; index++) {
    const line = lines[index]!;
    if (fenceStart !== undefined) {
      if (FENCE.test(line)) {
        code.push([fenceStart, index]);
        fenceStart = undefined;
      }
      continue;
    }
    if (FENCE.test(line)) {
      closeList();
      fenceStart = index;
    } else if (HEADING.test(line)) {
      closeList();
      headings.push(index);
    } else if (LIST_ITEM.test(line)) {
      listStart ??= index;
      listEnd = index;
    } else if (listStart !== undefined && !isBlank(line) && /^\s+\S/.test(line)) {
      listEnd = index; // an indented continuation of the item above
    } else if (listStart !== undefined && isBlank(line)) {
      if (!LIST_ITEM.test(lines[index + 1] ?? "")) closeList();
    } else closeList();
  }
  closeList();
  // An unclosed fence runs to the end of the note.
  if (fenceStart !== undefined) code.push([fenceStart, end]);
  return { headings, lists, code };
}

/** Cuts a range longer than MAX_FRAGMENT_CHARS at paragraph breaks, then at line breaks. */
function cutLong(lines: readonly string[], range: Range): Range[] {
  if (length(lines, range) <= MAX_FRAGMENT_CHARS) return [range];
  const paragraphs: Range[] = [];
  let paragraphStart: number | undefined;
  for (let index = range[0]; index <= range[1] + 1; index++) {
    if (index > range[1] || isBlank(lines[index])) {
      if (paragraphStart !== undefined) paragraphs.push([paragraphStart, index - 1]);
      paragraphStart = undefined;
    } else paragraphStart ??= index;
  }
  const units = paragraphs.flatMap((paragraph) =>
    length(lines, paragraph) <= MAX_FRAGMENT_CHARS
      ? [paragraph]
      : Array.from(
          { length: paragraph[1] - paragraph[0] + 1 },
          (_, at): Range => [paragraph[0] + at, paragraph[0] + at],
        ),
  );
  const pieces: Range[] = [];
  let current: Range | undefined;
  for (const unit of units) {
    if (current && length(lines, [current[0], unit[1]]) <= MAX_FRAGMENT_CHARS) current[1] = unit[1];
    else {
      if (current) pieces.push(current);
      current = [unit[0], unit[1]];
    }
  }
  if (current) pieces.push(current);
  return pieces;
}
