/**
 * Dot products of one int8 query against many int8 vectors. The hot loop of vector recall, so
 * it runs as a tiny hand-assembled WebAssembly SIMD function (i32x4.dot_i16x8_s handles 8
 * products per instruction); a plain JavaScript loop is the fallback where WASM SIMD is missing.
 */

// (func $scan (param $query i32) (param $base i32) (param $count i32) (param $dims i32) (param $out i32))
// query: dims int16 at $query; vectors: $count x $dims int8 from $base; out: $count int32.
// dims must be a multiple of 16.
const SCAN_BODY = [
  0x02,
  0x03,
  0x7f,
  0x02,
  0x7b, // locals: 3 x i32 (i, j, p), 2 x v128 (acc, c)
  0x20,
  0x01,
  0x21,
  0x07, // p = base
  0x02,
  0x40,
  0x03,
  0x40, // block, loop
  0x20,
  0x05,
  0x20,
  0x02,
  0x4f,
  0x0d,
  0x01, // if i >= count break
  0xfd,
  0x0c,
  ...new Array<number>(16).fill(0),
  0x21,
  0x08, // acc = 0
  0x41,
  0x00,
  0x21,
  0x06, // j = 0
  0x02,
  0x40,
  0x03,
  0x40, // block, loop
  0x20,
  0x06,
  0x20,
  0x03,
  0x4f,
  0x0d,
  0x01, // if j >= dims break
  0x20,
  0x07,
  0x20,
  0x06,
  0x6a,
  0xfd,
  0x00,
  0x00,
  0x00,
  0x21,
  0x09, // c = load(p + j)
  0x20,
  0x08, // acc
  0x20,
  0x09,
  0xfd,
  0x87,
  0x01, // extend_low_i8x16_s(c)
  0x20,
  0x00,
  0x20,
  0x06,
  0x41,
  0x01,
  0x74,
  0x6a,
  0xfd,
  0x00,
  0x00,
  0x00, // load(query + 2j)
  0xfd,
  0xba,
  0x01,
  0xfd,
  0xae,
  0x01, // dot, add
  0x20,
  0x09,
  0xfd,
  0x88,
  0x01, // extend_high_i8x16_s(c)
  0x20,
  0x00,
  0x20,
  0x06,
  0x41,
  0x01,
  0x74,
  0x6a,
  0xfd,
  0x00,
  0x00,
  0x10, // load(query + 2j + 16)
  0xfd,
  0xba,
  0x01,
  0xfd,
  0xae,
  0x01, // dot, add
  0x21,
  0x08, // acc = ...
  0x20,
  0x06,
  0x41,
  0x10,
  0x6a,
  0x21,
  0x06, // j += 16
  0x0c,
  0x00,
  0x0b,
  0x0b, // br loop; end loop; end block
  0x20,
  0x04,
  0x20,
  0x05,
  0x41,
  0x02,
  0x74,
  0x6a, // out + 4i
  0x20,
  0x08,
  0xfd,
  0x1b,
  0x00,
  0x20,
  0x08,
  0xfd,
  0x1b,
  0x01,
  0x6a,
  0x20,
  0x08,
  0xfd,
  0x1b,
  0x02,
  0x6a,
  0x20,
  0x08,
  0xfd,
  0x1b,
  0x03,
  0x6a, // sum of lanes
  0x36,
  0x02,
  0x00, // i32.store
  0x20,
  0x07,
  0x20,
  0x03,
  0x6a,
  0x21,
  0x07, // p += dims
  0x20,
  0x05,
  0x41,
  0x01,
  0x6a,
  0x21,
  0x05, // i += 1
  0x0c,
  0x00,
  0x0b,
  0x0b, // br loop; end loop; end block
  0x0b, // end func
];

function leb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

function section(id: number, content: number[]): number[] {
  return [id, ...leb(content.length), ...content];
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

function moduleBytes(): Uint8Array {
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, [0x01, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]),
    ...section(3, [0x01, 0x00]),
    ...section(5, [0x01, 0x00, 0x01]),
    ...section(7, [0x02, 0x04, ...ascii("scan"), 0x00, 0x00, 0x06, ...ascii("memory"), 0x02, 0x00]),
    ...section(10, [0x01, ...leb(SCAN_BODY.length), ...SCAN_BODY]),
  ]);
}

/** Bytes reserved at the start of the WASM memory for the int16 query (dims up to 16 384). */
export const QUERY_BYTES = 65_536;

export interface Int8Kernel {
  readonly simd: boolean;
  /** The memory that holds query, scores and codes (WASM memory, or a growable JS buffer). */
  memory(): ArrayBuffer;
  /** Makes the memory at least `bytes` long (may replace the buffer). */
  ensure(bytes: number): void;
  scan(queryOffset: number, base: number, count: number, dims: number, out: number): void;
}

// The TypeScript lib used here (ES2024, no DOM) does not declare WebAssembly; Node 20 has it.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

function wasmKernel(): Int8Kernel | undefined {
  if (!wasm) return undefined;
  const WebAssembly = wasm;
  try {
    const bytes = moduleBytes();
    if (!WebAssembly.validate(bytes)) return undefined;
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    const memory = instance.exports.memory as WasmMemory;
    const scan = instance.exports.scan as (
      q: number,
      b: number,
      c: number,
      d: number,
      o: number,
    ) => void;
    return {
      simd: true,
      memory: () => memory.buffer,
      ensure(bytes) {
        const missing = bytes - memory.buffer.byteLength;
        if (missing > 0) memory.grow(Math.ceil(missing / 65_536));
      },
      scan,
    };
  } catch {
    return undefined;
  }
}

function jsKernel(): Int8Kernel {
  let buffer = new ArrayBuffer(QUERY_BYTES);
  return {
    simd: false,
    memory: () => buffer,
    ensure(bytes) {
      if (bytes <= buffer.byteLength) return;
      const next = new ArrayBuffer(Math.max(bytes, buffer.byteLength * 2));
      new Uint8Array(next).set(new Uint8Array(buffer));
      buffer = next;
    },
    scan(queryOffset, base, count, dims, out) {
      const query = new Int16Array(buffer, queryOffset, dims);
      const codes = new Int8Array(buffer, base, count * dims);
      const scores = new Int32Array(buffer, out, count);
      for (let i = 0, p = 0; i < count; i++, p += dims) {
        let sum = 0;
        for (let j = 0; j < dims; j++) sum += query[j]! * codes[p + j]!;
        scores[i] = sum;
      }
    },
  };
}

/** A fresh kernel with its own memory (one per vector index). */
export function createInt8Kernel(options: { preferJs?: boolean } = {}): Int8Kernel {
  return (options.preferJs ? undefined : wasmKernel()) ?? jsKernel();
}
