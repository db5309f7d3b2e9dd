import type { StatementCache } from "../statement-cache.js";
import type { ChangeListener, RowChange } from "./recall-rows.js";

/**
 * Files holding more entries than this keep no index: FTS5 ranks their matches. Past a few
 * thousand entries the rarest-terms selection keeps FTS5's work small, while building the index
 * (after a start over) and holding it grow with the file (docs/benchmarks.md, "an in-memory
 * keyword index for small files").
 */
export const KEYWORD_INDEX_MAX = 5_000;

/** After a start over, FTS5 answers one recall per this many entries before the index is built. */
export const WAIT_DIVISOR = 16;

// FTS5's bm25() constants (ext/fts5/fts5_aux.c).
const K1 = 1.2;
const B = 0.75;

/** Namespace numbers kept (emptied namespaces too) before the index is built again. */
const NAMESPACE_IDS_MAX = 2 * KEYWORD_INDEX_MAX;

/** Logarithms kept (by argument) before the cache starts over. */
const LOGS_MAX = 4_096;

/** What FTS5's `ascii` tokenizer splits on: every ASCII character but letters and digits. */
const SEPARATORS = /[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+/;
const UPPER = /[A-Z]/;
/** A character other than a space that the fast path would not keep in a token as it is. */
const NOT_PLAIN = /[\x00-\x1f\x21-\x2f\x3a-\x60\x7b-\x7f]/;
const UPPER_RUNS = /[A-Z]+/g;

/**
 * The tokens FTS5's `ascii` tokenizer makes of a text: runs of ASCII letters and digits and of
 * non-ASCII characters, ASCII letters folded to lower case (nothing else is folded).
 */
export function asciiTokens(text: string): string[] {
  // The analyzer's terms hold only lower-case letters, digits and non-ASCII characters, one
  // space apart: split on the spaces alone (about twice as fast).
  if (!NOT_PLAIN.test(text)) {
    const parts = text.split(" ");
    return parts.includes("") ? parts.filter((part) => part !== "") : parts;
  }
  const tokens: string[] = [];
  for (const part of text.split(SEPARATORS)) {
    if (part === "") continue;
    tokens.push(UPPER.test(part) ? part.replace(UPPER_RUNS, (run) => run.toLowerCase()) : part);
  }
  return tokens;
}

/** The rows holding one term, as parallel arrays: each row's slot and how often it holds the term. */
interface Postings {
  slots: number[];
  counts: number[];
}

/**
 * The full-text index of a small file kept in memory, so that a recall ranks its matches without
 * an FTS5 query. On a 419-entry conversation FTS5 spends about 0.3 ms on the best 40 matches of
 * a question (it reads every match's position list and its length row to score it); the same
 * ranking from these arrays takes a few tens of microseconds.
 *
 * The ranking is FTS5's, not a look-alike: `best` returns the doc ids `ORDER BY
 * bm25(memories_fts), rowid LIMIT pool` would, computing bm25() with FTS5's formula, constants and
 * order of operations over the same tokens (the analyzer's terms, each one token of the `ascii`
 * tokenizer; `asciiTokens` splits exactly as it does) and the same whole-file statistics.
 * test/keyword-index.test.ts compares the two, order included, after every few writes.
 *
 * Built from every row's search terms, only for files of at most {@link KEYWORD_INDEX_MAX}
 * entries, and kept current by the change log with the kept rows (recall-rows.ts): a written
 * row's terms are taken out and its current terms put in. When the kept rows start over (a bulk
 * import, a pruned log, a reopened file, a caller's transaction) so does the index.
 *
 * Building costs about 12 us per entry (12 ms at 1,000), the saving is one FTS5 ranking per
 * recall (0.1 to 0.3 ms): so FTS5 answers the first `entries / 16` recalls after each start over
 * ({@link WAIT_DIVISOR}), and only then is the index built. A store that starts over after every
 * few recalls (bulk imports between them) never pays for a build it cannot earn back; one
 * recalled again and again pays at most about twice what it would have paid knowing ahead.
 */
export class KeywordIndex implements ChangeListener {
  /** Recalls FTS5 answers after a start over before the index is built (at `entries` entries). */
  readonly #waitFor: (entries: number) => number;
  /** Entries in the file while not built (followed by the log); undefined: not read yet. */
  #entries: number | undefined;
  /** Recalls FTS5 answered since the last start over. */
  #waited = 0;
  #built = false;
  readonly #slotOf = new Map<number, number>();
  readonly #docIds: number[] = [];
  readonly #lengths: number[] = [];
  /** Whether each slot's row is superseded (`superseded_by` set): scored, but not returned for live-only asks. */
  readonly #superseded: boolean[] = [];
  /** Each slot's namespace, as a number of `#namespaceIds`. */
  readonly #namespaceOf: number[] = [];
  readonly #namespaceIds = new Map<string, number>();
  /** Each slot's distinct terms (to take the row out again). */
  readonly #termsOf: (number[] | undefined)[] = [];
  readonly #freeSlots: number[] = [];
  readonly #termIdOf = new Map<string, number>();
  readonly #termText: string[] = [];
  readonly #postings: Postings[] = [];
  readonly #freeTerms: number[] = [];
  /** Total tokens over all rows (FTS5's column total size). */
  #tokens = 0;
  /** Scores by slot while `best` runs; zero elsewhere. */
  #scores = new Float64Array(0);
  /** SQLite's `ln()` by argument (see `#idf`). */
  readonly #logs = new Map<number, number>();

  constructor(options: { waitFor?: (entries: number) => number } = {}) {
    this.#waitFor = options.waitFor ?? ((entries) => Math.ceil(entries / WAIT_DIVISOR));
  }

  /**
   * The doc ids of the best `pool` rows matching any of `phrases` (each one token of the `ascii`
   * tokenizer), in FTS5's bm25 order, ties by doc id; undefined when the index cannot answer (the
   * file is too large, or a phrase is not one token) and FTS5 must. Only rows of `only.namespace`
   * and, with `only.live`, rows not superseded are returned; every row counts in the statistics,
   * as in FTS5 (BM25 over the whole file). Runs in the read transaction the kept rows were
   * positioned in, never in a caller's transaction.
   */
  best(
    statements: StatementCache,
    phrases: readonly string[],
    pool: number,
    only: { namespace?: string; live?: boolean } = {},
  ): number[] | undefined {
    const tokens = this.#ready(statements, phrases);
    if (tokens === undefined) return undefined;
    // A namespace no row is in: -1, which no slot holds.
    const namespace =
      only.namespace === undefined ? undefined : (this.#namespaceIds.get(only.namespace) ?? -1);
    if (pool <= 0 || namespace === -1) return [];
    const touched = this.#score(statements, tokens);
    const best = this.#bestOf(touched, pool, namespace, only.live === true);
    for (const slot of touched) this.#scores[slot] = 0;
    return best.map((slot) => this.#docIds[slot]!);
  }

  /**
   * Every matching row's bm25() as FTS5 returns it (negated: lower is better), by doc id; what
   * `best` orders by (test/keyword-index.test.ts compares the two bit for bit).
   */
  bm25(statements: StatementCache, phrases: readonly string[]): Map<number, number> | undefined {
    const tokens = this.#ready(statements, phrases);
    if (tokens === undefined) return undefined;
    const scores = new Map<number, number>();
    for (const slot of this.#score(statements, tokens)) {
      scores.set(this.#docIds[slot]!, -1.0 * this.#scores[slot]!);
      this.#scores[slot] = 0;
    }
    return scores;
  }

  /** The phrases' tokens once the index can answer them (built if due), else undefined. */
  #ready(statements: StatementCache, phrases: readonly string[]): string[] | undefined {
    const tokens = phrases.map((phrase) => asciiTokens(phrase));
    if (tokens.some((parts) => parts.length !== 1)) return undefined;
    if (!this.#built) {
      this.#entries ??= statements
        .get("SELECT coalesce(sum(documents), 0) FROM namespace_stats")
        .pluck()
        .get() as number;
      if (this.#entries > KEYWORD_INDEX_MAX) return undefined;
      if (this.#waited < this.#waitFor(this.#entries)) {
        this.#waited++;
        return undefined;
      }
      this.#build(statements);
    }
    return tokens.map(([token]) => token!);
  }

  /**
   * Scores every row matching a token into `#scores` (the caller sets them back to 0) and
   * returns their slots: phrase by phrase, as bm25() adds them, so each row's sum is taken in
   * the same order, with the same operations.
   */
  #score(statements: StatementCache, tokens: readonly string[]): number[] {
    const count = this.#slotOf.size;
    const touched: number[] = [];
    if (count === 0) return touched;
    const averageLength = this.#tokens / count;
    const scores = this.#scores;
    for (const token of tokens) {
      const termId = this.#termIdOf.get(token);
      if (termId === undefined) continue;
      const { slots, counts } = this.#postings[termId]!;
      const hits = slots.length;
      const idf = this.#idf(statements, count, hits);
      for (let index = 0; index < hits; index++) {
        const slot = slots[index]!;
        const frequency = counts[index]!;
        const length = this.#lengths[slot]!;
        const score = scores[slot]!;
        // Every term adds more than 0, so a zero score is a row not yet touched.
        if (score === 0) touched.push(slot);
        scores[slot] =
          score +
          idf *
            ((frequency * (K1 + 1.0)) / (frequency + K1 * (1 - B + (B * length) / averageLength)));
      }
    }
    return touched;
  }

  /**
   * FTS5's inverse document frequency of a phrase in `hits` of `count` rows. The logarithm is
   * SQLite's own `ln()`, the C library's `log()` that FTS5 calls: V8's `Math.log` differs from it
   * in the last bit for about 7% of arguments, which could order two nearly equal scores
   * otherwise. Arguments repeat (the same counts recall after recall), so each is asked once.
   */
  #idf(statements: StatementCache, count: number, hits: number): number {
    const argument = (count - hits + 0.5) / (hits + 0.5);
    let log = this.#logs.get(argument);
    if (log === undefined) {
      if (this.#logs.size >= LOGS_MAX) this.#logs.clear();
      log = statements.get("SELECT ln(?)").pluck().get(argument) as number;
      this.#logs.set(argument, log);
    }
    return log <= 0 ? 1e-6 : log;
  }

  /** The best `pool` of the touched slots: highest score first, then lowest doc id. */
  #bestOf(
    touched: readonly number[],
    pool: number,
    namespace: number | undefined,
    live: boolean,
  ): number[] {
    const scores = this.#scores;
    const docIds = this.#docIds;
    const superseded = this.#superseded;
    const namespaceOf = this.#namespaceOf;
    const before = (a: number, b: number) =>
      scores[a]! > scores[b]! || (scores[a] === scores[b] && docIds[a]! < docIds[b]!);
    const best: number[] = [];
    for (const slot of touched) {
      if (
        (live && superseded[slot]) ||
        (namespace !== undefined && namespaceOf[slot] !== namespace)
      )
        continue;
      if (best.length === pool && !before(slot, best[pool - 1]!)) continue;
      let at = best.length === pool ? pool - 1 : best.length;
      while (at > 0 && before(slot, best[at - 1]!)) {
        best[at] = best[at - 1]!;
        at--;
      }
      best[at] = slot;
    }
    return best;
  }

  followed(
    _statements: StatementCache,
    _from: string,
    _to: string,
    changes: readonly RowChange[],
  ): void {
    if (!this.#built) {
      if (this.#entries !== undefined)
        for (const { before, after } of changes)
          this.#entries += (after ? 1 : 0) - (before ? 1 : 0);
      return;
    }
    for (const { docId, before, after } of changes) {
      const slot = this.#slotOf.get(docId);
      // Pins, snoozes, supersessions and moves leave the terms as they were.
      if (slot !== undefined && after && before?.terms != null && before.terms === after.terms) {
        this.#superseded[slot] = after.superseded;
        this.#namespaceOf[slot] = this.#namespaceId(after.namespace);
        continue;
      }
      this.#remove(docId);
      if (after) this.#add(docId, after.terms, after.namespace, after.superseded);
    }
    if (this.#slotOf.size > KEYWORD_INDEX_MAX) {
      const entries = this.#slotOf.size;
      this.startedOver();
      this.#entries = entries;
    } else if (this.#namespaceIds.size > NAMESPACE_IDS_MAX) {
      // Namespaces that came and went keep their numbers until the next build.
      this.startedOver();
    }
  }

  startedOver(): void {
    this.#entries = undefined;
    this.#waited = 0;
    if (!this.#built) return;
    this.#built = false;
    this.#slotOf.clear();
    this.#docIds.length = 0;
    this.#lengths.length = 0;
    this.#superseded.length = 0;
    this.#namespaceOf.length = 0;
    this.#namespaceIds.clear();
    this.#termsOf.length = 0;
    this.#freeSlots.length = 0;
    this.#termIdOf.clear();
    this.#termText.length = 0;
    this.#postings.length = 0;
    this.#freeTerms.length = 0;
    this.#tokens = 0;
  }

  /** Reads every row's terms. */
  #build(statements: StatementCache): void {
    const rows = statements
      .get("SELECT doc_id, search_terms, namespace, superseded_by IS NOT NULL FROM memories")
      .raw(true)
      .iterate() as IterableIterator<[number, string, string, number]>;
    for (const [docId, terms, namespace, superseded] of rows)
      this.#add(docId, terms, namespace, superseded === 1);
    this.#built = true;
    this.#entries = undefined;
  }

  #namespaceId(namespace: string): number {
    let id = this.#namespaceIds.get(namespace);
    if (id === undefined) {
      id = this.#namespaceIds.size;
      this.#namespaceIds.set(namespace, id);
    }
    return id;
  }

  #add(docId: number, text: string, namespace: string, superseded: boolean): void {
    const tokens = asciiTokens(text);
    const slot = this.#freeSlots.pop() ?? this.#docIds.length;
    this.#slotOf.set(docId, slot);
    this.#docIds[slot] = docId;
    this.#lengths[slot] = tokens.length;
    this.#superseded[slot] = superseded;
    this.#namespaceOf[slot] = this.#namespaceId(namespace);
    this.#tokens += tokens.length;
    const termIds: number[] = [];
    for (const token of tokens) {
      let termId = this.#termIdOf.get(token);
      if (termId === undefined) {
        termId = this.#freeTerms.pop() ?? this.#postings.length;
        this.#termIdOf.set(token, termId);
        this.#termText[termId] = token;
        this.#postings[termId] = { slots: [], counts: [] };
      }
      const { slots, counts } = this.#postings[termId]!;
      // This row's posting, if any, is the term's last one: a repeat counts there.
      const last = slots.length - 1;
      if (last >= 0 && slots[last] === slot) counts[last]!++;
      else {
        slots.push(slot);
        counts.push(1);
        termIds.push(termId);
      }
    }
    this.#termsOf[slot] = termIds;
    if (this.#scores.length <= slot) {
      const grown = new Float64Array(Math.max(64, (slot + 1) * 2));
      grown.set(this.#scores);
      this.#scores = grown;
    }
  }

  #remove(docId: number): void {
    const slot = this.#slotOf.get(docId);
    if (slot === undefined) return;
    this.#slotOf.delete(docId);
    this.#tokens -= this.#lengths[slot]!;
    for (const termId of this.#termsOf[slot]!) {
      const postings = this.#postings[termId]!;
      const at = postings.slots.indexOf(slot);
      // Order within a term's postings does not matter: move the last one into the gap.
      postings.slots[at] = postings.slots[postings.slots.length - 1]!;
      postings.counts[at] = postings.counts[postings.counts.length - 1]!;
      postings.slots.pop();
      postings.counts.pop();
      if (postings.slots.length === 0) {
        this.#termIdOf.delete(this.#termText[termId]!);
        this.#freeTerms.push(termId);
      }
    }
    this.#termsOf[slot] = undefined;
    this.#freeSlots.push(slot);
  }
}
