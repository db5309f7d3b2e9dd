/** One memory of a benchmark, stored as is in the temporary store. */
export interface EvalMemory {
  key: string;
  content: string;
  namespace: string;
  sessionId?: string;
  /** RFC 3339; also used as `updatedAt`, so time decay sees the memory's own date. */
  createdAt?: string;
  category: string;
  /** Where it came from, for messages (`memories.jsonl line 4`, `conv-26 D1:5`). */
  origin: string;
}

/** One scored question: recall runs in `namespace`, and `expected` are keys of that namespace. */
export interface EvalQuestion {
  id: string;
  text: string;
  namespace: string;
  category: string | number;
  expected: string[];
}

/** A benchmark, whatever its file format. */
export interface EvalDataset {
  format: "locomo" | "generic";
  /** Files read. */
  sources: string[];
  /** In input order: they are imported in this order, which fixes ties between equal scores. */
  memories: EvalMemory[];
  /** In input order: scores are averaged in this order. */
  questions: EvalQuestion[];
  /** Categories that count in "overall" (LoCoMo leaves out 5, adversarial). */
  inOverall: (category: string | number) => boolean;
  /** Names of known categories (LoCoMo's five), for the report. */
  categoryNames: Record<string, string>;
  stats: {
    namespaces: number;
    memories: number;
    questions: number;
    /** Questions left out because no expected key remained (the kit skips them too). */
    skippedWithoutEvidence: number;
  };
}
