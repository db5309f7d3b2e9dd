import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import onnxProto from "onnx-proto";

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

/**
 * No real sentence-transformers model can be downloaded here, so the benchmark builds one with
 * the size of all-MiniLM-L6-v2 (30 522-token vocabulary, 384 hidden, 6 layers, 1536-wide
 * feed-forward) and random weights. It has no attention, so it is somewhat cheaper per token
 * than the real model; the numbers measure this package's pipeline plus a comparable amount of
 * matrix work, not retrieval quality.
 */
export const SYNTHETIC = { vocab: 30_522, hidden: 384, ffn: 1536, layers: 6 };

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648 - 0.5;
  };
}

function weights(name: string, dims: number[], next: () => number, scale: number) {
  const size = dims.reduce((product, dim) => product * dim, 1);
  return onnx.TensorProto.create({
    name,
    dataType: FLOAT,
    dims,
    rawData: new Uint8Array(Float32Array.from({ length: size }, () => next() * scale).buffer),
  });
}

export async function writeSyntheticBert(): Promise<string> {
  const next = random(42);
  const { vocab, hidden, ffn, layers } = SYNTHETIC;
  const initializer = [weights("embeddings", [vocab, hidden], next, 1)];
  const node = [
    onnx.NodeProto.create({ opType: "Gather", input: ["embeddings", "input_ids"], output: ["h0"] }),
  ];
  for (let layer = 0; layer < layers; layer++) {
    initializer.push(
      weights(`up${layer}`, [hidden, ffn], next, 0.1),
      weights(`down${layer}`, [ffn, hidden], next, 0.05),
    );
    const input = `h${layer}`;
    const output = layer === layers - 1 ? "last_hidden_state" : `h${layer + 1}`;
    node.push(
      onnx.NodeProto.create({
        opType: "MatMul",
        input: [input, `up${layer}`],
        output: [`u${layer}`],
      }),
      onnx.NodeProto.create({ opType: "Relu", input: [`u${layer}`], output: [`r${layer}`] }),
      onnx.NodeProto.create({
        opType: "MatMul",
        input: [`r${layer}`, `down${layer}`],
        output: [`d${layer}`],
      }),
      onnx.NodeProto.create({ opType: "Add", input: [input, `d${layer}`], output: [output] }),
    );
  }
  const shape = { dim: [{ dimParam: "batch" }, { dimParam: "seq" }] };
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: "", version: 13 }],
    graph: {
      name: "synthetic_minilm",
      node,
      initializer,
      input: ["input_ids", "attention_mask", "token_type_ids"].map((name) => ({
        name,
        type: { tensorType: { elemType: INT64, shape } },
      })),
      output: [
        {
          name: "last_hidden_state",
          type: {
            tensorType: {
              elemType: FLOAT,
              shape: { dim: [{ dimParam: "batch" }, { dimParam: "seq" }, { dimValue: hidden }] },
            },
          },
        },
      ],
    },
  });
  const dir = await mkdtemp(path.join(tmpdir(), "synthetic-minilm-"));
  await writeFile(path.join(dir, "model.onnx"), onnx.ModelProto.encode(model).finish());
  await writeFile(path.join(dir, "tokenizer.json"), JSON.stringify(tokenizerJson()));
  return dir;
}

/** A 30 522-entry WordPiece vocabulary: the words the benchmark uses plus filler pieces. */
function tokenizerJson(): unknown {
  const words = new Set(
    ["[PAD]", "[UNK]", "[CLS]", "[SEP]", ...BENCH_WORDS, ...".,!?'".split("")].concat(
      "abcdefghijklmnopqrstuvwxyz".split("").map((letter) => `##${letter}`),
    ),
  );
  for (let index = 0; words.size < SYNTHETIC.vocab; index++) words.add(`##filler${index}`);
  return {
    truncation: { max_length: 256 },
    normalizer: { type: "BertNormalizer", lowercase: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      vocab: Object.fromEntries([...words].map((word, id) => [word, id])),
    },
  };
}

const BENCH_WORDS = (
  "the a an user prefers dark mode in editor meeting moved to thursday afternoon deploy failed " +
  "because of missing environment variable database migration needs review before release " +
  "customer asked about refund policy for annual plans team decided to use postgres for storage " +
  "remember that api keys rotate every ninety days cache hit rate dropped after last change"
).split(" ");

/** Realistic memory-sized texts (8 to 30 words). */
export function benchTexts(count: number): string[] {
  const next = random(7);
  return Array.from({ length: count }, () => {
    const length = 8 + Math.floor((next() + 0.5) * 22);
    const words = Array.from(
      { length },
      () => BENCH_WORDS[Math.floor((next() + 0.5) * BENCH_WORDS.length)] ?? "the",
    );
    return `${words.join(" ")}.`;
  });
}
