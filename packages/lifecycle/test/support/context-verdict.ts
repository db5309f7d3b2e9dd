import type { RecallTraceCandidate } from "@memory/api";
import type { MemoryContext } from "../../src/index.js";

/** The trace's verdict on one key of a context built with `explain: "full"`. */
export function verdict(context: MemoryContext, key: string): RecallTraceCandidate {
  const found = context.trace?.candidates.find((candidate) => candidate.key === key);
  if (!found) throw new Error(`${key} is not in the trace: ${JSON.stringify(context.trace)}`);
  return found;
}
