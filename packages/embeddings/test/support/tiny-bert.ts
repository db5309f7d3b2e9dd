import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import onnxProto from "onnx-proto";

const { onnx } = onnxProto;

export const TINY_VOCAB = [
  "[PAD]",
  "[UNK]",
  "[CLS]",
  "[SEP]",
  "hello",
  "world",
  ",",
  "!",
  "un",
  "##happi",
  "##ness",
  "cafe",
  "the",
  "cat",
  "sat",
  "on",
  "mat",
  "a",
  "dog",
  "##s",
  "run",
];
export const HIDDEN = 4;

/** Deterministic, distinct rows so pooled vectors differ per text. */
export function wordTable(): number[][] {
  return TINY_VOCAB.map((_, row) =>
    Array.from(
      { length: HIDDEN },
      (_, col) => Math.round(Math.sin(row * 7 + col * 3 + 1) * 100) / 100,
    ),
  );
}
export const TYPE_TABLE = [
  [0.5, -0.25, 0.125, 0],
  [9, 9, 9, 9],
];

export interface TinyBertOptions {
  /** Declare a token_type_ids input (BERT) or not (DistilBERT-style). */
  tokenTypes: boolean;
  /** Store the word table as int8 behind DequantizeLinear, like a quantized export. */
  int8: boolean;
}

const INT8_SCALE = 0.01;

/** The word table as the int8 model really computes it (quantized, then dequantized). */
export function effectiveWordTable(int8: boolean): number[][] {
  const table = wordTable();
  return int8
    ? table.map((row) =>
        row.map((value) => Math.round(value / INT8_SCALE) * Math.fround(INT8_SCALE)),
      )
    : table;
}

function dims(...names: (string | number)[]) {
  return {
    dim: names.map((name) => (typeof name === "number" ? { dimValue: name } : { dimParam: name })),
  };
}

function intInput(name: string) {
  return {
    name,
    type: {
      tensorType: { elemType: onnx.TensorProto.DataType.INT64, shape: dims("batch", "seq") },
    },
  };
}

/**
 * Builds a BERT-shaped ONNX graph: input_ids -> Gather(word table) [+ Gather(type table) over
 * token_type_ids] -> last_hidden_state [batch, seq, hidden]. It has the same inputs, outputs and
 * dtypes as a real sentence-transformers export, so the provider's full code path runs on it.
 */
export function buildTinyBert(options: TinyBertOptions): Uint8Array {
  const table = wordTable();
  const initializer: InstanceType<typeof onnx.TensorProto>[] = [];
  const node: InstanceType<typeof onnx.NodeProto>[] = [];
  if (options.int8) {
    initializer.push(
      onnx.TensorProto.create({
        name: "word_table_q",
        dataType: onnx.TensorProto.DataType.INT8,
        dims: [TINY_VOCAB.length, HIDDEN],
        int32Data: table.flat().map((value) => Math.round(value / INT8_SCALE)),
      }),
      onnx.TensorProto.create({
        name: "scale",
        dataType: onnx.TensorProto.DataType.FLOAT,
        dims: [],
        floatData: [INT8_SCALE],
      }),
      onnx.TensorProto.create({
        name: "zero",
        dataType: onnx.TensorProto.DataType.INT8,
        dims: [],
        int32Data: [0],
      }),
    );
    node.push(
      onnx.NodeProto.create({
        opType: "DequantizeLinear",
        input: ["word_table_q", "scale", "zero"],
        output: ["word_table"],
      }),
    );
  } else {
    initializer.push(
      onnx.TensorProto.create({
        name: "word_table",
        dataType: onnx.TensorProto.DataType.FLOAT,
        dims: [TINY_VOCAB.length, HIDDEN],
        floatData: table.flat(),
      }),
    );
  }
  node.push(
    onnx.NodeProto.create({
      opType: "Gather",
      input: ["word_table", "input_ids"],
      output: ["words"],
    }),
  );
  const input = [intInput("input_ids"), intInput("attention_mask")];
  if (options.tokenTypes) {
    input.push(intInput("token_type_ids"));
    initializer.push(
      onnx.TensorProto.create({
        name: "type_table",
        dataType: onnx.TensorProto.DataType.FLOAT,
        dims: [2, HIDDEN],
        floatData: TYPE_TABLE.flat(),
      }),
    );
    node.push(
      onnx.NodeProto.create({
        opType: "Gather",
        input: ["type_table", "token_type_ids"],
        output: ["types"],
      }),
      onnx.NodeProto.create({
        opType: "Add",
        input: ["words", "types"],
        output: ["last_hidden_state"],
      }),
    );
  } else {
    node.push(
      onnx.NodeProto.create({
        opType: "Identity",
        input: ["words"],
        output: ["last_hidden_state"],
      }),
    );
  }
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: "", version: 13 }],
    producerName: "memory-embeddings-test",
    graph: {
      name: "tiny_bert",
      node,
      initializer,
      input,
      output: [
        {
          name: "last_hidden_state",
          type: {
            tensorType: {
              elemType: onnx.TensorProto.DataType.FLOAT,
              shape: dims("batch", "seq", HIDDEN),
            },
          },
        },
      ],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/** A minimal Hugging Face tokenizer.json for the tiny vocabulary (BERT uncased settings). */
export function tinyTokenizerJson(maxLength?: number): unknown {
  return {
    version: "1.0",
    truncation:
      maxLength === undefined ? null : { max_length: maxLength, strategy: "LongestFirst" },
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(TINY_VOCAB.map((token, id) => [token, id])),
    },
  };
}

/** Writes a model directory and returns its path. */
export async function writeTinyBert(options: TinyBertOptions, maxLength?: number): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "tiny-bert-"));
  await writeFile(path.join(dir, "model.onnx"), buildTinyBert(options));
  await writeFile(path.join(dir, "tokenizer.json"), JSON.stringify(tinyTokenizerJson(maxLength)));
  return dir;
}

/** What the provider should return: mean of token rows (+ type row 0), L2-normalized. */
export function expectedVector(ids: number[], options: TinyBertOptions): number[] {
  const table = effectiveWordTable(options.int8);
  const mean = new Array<number>(HIDDEN).fill(0);
  for (const id of ids) {
    for (let col = 0; col < HIDDEN; col++) {
      const typeShift = options.tokenTypes ? (TYPE_TABLE[0]?.[col] ?? 0) : 0;
      mean[col] = (mean[col] ?? 0) + ((table[id]?.[col] ?? 0) + typeShift) / ids.length;
    }
  }
  const norm = Math.sqrt(mean.reduce((sum, value) => sum + value * value, 0));
  return mean.map((value) => value / norm);
}
