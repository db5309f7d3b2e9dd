import { addCollection, syncCollection } from "@memory/lifecycle";
import type { CommandHandler } from "../cli/lazy-action.js";
import { describeSyncReports } from "./shared/collections.js";

export interface CollectionAddOptions {
  pattern: string;
  namespace?: string;
  context?: string;
  sync: boolean;
}

/** `memory collection add <name> <path>`: records the collection in the store, then indexes it. */
const collectionAdd: CommandHandler<CollectionAddOptions> = async (context, args, options) => {
  const [name, folder] = args as [string, string];
  const { memory } = await context.open("configured");
  const definition = await addCollection(memory, {
    name,
    path: folder,
    pattern: options.pattern,
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    ...(options.context === undefined ? {} : { context: options.context }),
  });
  const report = options.sync ? await syncCollection(memory, definition) : undefined;
  const lines = [
    `added collection ${definition.name}: ${definition.path} (${definition.pattern}, namespace ${definition.namespace})`,
    ...(report
      ? describeSyncReports(context, [report])
      : ["not indexed yet: run `memory collection sync`"]),
  ];
  context.output.result(
    { collection: definition, ...(report ? { sync: report } : {}) },
    () => lines,
  );
};

export default collectionAdd;
