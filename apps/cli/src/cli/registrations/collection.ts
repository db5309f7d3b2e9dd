import { defineCommand } from "./command-registration.js";

/** `memory collection add|list|remove|sync`: folders of notes indexed read-only beside memory. */
export const collectionCommand = defineCommand((parent, action) => {
  const collection = parent
    .command("collection")
    .description("folders of Markdown notes indexed read-only beside memory (docs/collections.md)");
  collection
    .command("add <name> <path>")
    .description("add a folder of notes as a collection and index it (the files are never written)")
    .option("--pattern <glob>", "which files, relative to the folder", "**/*.md")
    .option("-n, --namespace <name>", "namespace of its entries (default: default)")
    .option("--context <text>", "a description of the collection, shown with its results")
    .option("--no-sync", "only add it; index at the next `memory collection sync`")
    .action(action(() => import("../../commands/collection-add.js")));
  collection
    .command("list")
    .description("the collections, their folders and how many notes are indexed")
    .action(action(() => import("../../commands/collection-list.js")));
  collection
    .command("remove <name>")
    .description("remove a collection's index (its files are never touched)")
    .action(action(() => import("../../commands/collection-remove.js")));
  collection
    .command("sync [name]")
    .description("bring the index of every collection (or one) in line with its folder")
    .action(action(() => import("../../commands/collection-sync.js")));
});
