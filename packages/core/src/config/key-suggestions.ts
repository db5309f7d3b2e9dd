/**
 * Edit distance with adjacent transpositions (optimal string alignment): `embeding` -> `embedding`
 * and `serach` -> `search` are both one edit, which is what typos in a config file look like.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: columns }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = table[i]!;
      const above = table[i - 1]!;
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, table[i - 2]![j - 2]! + 1);
      }
    }
  }
  return table[a.length]![b.length]!;
}

/**
 * The known keys closest to an unknown one: every key at the smallest distance, when that
 * distance is small for the key's length (1 edit up to 4 characters, 2 up to 8, then 3). A
 * threshold keeps `colour` from being "corrected" to an unrelated key; ties are all returned
 * because picking one of them would be a guess.
 */
export function closestKeys(unknown: string, known: readonly string[]): string[] {
  const normalized = unknown.toLowerCase().replaceAll("-", "_");
  const limit = normalized.length <= 4 ? 1 : normalized.length <= 8 ? 2 : 3;
  let best = Number.POSITIVE_INFINITY;
  let matches: string[] = [];
  for (const key of known) {
    const distance = editDistance(normalized, key);
    if (distance > limit || distance > best) continue;
    if (distance < best) {
      best = distance;
      matches = [];
    }
    matches.push(key);
  }
  return matches;
}

/**
 * The 1-based line where `key` is set inside `[table]` of a TOML text, or undefined when it is
 * not found there (dotted or inline-table forms are not searched: the message then names no line).
 */
export function findKeyLine(text: string, table: string, key: string): number | undefined {
  const lines = text.split(/\r?\n/);
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const assignment = new RegExp(`^\\s*(?:${escaped}|"${escaped}"|'${escaped}')\\s*=`);
  let current: string | undefined;
  for (const [index, line] of lines.entries()) {
    const header = /^\s*\[\s*([^\][]+?)\s*\]\s*(?:#.*)?$/.exec(line);
    if (header) {
      current = header[1];
      continue;
    }
    if (current === table && assignment.test(line)) return index + 1;
  }
  return undefined;
}

/**
 * One problem line for an unknown key: where it is and the closest key(s), so a typo reads
 * "did you mean [memory].embedding_provider?" instead of a list of every allowed key.
 */
export function describeUnknownKey(
  table: string,
  key: string,
  known: readonly string[],
  source: { file?: string; text?: string },
): string {
  const line = source.text === undefined ? undefined : findKeyLine(source.text, table, key);
  const where =
    line === undefined ? "" : ` (${source.file ? `${source.file}:${line}` : `line ${line}`})`;
  const suggestions = closestKeys(key, known);
  const hint =
    suggestions.length > 0
      ? `did you mean ${suggestions.map((name) => `[${table}].${name}`).join(" or ")}?`
      : `no [${table}] key is close to it; \`memory config show\` lists the ${known.length} keys with their values (see docs/configuration.md)`;
  return `unknown key [${table}].${key}${where}: ${hint}`;
}

/** The 1-based line of the first header of `[table]` (or `[table.sub]`, `[[table]]`) in a TOML text. */
export function findTableLine(text: string, table: string): number | undefined {
  const escaped = table.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const header = new RegExp(`^\\s*\\[{1,2}\\s*(?:${escaped}|"${escaped}"|'${escaped}')\\s*[.\\]]`);
  const index = text.split(/\r?\n/).findIndex((line) => header.test(line));
  return index === -1 ? undefined : index + 1;
}
