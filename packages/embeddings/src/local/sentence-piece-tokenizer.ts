/** One vocabulary entry of the Universal Sentence Encoder lite model: [piece, log-probability]. */
export type VocabularyEntry = readonly [piece: string, score: number];

/** SentencePiece's word-start marker (U+2581, "lower one eighth block"), which replaces spaces. */
const WORD_START = "\u2581";
/** Ids 0..5 are unk, control and user-defined symbols: never matched against text. */
const RESERVED_SYMBOLS = 6;
const UNKNOWN_ID = 0;

interface TrieNode {
  children: Map<string, TrieNode>;
  /** The vocabulary id of the piece ending here, when one does. */
  id?: number;
  score: number;
}

interface Piece {
  start: number;
  id: number;
  score: number;
}

/**
 * The unigram SentencePiece encoder the Universal Sentence Encoder lite model was trained with
 * (a Viterbi search over a lattice of vocabulary pieces), written here so that the offline model
 * needs no package from tfjs-models: `@tensorflow-models/universal-sentence-encoder` peers on
 * tfjs 3 while the model runs on tfjs 4, which npm refuses to install (ERESOLVE).
 *
 * It must produce the very ids that package's tokenizer produces, or every stored vector would
 * silently change meaning; test/fixtures/use-tokenizer-golden.json pins them. That is why its
 * quirks are kept on purpose:
 * - text is walked in UTF-16 code units, not code points (an emoji is two unknown symbols);
 * - a position reached with score exactly 0 counts as "not reached yet" and is overwritten;
 * - on equal scores the later candidate (the one starting further right) wins;
 * - consecutive unknown symbols collapse into one unknown id.
 */
export class SentencePieceTokenizer {
  private readonly root: TrieNode = { children: new Map(), score: 0 };

  constructor(private readonly vocabulary: readonly VocabularyEntry[]) {
    for (let id = RESERVED_SYMBOLS; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id] as VocabularyEntry;
      this.insert(piece, score, id);
    }
  }

  encode(input: string): number[] {
    const symbols = normalize(input);
    const length = symbols.length;
    // endingAt[end] lists the pieces that end at `end`, by ascending start.
    const endingAt: Piece[][] = Array.from({ length: length + 1 }, () => []);
    for (let start = 0; start < length; start++) {
      let matched = false;
      let node = this.root.children.get(symbols[start] as string);
      for (let end = start + 1; node !== undefined; end++) {
        if (node.id !== undefined) {
          (endingAt[end] as Piece[]).push({ start, id: node.id, score: node.score });
          matched = true;
        }
        if (end >= length) break;
        node = node.children.get(symbols[end] as string);
      }
      if (!matched) {
        (endingAt[start + 1] as Piece[]).push({ start, id: UNKNOWN_ID, score: 0 });
      }
    }

    const best = new Float64Array(length + 1);
    const bestId = new Int32Array(length + 1);
    for (let end = 0; end <= length; end++) {
      for (const piece of endingAt[end] as Piece[]) {
        const score = piece.score + (best[piece.start] as number);
        if (best[end] === 0 || score >= (best[end] as number)) {
          best[end] = score;
          bestId[end] = piece.id;
        }
      }
    }

    // Walk back from the end by each chosen piece's length, collapsing runs of unknowns.
    const reversed: number[] = [];
    let previousUnknown = false;
    for (let position = length; position > 0; ) {
      const id = bestId[position] as number;
      if (!(previousUnknown && id === UNKNOWN_ID)) reversed.push(id);
      previousUnknown = id === UNKNOWN_ID;
      position -= (this.vocabulary[id] as VocabularyEntry)[0].length;
    }
    return reversed.reverse();
  }

  private insert(piece: string, score: number, id: number): void {
    if (piece.length === 0) return;
    let node = this.root;
    for (let index = 0; index < piece.length; index++) {
      const symbol = piece[index] as string;
      let child = node.children.get(symbol);
      if (child === undefined) {
        child = { children: new Map(), score: 0 };
        node.children.set(symbol, child);
      }
      node = child;
    }
    node.id = id;
    node.score = score;
  }
}

/** NFKC, then spaces become word-start markers and the text starts with one. */
function normalize(input: string): string {
  const normalized = input.normalize("NFKC");
  return normalized.length > 0 ? WORD_START + normalized.replaceAll(" ", WORD_START) : normalized;
}
