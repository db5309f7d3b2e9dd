import { ConfigError } from "@memory/api";

/** The parts of a Hugging Face `tokenizer.json` that a BERT WordPiece tokenizer needs. */
interface TokenizerJson {
  model?: {
    type?: string;
    vocab?: Record<string, number>;
    unk_token?: string;
    continuing_subword_prefix?: string;
    max_input_chars_per_word?: number;
  };
  normalizer?: {
    type?: string;
    lowercase?: boolean;
    strip_accents?: boolean | null;
    clean_text?: boolean;
    handle_chinese_chars?: boolean;
  } | null;
  truncation?: { max_length?: number } | null;
}

export interface EncodedText {
  /** Token ids including the leading [CLS] and trailing [SEP]. */
  ids: number[];
}

/**
 * BERT's WordPiece tokenizer, reimplemented from `tokenizer.json` so that on-device embeddings
 * need no Python and no extra native package. It covers what sentence-transformers exports
 * (BertNormalizer, BertPreTokenizer, WordPiece, [CLS]/[SEP] post-processing); other tokenizer
 * types are rejected at load time rather than silently producing wrong ids.
 */
export class WordPieceTokenizer {
  private readonly vocab: Map<string, number>;
  private readonly unkId: number;
  private readonly clsId: number;
  private readonly sepId: number;
  private readonly prefix: string;
  private readonly maxCharsPerWord: number;
  private readonly lowercase: boolean;
  private readonly stripAccents: boolean;
  private readonly cleanText: boolean;
  private readonly handleChineseChars: boolean;
  /** The model's own limit from `truncation.max_length`, when the file sets one. */
  readonly maxLength: number | undefined;

  constructor(json: TokenizerJson, source = "tokenizer.json") {
    const model = json.model;
    if (model?.type !== "WordPiece" || model.vocab === undefined) {
      throw new ConfigError(
        `${source} does not describe a WordPiece tokenizer (model.type is ${String(model?.type)}): the onnx provider supports BERT-style models such as all-MiniLM-L6-v2 or bge-small-en.`,
      );
    }
    this.vocab = new Map(Object.entries(model.vocab));
    this.prefix = model.continuing_subword_prefix ?? "##";
    this.maxCharsPerWord = model.max_input_chars_per_word ?? 100;
    this.unkId = this.required(model.unk_token ?? "[UNK]", source);
    this.clsId = this.required("[CLS]", source);
    this.sepId = this.required("[SEP]", source);
    const normalizer = json.normalizer ?? {};
    this.lowercase = normalizer.lowercase ?? true;
    // BERT's rule: accents are stripped when unspecified and lowercasing is on.
    this.stripAccents = normalizer.strip_accents ?? this.lowercase;
    this.cleanText = normalizer.clean_text ?? true;
    this.handleChineseChars = normalizer.handle_chinese_chars ?? true;
    this.maxLength = json.truncation?.max_length ?? undefined;
  }

  /** Encodes one text, truncated so that with [CLS] and [SEP] it fits `maxTokens`. */
  encode(text: string, maxTokens: number): EncodedText {
    const ids: number[] = [this.clsId];
    const budget = maxTokens - 1;
    outer: for (const word of this.preTokenize(this.normalize(text))) {
      for (const id of this.wordPiece(word)) {
        if (ids.length >= budget) break outer;
        ids.push(id);
      }
    }
    ids.push(this.sepId);
    return { ids };
  }

  private required(token: string, source: string): number {
    const id = this.vocab.get(token);
    if (id === undefined) {
      throw new ConfigError(`${source} has no ${token} token in its vocabulary.`);
    }
    return id;
  }

  private normalize(text: string): string {
    let result = text;
    if (this.cleanText) {
      result = result
        .replace(/[\u0000\ufffd]|[\p{Cc}\p{Cf}](?<![\t\n\r])/gu, "")
        .replace(/\s/gu, " ");
    }
    if (this.handleChineseChars) {
      result = result.replace(/[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff]/gu, (char) => ` ${char} `);
    }
    if (this.lowercase) result = result.toLowerCase();
    if (this.stripAccents) result = result.normalize("NFD").replace(/\p{Mn}/gu, "");
    return result;
  }

  /** Splits on whitespace, and makes every punctuation character its own word, as BERT does. */
  private preTokenize(text: string): string[] {
    return text.match(/[\p{P}$+<=>^`|~]|[^\s\p{P}$+<=>^`|~]+/gu) ?? [];
  }

  /** Greedy longest-match-first split of one word into vocabulary pieces. */
  private wordPiece(word: string): number[] {
    const chars = [...word];
    if (chars.length > this.maxCharsPerWord) return [this.unkId];
    const pieces: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? this.prefix : "") + chars.slice(start, end).join("");
        found = this.vocab.get(piece);
        if (found !== undefined) break;
        end--;
      }
      // One unmatchable character makes the whole word unknown, as in the reference implementation.
      if (found === undefined) return [this.unkId];
      pieces.push(found);
      start = end;
    }
    return pieces;
  }
}
