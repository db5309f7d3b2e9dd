/** float32 little-endian BLOB (the storage format; never JSON text). */
export function toBlob(vector: ArrayLike<number>): Buffer {
  const array =
    vector instanceof Float32Array ? vector : Float32Array.from(vector as ArrayLike<number>);
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

/** Reads a float32 BLOB without copying when it is aligned. */
export function fromBlob(blob: Uint8Array): Float32Array {
  if (blob.byteOffset % 4 === 0)
    return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
  return new Float32Array(new Uint8Array(blob).buffer);
}

export function blobToArray(blob: Uint8Array): number[] {
  return Array.from(fromBlob(blob));
}
