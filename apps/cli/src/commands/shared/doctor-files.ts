import { type DerivedIndexStatus, type FileProblem, fileBackedOf, type Memory } from "@memory/api";
import type { DoctorReport } from "./doctor-checks.js";

export interface MemoryFilesState {
  problems: FileProblem[];
  index: DerivedIndexStatus;
}

/**
 * The state of a Markdown memory's files and index, read before any other operation (every
 * operation brings the index up to date, which would hide how stale it was).
 */
export async function inspectMemoryFiles(memory: Memory): Promise<MemoryFilesState | undefined> {
  const files = fileBackedOf(memory);
  if (!files) return undefined;
  const index = await files.indexStatus();
  return { index, problems: await files.problems() };
}

const SHOWN = 10;

export function reportMemoryFiles(state: MemoryFilesState | undefined, report: DoctorReport): void {
  if (!state) return;
  const { problems, index } = state;
  if (problems.length === 0)
    report.add("files", "ok", "every entry line of the memory files reads");
  else {
    const listed = problems
      .slice(0, SHOWN)
      .map((problem) => `${problem.path}:${problem.line} ${problem.message}`)
      .join("; ");
    report.add(
      "files",
      "warn",
      `${problems.length} line(s) not read as entries (kept verbatim, indexed as free text): ${listed}${problems.length > SHOWN ? "; ..." : ""}`,
      "fix those lines by hand (entry lines look like `- **key**: content`), or leave them as notes",
    );
  }
  if (!index.enabled) {
    report.add("index", "ok", "off (index = false): recall reads the files directly");
  } else if (index.current) {
    report.add("index", "ok", "the index holds the files as they are");
  } else {
    report.add(
      "index",
      "warn",
      `${index.stale.length} file(s) changed since the index last saw them (${index.stale.slice(0, SHOWN).join(", ")}); opening the memory has caught it up`,
      "nothing to do; `memory reindex` rebuilds the index from the files if recall looks wrong",
    );
  }
}
