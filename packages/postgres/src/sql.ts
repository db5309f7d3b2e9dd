import { createHash } from "node:crypto";

/** Small SQL helpers shared by the queries of this package. */

/** Double-quotes an identifier (schema names are validated, this is belt and braces). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * pgvector's binary wire format: int16 dimensions, int16 unused, then float4 values, all
 * big-endian. `pg` sends a Buffer parameter in binary format, so `$n::vector` decodes it with
 * pgvector's receive function: no 384-number text literal to print and parse per row.
 */
export function encodeVector(values: ArrayLike<number>): Buffer {
  const buffer = Buffer.alloc(4 + 4 * values.length);
  buffer.writeUInt16BE(values.length, 0);
  // Fill as native float32, then swap the bytes to big-endian in one pass (10x faster than
  // writeFloatBE per value). The header keeps the floats 4-byte aligned.
  const floats = new Float32Array(buffer.buffer, buffer.byteOffset + 4, values.length);
  floats.set(values);
  if (littleEndian) buffer.subarray(4).swap32();
  return buffer;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Parses pgvector's text output `[1,2,3]`. */
export function decodeVectorText(text: string): number[] {
  return JSON.parse(text) as number[];
}

/** Collects positional parameters while a statement is being built. */
export class Params {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder (`$n`). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** SHA-256 of the content (first 32 hex digits): the guard against stale deferred embeddings. */
export function contentHash(content: string): string {
  return createHash("sha256").update(content).digest("hex").slice(0, 32);
}

/**
 * A one-dimensional `vector[]` in PostgreSQL's binary array format (ndim, has-nulls flag,
 * element type OID, length, lower bound, then each element as int32 length + pgvector's binary
 * vector, or length -1 for NULL). Sent as a Buffer, it reaches the server without any text.
 */
export function encodeVectorArray(
  vectors: readonly (ArrayLike<number> | undefined)[],
  elementOid: number,
): Buffer {
  let size = 20;
  for (const vector of vectors) size += 4 + (vector ? 4 + 4 * vector.length : 0);
  const buffer = Buffer.alloc(size);
  buffer.writeInt32BE(1, 0);
  buffer.writeInt32BE(vectors.some((vector) => vector === undefined) ? 1 : 0, 4);
  buffer.writeUInt32BE(elementOid, 8);
  buffer.writeInt32BE(vectors.length, 12);
  buffer.writeInt32BE(1, 16);
  let offset = 20;
  for (const vector of vectors) {
    if (!vector) {
      buffer.writeInt32BE(-1, offset);
      offset += 4;
      continue;
    }
    const length = 4 + 4 * vector.length;
    buffer.writeInt32BE(length, offset);
    buffer.writeUInt16BE(vector.length, offset + 4);
    // Elements start at a 4-byte boundary (20-byte header, 4-byte multiples), so the floats are
    // aligned for a Float32Array view; swap to big-endian once at the end.
    new Float32Array(buffer.buffer, buffer.byteOffset + offset + 8, vector.length).set(vector);
    offset += 4 + length;
  }
  if (littleEndian) {
    // Swap only the float runs: walk the elements again.
    offset = 20;
    for (const vector of vectors) {
      if (!vector) {
        offset += 4;
        continue;
      }
      buffer.subarray(offset + 8, offset + 8 + 4 * vector.length).swap32();
      offset += 8 + 4 * vector.length;
    }
  }
  return buffer;
}
