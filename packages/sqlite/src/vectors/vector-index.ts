import { createInt8Kernel, type Int8Kernel, QUERY_BYTES } from "./int8-kernel.js";

/**
 * An in-memory copy of the stored vectors: int8-quantized (one scale per vector) for a fast
 * approximate scan, and float32 for exact rescoring without reading BLOBs back from SQL
 * (4 x dims + 1 x dims bytes per entry). Quantization only decides which vectors get rescored,
 * never a score. Each vector keeps the content hash it was computed from, so a vector made
 * stale by a content change is never scored.
 */
export class VectorIndex {
  readonly dims: number;
  /** dims rounded up to a multiple of 16 (the SIMD kernel's step). */
  readonly #stride: number;
  readonly #kernel: Int8Kernel;
  #capacity = 0;
  #size = 0;
  #docIds = new Float64Array(0);
  #namespaces = new Int32Array(0);
  /** scale / norm per vector: turns an int dot product into an approximate cosine. */
  #factors = new Float32Array(0);
  /** float32 vectors, `dims` per slot, with their norms. */
  #floats = new Float32Array(0);
  #norms = new Float64Array(0);
  #hashes: string[] = [];
  readonly #slots = new Map<number, number>();
  readonly #namespaceCodes = new Map<string, number>();
  readonly #namespaceSizes: number[] = [];

  constructor(dims: number, options: { preferJs?: boolean } = {}) {
    this.dims = dims;
    this.#stride = Math.ceil(dims / 16) * 16;
    this.#kernel = createInt8Kernel(options);
  }

  get size(): number {
    return this.#size;
  }

  /** The content hash the vector of `docId` was computed from. */
  hashOf(docId: number): string | undefined {
    const slot = this.#slots.get(docId);
    return slot === undefined ? undefined : this.#hashes[slot];
  }

  get simd(): boolean {
    return this.#kernel.simd;
  }

  /** Entries of one namespace in the index. */
  namespaceSize(namespace: string): number {
    const code = this.#namespaceCodes.get(namespace);
    return code === undefined ? 0 : (this.#namespaceSizes[code] ?? 0);
  }

  #scoresOffset(): number {
    return QUERY_BYTES;
  }

