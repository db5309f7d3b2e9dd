export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** The column that shrinks (and is truncated) to fit the width; at most one. */
  flexible?: boolean;
}

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
    const fixed = widths.reduce(
      (sum, value, index) => (index === flexIndex ? sum : sum + value + 2),
      0,
    );
    const available = Math.max(columns[flexIndex]!.header.length, width - fixed, 20);
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
