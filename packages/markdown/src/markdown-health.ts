import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DriverHealth } from "@memory/api";
import { STATE_DIR } from "./format/layout.js";
import { probeMissingRoot } from "./missing-root.js";
import type { TreeState } from "./tree-state.js";

/**
 * The Markdown driver's part of `healthCheck`: entries, files and problems of the tree, a real
 * write probe, the index's details. A tree that does not exist yet is reported (and whether the
 * first write can create it) without creating anything.
 */
export async function treeHealth(
  state: TreeState,
  started: boolean,
  indexed: boolean,
): Promise<DriverHealth> {
  const { root, tree } = state;
  const indexFile = indexed ? join(root, STATE_DIR, "index.db") : "off";
  const missing = started ? undefined : probeMissingRoot(root);
  if (missing) {
    const note = missing.writable
      ? `the memory tree ${root} does not exist yet; the first write creates it`
      : `the memory tree ${root} does not exist yet and cannot be created`;
    return {
      entries: 0,
      storage: missing,
      ...(indexed
        ? {}
        : { vectorProblem: "the index is off (index = false): vector recall needs it" }),
      details: { root, exists: false, files: 0, problems: 0, index: indexFile, note },
    };
  }
  let entries = 0;
  for (const _ of tree.allEntries()) entries++;
  let problems = 0;
  for (const file of tree.files.values()) problems += file.problems.length;
  const details: Record<string, unknown> = {
    root,
    exists: true,
    files: tree.files.size,
    problems,
    index: indexFile,
  };
  const health: DriverHealth = { entries, storage: writeProbe(root), details };
  if (state.index) {
    const indexHealth = await state.index.driver.health();
    details.indexDetails = indexHealth.details;
    if (indexHealth.vectorProblem !== undefined) health.vectorProblem = indexHealth.vectorProblem;
  } else if (!indexed) {
    health.vectorProblem = "the index is off (index = false): vector recall needs it";
  }
  return health;
}

/** A real tiny write in the state directory: can the tree be written now? */
function writeProbe(root: string): { writable: boolean; reason?: string } {
  try {
    mkdirSync(join(root, STATE_DIR), { recursive: true });
    const probe = join(root, STATE_DIR, `.probe-${process.pid}`);
    writeFileSync(probe, "");
    rmSync(probe, { force: true });
    return { writable: true };
  } catch (error) {
    return {
      writable: false,
      reason: `cannot write in ${root} (${(error as Error).message}); check permissions and free space`,
    };
  }
}
