export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** The column that shrinks (and is truncated) to fit the width; at most one. */
  flexible?: boolean;
  /**
   * For the flexible column: when the other columns leave it fewer characters than this (long
   * keys), it moves to its own indented line under each row instead of being cut to a stub.
   */
  minWidth?: number;
}

const STACKED_INDENT = "    ";

/** Collapses whitespace so a multi-line value stays on one table row. */
export function singleLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Cuts `text` to `width` characters, marking the cut with an ellipsis. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/**
 * A plain-text table: a header, then one line per row, columns separated by two spaces. The
 * flexible column takes what is left of `width` (the terminal width, or 100 when piped, so a
 * table in a log file stays readable).
 */
export function renderTable<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  width = 100,
): string[] {
  const cells = rows.map((row) => columns.map((column) => singleLine(column.value(row))));
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...cells.map((line) => line[index]?.length ?? 0)),
  );
  const flexIndex = columns.findIndex((column) => column.flexible);
  if (flexIndex >= 0) {
    const flexible = columns[flexIndex]!;
    const fixed = widths.reduce(
      (sum, value, index) => (index === flexIndex ? sum : sum + value + 2),
      0,
    );
    const room = width - fixed;
    if (flexible.minWidth !== undefined && room < Math.min(flexible.minWidth, widths[flexIndex]!))
      return stacked(cells, columns, flexIndex, widths, width);
    const available = Math.max(flexible.header.length, room, 20);
    widths[flexIndex] = Math.min(widths[flexIndex]!, available);
  }
  const format = (line: readonly string[]) =>
    line
      .map((cell, index) => {
        const cut = truncate(cell, widths[index]!);
        return index === line.length - 1 ? cut : cut.padEnd(widths[index]!);
      })
      .join("  ")
      .trimEnd();
  return [format(columns.map((column) => column.header)), ...cells.map(format)];
}

/** The table without the flexible column, each row followed by that column's value, indented. */
function stacked<Row>(
  cells: readonly string[][],
  columns: readonly Column<Row>[],
  flexIndex: number,
  widths: readonly number[],
  width: number,
): string[] {
  const without = <T>(line: readonly T[]) => line.filter((_, index) => index !== flexIndex);
  const rest = without(widths);
  const format = (line: readonly string[]) =>
    line
      .map((cell, index) => (index === line.length - 1 ? cell : cell.padEnd(rest[index]!)))
      .join("  ")
      .trimEnd();
  const lines = [format(without(columns.map((column) => column.header)))];
  for (const line of cells) {
    lines.push(format(without(line)));
    lines.push(`${STACKED_INDENT}${truncate(line[flexIndex]!, width - STACKED_INDENT.length)}`);
  }
  return lines;
}
