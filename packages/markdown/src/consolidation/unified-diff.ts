/** Lines of context around each change, as `diff -u` and git print them. */
export const DIFF_CONTEXT = 3;

// Above this many cells the middle part is not aligned line by line but shown as replaced whole
// (a memory file of thousands of changed lines: the diff is still correct, only less minimal).
const MAX_CELLS = 4_000_000;

type Op = { kind: " " | "-" | "+"; text: string };

/** Splits text into lines without their line breaks (a last empty line is not a line). */
function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The edit script of `a` into `b`: common prefix and suffix, and an LCS alignment between. */
function editScript(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = a.slice(0, start).map((text) => ({ kind: " ", text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  if (n * m > MAX_CELLS || n === 0 || m === 0) {
    for (const text of midA) ops.push({ kind: "-", text });
    for (const text of midB) ops.push({ kind: "+", text });
  } else {
    // lcs[i][j]: the longest common subsequence of midA[i..] and midB[j..].
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lcs[i * width + j] =
          midA[i] === midB[j]
            ? (lcs[(i + 1) * width + j + 1] as number) + 1
            : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        ops.push({ kind: " ", text: midA[i] as string });
        i++;
        j++;
      } else if (
        j >= m ||
        (i < n && (lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number))
      ) {
        ops.push({ kind: "-", text: midA[i] as string });
        i++;
      } else {
        ops.push({ kind: "+", text: midB[j] as string });
        j++;
      }
    }
  }
  for (const text of a.slice(endA)) ops.push({ kind: " ", text });
  return ops;
}

/**
 * A unified diff (`diff -u` / `git diff` format, {@link DIFF_CONTEXT} lines of context) from
 * `before` to `after`, with `--- a/<path>` and `+++ b/<path>` headers; "" when the texts have the
 * same lines. Line breaks are compared as lines, not as bytes (CRLF and LF lines are equal).
 */
export function unifiedDiff(before: string, after: string, path: string): string {
  const ops = editScript(linesOf(before), linesOf(after));
  const changes = ops.flatMap((op, index) => (op.kind === " " ? [] : [index]));
  if (changes.length === 0) return "";
  // Group changes whose contexts touch into hunks.
  const hunks: [number, number][] = [];
  for (const index of changes) {
    const last = hunks.at(-1);
    if (last && index - last[1] - 1 <= 2 * DIFF_CONTEXT) last[1] = index;
    else hunks.push([index, index]);
  }
  // Line numbers (1-based) of each op in the old and the new text.
  const oldLine: number[] = [];
  const newLine: number[] = [];
  let oldCount = 0;
  let newCount = 0;
  for (const op of ops) {
    oldLine.push(oldCount + 1);
    newLine.push(newCount + 1);
    if (op.kind !== "+") oldCount++;
    if (op.kind !== "-") newCount++;
  }
  const out = [`--- a/${path}`, `+++ b/${path}`];
  for (const [first, last] of hunks) {
    const from = Math.max(0, first - DIFF_CONTEXT);
    const to = Math.min(ops.length - 1, last + DIFF_CONTEXT);
    const slice = ops.slice(from, to + 1);
    const oldLength = slice.filter((op) => op.kind !== "+").length;
    const newLength = slice.filter((op) => op.kind !== "-").length;
    const oldStart = oldLength === 0 ? (oldLine[from] as number) - 1 : (oldLine[from] as number);
    const newStart = newLength === 0 ? (newLine[from] as number) - 1 : (newLine[from] as number);
    out.push(`@@ -${oldStart},${oldLength} +${newStart},${newLength} @@`);
    for (const op of slice) out.push(`${op.kind}${op.text}`);
  }
  return `${out.join("\n")}\n`;
}
