import { removeCollection } from "@memory/lifecycle";
import type { CommandHandler } from "../cli/lazy-action.js";
import { configuredCollections } from "./shared/collections.js";

/** `memory collection remove <name>`: drops the index; the notes are never touched. */
const collectionRemove: CommandHandler = async (context, args) => {
  const [name] = args as [string];
  const { configured } = configuredCollections(context);
  const { memory } = await context.open("none");
  const result = await removeCollection(memory, name, configured);
  context.output.result(result, () => [
    `removed collection ${name}: ${result.deleted} fragments deleted from the index (the files are untouched)`,
  ]);
};

export default collectionRemove;