  #codesOffset(capacity = this.#capacity): number {
    return QUERY_BYTES + capacity * 4;
  }

  #grow(needed: number): void {
    const capacity = Math.max(needed, Math.ceil(this.#capacity * 1.5), 1024);
    const oldCodes = this.#codesOffset();
    const newCodes = this.#codesOffset(capacity);
    this.#kernel.ensure(newCodes + capacity * this.#stride);
    // Codes move up to make room for the larger score area; copyWithin handles the overlap.
    new Uint8Array(this.#kernel.memory()).copyWithin(
      newCodes,
      oldCodes,
      oldCodes + this.#size * this.#stride,
    );
    const docIds = new Float64Array(capacity);
    docIds.set(this.#docIds.subarray(0, this.#size));
    const namespaces = new Int32Array(capacity);
    namespaces.set(this.#namespaces.subarray(0, this.#size));
    const factors = new Float32Array(capacity);
    factors.set(this.#factors.subarray(0, this.#size));
    const floats = new Float32Array(capacity * this.dims);
    floats.set(this.#floats.subarray(0, this.#size * this.dims));
    const norms = new Float64Array(capacity);
    norms.set(this.#norms.subarray(0, this.#size));
    this.#floats = floats;
    this.#norms = norms;
    this.#docIds = docIds;
    this.#namespaces = namespaces;
    this.#factors = factors;
    this.#capacity = capacity;
  }

  #namespaceCode(namespace: string): number {
    let code = this.#namespaceCodes.get(namespace);
    if (code === undefined) {
      code = this.#namespaceCodes.size;
      this.#namespaceCodes.set(namespace, code);
      this.#namespaceSizes[code] = 0;
    }
    return code;
  }

  /** Quantizes `vector` into `target` (int8); returns scale / norm. */
  #quantize(vector: ArrayLike<number>, target: Int8Array | Int16Array): number {
    let maxAbs = 0;
    let norm = 0;
    for (let i = 0; i < this.dims; i++) {
      const value = vector[i]!;
      norm += value * value;
      const abs = value < 0 ? -value : value;
      if (abs > maxAbs) maxAbs = abs;
    }
    target.fill(0);
    if (maxAbs === 0 || norm === 0) return 0;
    const scale = maxAbs / 127;
    for (let i = 0; i < this.dims; i++) target[i] = Math.round(vector[i]! / scale);
    return scale / Math.sqrt(norm);
  }

  /** Adds or replaces the vector of `docId`, computed from content with hash `hash`. */
  upsert(docId: number, namespace: string, given: ArrayLike<number>, hash: string): void {
    if (given.length !== this.dims) return;
    // The float32 values, as stored: a vector added at write time (float64 from the provider)
    // must score exactly as the same vector read back from its BLOB.
    const vector = given instanceof Float32Array ? given : Float32Array.from(given);
    let slot = this.#slots.get(docId);
    if (slot === undefined) {
      if (this.#size === this.#capacity) this.#grow(this.#size + 1);
      slot = this.#size++;
      this.#slots.set(docId, slot);
      this.#docIds[slot] = docId;
      const code = this.#namespaceCode(namespace);
      this.#namespaces[slot] = code;
      this.#namespaceSizes[code]! += 1;
    }
    const codes = new Int8Array(
      this.#kernel.memory(),
      this.#codesOffset() + slot * this.#stride,
      this.#stride,
    );
    this.#factors[slot] = this.#quantize(vector, codes);
    const offset = slot * this.dims;
    let norm = 0;
    for (let i = 0; i < this.dims; i++) {
      const value = vector[i]!;
      this.#floats[offset + i] = value;
      norm += value * value;
    }
    this.#norms[slot] = Math.sqrt(norm);
    this.#hashes[slot] = hash;
  }

  /**
   * Exact cosine between `query` and the vector of `docId`, computed in float64 from the
   * float32 copy; undefined when the entry has no vector or only one computed from other
   * content (`hash` given and different).
   */
  cosine(docId: number, query: ArrayLike<number>, hash: string | undefined): number | undefined {
    const slot = this.#slots.get(docId);
    if (slot === undefined || query.length !== this.dims) return undefined;
    if (hash !== undefined && this.#hashes[slot] !== hash) return undefined;
    const offset = slot * this.dims;
    let dot = 0;
    let queryNorm = 0;
    for (let i = 0; i < this.dims; i++) {
      const q = query[i]!;
      dot += q * this.#floats[offset + i]!;
      queryNorm += q * q;
    }
    const norm = this.#norms[slot]!;
    if (queryNorm === 0 || norm === 0) return 0;
    return Math.max(-1, Math.min(1, dot / (Math.sqrt(queryNorm) * norm)));
  }

  remove(docId: number): void {
    const slot = this.#slots.get(docId);
    if (slot === undefined) return;
    this.#slots.delete(docId);
    this.#namespaceSizes[this.#namespaces[slot]!]! -= 1;
    const last = --this.#size;
    if (slot !== last) {
      // Swap-remove: the last vector moves into the freed slot.
      const memory = new Uint8Array(this.#kernel.memory());
      const base = this.#codesOffset();
      memory.copyWithin(
        base + slot * this.#stride,
        base + last * this.#stride,
        base + (last + 1) * this.#stride,
      );
      const movedDoc = this.#docIds[last]!;
      this.#docIds[slot] = movedDoc;
      this.#namespaces[slot] = this.#namespaces[last]!;
      this.#factors[slot] = this.#factors[last]!;
      this.#floats.copyWithin(slot * this.dims, last * this.dims, (last + 1) * this.dims);
      this.#norms[slot] = this.#norms[last]!;
      this.#hashes[slot] = this.#hashes[last]!;
      this.#slots.set(movedDoc, slot);
    }
  }

  clear(): void {
    this.#slots.clear();
    this.#hashes = [];
    this.#size = 0;
    this.#namespaceSizes.fill(0);
  }

  /**
   * The `count` doc ids with the highest approximate cosine to `query`, best first, limited to
   * `namespace` when given.
   */
  search(query: ArrayLike<number>, count: number, namespace?: string): number[] {
    if (this.#size === 0 || count <= 0 || query.length !== this.dims) return [];
    const wanted = namespace === undefined ? -1 : this.#namespaceCodes.get(namespace);
    if (wanted === undefined) return [];
    const queryCodes = new Int16Array(this.#kernel.memory(), 0, this.#stride);
    if (this.#quantize(query, queryCodes) === 0) return [];
    this.#kernel.scan(0, this.#codesOffset(), this.#size, this.#stride, this.#scoresOffset());
    const scores = new Int32Array(this.#kernel.memory(), this.#scoresOffset(), this.#size);
    return this.#top(scores, count, wanted);
  }

  #top(scores: Int32Array, count: number, namespace: number): number[] {
    // A min-heap of the best `count` (score, slot) pairs seen so far.
    const heapScores = new Float64Array(count);
    const heapSlots = new Int32Array(count);
    let heapSize = 0;
    const factors = this.#factors;
    const namespaces = this.#namespaces;
    for (let slot = 0; slot < this.#size; slot++) {
      if (namespace >= 0 && namespaces[slot] !== namespace) continue;
      const score = scores[slot]! * factors[slot]!;
      if (heapSize < count) {
        let i = heapSize++;
        while (i > 0) {
          const parent = (i - 1) >> 1;
          if (heapScores[parent]! <= score) break;
          heapScores[i] = heapScores[parent]!;
          heapSlots[i] = heapSlots[parent]!;
          i = parent;
        }
        heapScores[i] = score;
        heapSlots[i] = slot;
      } else if (score > heapScores[0]!) {
        let i = 0;
        for (;;) {
          const left = 2 * i + 1;
          if (left >= heapSize) break;
          const right = left + 1;
          const child = right < heapSize && heapScores[right]! < heapScores[left]! ? right : left;
          if (heapScores[child]! >= score) break;
          heapScores[i] = heapScores[child]!;
          heapSlots[i] = heapSlots[child]!;
          i = child;
        }
        heapScores[i] = score;
        heapSlots[i] = slot;
      }
    }
    const order = Array.from({ length: heapSize }, (_, i) => i).sort(
      (a, b) => heapScores[b]! - heapScores[a]!,
    );
    return order.map((i) => this.#docIds[heapSlots[i]!]!);
  }
}
