import type { RecallStages, VectorAvailability } from "@memory/api";

/**
 * The driver's recall stages as the facade's engine sees them: vector availability is the
 * facade's rule (`vectorUnavailable`, which asks the driver's own stage last), and, for the
 * conflict check of a store, `embedQuery` answers with the document vector already computed, so
 * the text is embedded once.
 */
export function facadeStages(
  stages: () => RecallStages,
  unavailable: () => Promise<string | undefined>,
  queryVector?: { text: string; vector: ArrayLike<number> | undefined },
): RecallStages {
  const availability = async (): Promise<VectorAvailability> => {
    const reason = await unavailable();
    return reason === undefined ? { usable: true } : { usable: false, reason };
  };
  return new Proxy({} as RecallStages, {
    get(_target, property) {
      if (property === "vectorAvailability") return availability;
      if (property === "embedQuery" && queryVector) {
        return async (query: string, signal?: AbortSignal) => {
          if (query !== queryVector.text) return stages().embedQuery(query, signal);
          // No document vector: the provider just failed on this text; do not ask it again.
          if (!queryVector.vector) throw new Error("the document embedding of this entry failed");
          return Float32Array.from(queryVector.vector);
        };
      }
      const target = stages();
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
    has(_target, property) {
      return Reflect.has(stages(), property);
    },
  });
}
