import { z } from "zod";
import { listCollectionsFor } from "../../operations/collections.js";
import { CollectionsResponseSchema } from "../../wire/collections.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { toolResult } from "../tool-results.js";

export const memoryCollectionList = defineTool({
  ...mcpToolSpec("memory_collection_list"),
  // GET /v1/collections: no arguments; the token's namespaces decide what is listed.
  inputSchema: z.object({}).strict(),
  outputSchema: CollectionsResponseSchema,
  async run(_input, scope) {
    const collections = await listCollectionsFor(scope);
    if (collections.length === 0)
      return toolResult(
        "No collections: memory_recall searches memory only. A folder of notes becomes a collection with `memory collection add <name> <folder>` on the server.",
        { collections },
      );
    const lines = collections.map(
      (collection) =>
        `- ${collection.name} (namespace ${JSON.stringify(collection.namespace)}): ${collection.path}, pattern ${collection.pattern}; ${collection.notes} note(s), ${collection.fragments} fragment(s) indexed${collection.origin === "config" ? "; defined in memory.toml" : ""}`,
    );
    return toolResult(lines.join("\n"), { collections });
  },
});
