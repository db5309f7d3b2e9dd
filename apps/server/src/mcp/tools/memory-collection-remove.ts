import { z } from "zod";
import { removeCollectionFor } from "../../operations/collections.js";
import {
  CollectionNameParamsSchema,
  RemoveCollectionResponseSchema,
} from "../../wire/collections.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { toolResult } from "../tool-results.js";

export const memoryCollectionRemove = defineTool({
  ...mcpToolSpec("memory_collection_remove"),
  // DELETE /v1/collections/{name}.
  inputSchema: z.object(CollectionNameParamsSchema.shape).strict(),
  outputSchema: RemoveCollectionResponseSchema,
  // Managed over MCP only where the operator let HTTP add collections (collection_roots).
  available: ({ collections }) => collections.roots.length > 0,
  async run(input, scope) {
    const removed = await removeCollectionFor(input.name, scope);
    return toolResult(
      `Removed collection "${removed.collection}": ${removed.deleted} fragment(s) left the index; its files were not touched.`,
      removed,
    );
  },
});
