import { type Memory, UnsupportedOperationError } from "@memory/api";
import { type Access, canUse } from "./access.js";
import { HttpError } from "./http-error.js";

/** Lines of a memory file, as file-backed backends (`@memory/markdown`) return them. */
export interface FileSegment {
  path: string;
  namespace: string;
  from: number;
  to: number;
  totalLines: number;
  text: string;
}

interface FileBackedMemory {
  readSegment(request: { path: string; from?: number; lines?: number }): Promise<FileSegment>;
}

function fileBacked(memory: Memory): FileBackedMemory {
  const reader = (memory as Partial<FileBackedMemory>).readSegment;
  if (typeof reader !== "function")
    throw new UnsupportedOperationError(
      `The ${memory.name} backend keeps no memory files to read; use get or recall, or configure backend = "markdown".`,
    );
  return memory as unknown as FileBackedMemory;
}

/**
 * Reads lines of a memory file (`memory_get` with a path, `GET /v1/files`), confined to the
 * memory tree by the backend, and to the caller's namespaces here. The backend resolves
 * symbolic links first and names the namespace of the file it actually read, so a link in one
 * namespace's folder to another namespace's file is authorised on the file's own namespace.
 */
export async function readMemoryFile(
  memory: Memory,
  access: Access,
  request: { path: string; from?: number | undefined; lines?: number | undefined },
): Promise<FileSegment> {
  const segment = await fileBacked(memory).readSegment({
    path: request.path,
    ...(request.from === undefined ? {} : { from: request.from }),
    ...(request.lines === undefined ? {} : { lines: request.lines }),
  });
  if (!canUse(access, segment.namespace))
    throw new HttpError(
      "FORBIDDEN",
      `This token may not use namespace "${segment.namespace}", which the file at ${request.path} belongs to (symbolic links followed).`,
    );
  return segment;
}
