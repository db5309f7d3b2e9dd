import path from "node:path";
import { configuredSnapshotPath } from "@memory/core";
import { writeSnapshot } from "@memory/lifecycle";
import type { CommandHandler } from "../cli/lazy-action.js";
import { VERSION } from "../version.js";

/**
 * `memory snapshot [--path P]`: writes the core entries of every namespace to the snapshot file
 * now (default `snapshot_path`, else `<data_dir>/MEMORY_SNAPSHOT.md`), replacing it atomically.
 * Opening the store first runs auto_hydrate as usual, so a lost store is restored from the old
 * snapshot before it could be overwritten by an empty one.
 */
export interface SnapshotOptions {
  path?: string;
}

const snapshotCommand: CommandHandler<SnapshotOptions> = async (context, _args, options) => {
  const { path: given } = options;
  const target = path.resolve(given ?? configuredSnapshotPath(context.config().config));
  const { memory } = await context.open("none");
  const report = await writeSnapshot(memory, target, { generator: `memory ${VERSION}` });
  context.output.result(report, () => {
    const entries = `${report.entries} core ${report.entries === 1 ? "entry" : "entries"}`;
    const namespaces = `${report.namespaces.length} ${report.namespaces.length === 1 ? "namespace" : "namespaces"}`;
    return `wrote ${entries} of ${namespaces} to ${report.path} (${report.bytes} bytes)`;
  });
};

export default snapshotCommand;
