import { type FileSegment, readMemoryFile } from "../memory-files.js";
import type { OperationScope } from "./operation-scope.js";

export type { FileSegment };

/** Lines of a memory file (file-backed backends), confined to the caller's namespaces. */
export async function readFile(
  input: { path: string; from?: number | undefined; lines?: number | undefined },
  { memory, access }: OperationScope,
): Promise<FileSegment> {
  return readMemoryFile(memory, access, input);
}
