import type { CommandHandler } from "../cli/lazy-action.js";
import { describeSyncReports, syncConfigured } from "./shared/collections.js";

/** `memory collection sync [name]`: re-reads changed notes, drops deleted ones. Exit 1 on a problem. */
const collectionSync: CommandHandler = async (context, args) => {
  const [name] = args as [string | undefined];
  const { memory } = await context.open("configured");
  const reports = await syncConfigured(context, memory, name === undefined ? undefined : [name]);
  const lines = describeSyncReports(context, reports);
  context.output.result({ collections: reports }, () => lines);
};

export default collectionSync;
