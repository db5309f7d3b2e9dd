import { type CollectionDefinition, readManifest } from "@memory/core";
import { listCollections } from "@memory/lifecycle";
import type { CommandHandler } from "../cli/lazy-action.js";
import { configuredCollections } from "./shared/collections.js";

/** `memory collection list`: every collection (configured and added) with its indexed notes. */
const collectionList: CommandHandler = async (context) => {
  const { configured, baseDir } = configuredCollections(context);
  const { memory } = await context.open("configured");
  const collections = await listCollections(memory, configured, { baseDir });
  const rows: (CollectionDefinition & { notes: number; fragments: number })[] = [];
  for (const definition of collections) {
    const notes = await readManifest(memory, definition.name);
    let fragments = 0;
    for (const note of notes.values()) fragments += note.ranges.length;
    rows.push({ ...definition, notes: notes.size, fragments });
  }
  context.output.result({ collections: rows }, () =>
    rows.length === 0
      ? ["no collections (add one with `memory collection add <name> <folder>`)"]
      : rows.map(
          (row) =>
            `${row.name}  ${row.path}  ${row.pattern}  namespace ${row.namespace}  ${row.notes} notes, ${row.fragments} fragments${row.origin === "config" ? "  (memory.toml)" : ""}`,
        ),
  );
};

export default collectionList;
