import { addCollectionFor } from "../../operations/collections.js";
import { AddCollectionRequestSchema, AddCollectionResponseSchema } from "../../wire/collections.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { toolResult } from "../tool-results.js";
import { syncReportText } from "./collection-report-text.js";

export const memoryCollectionAdd = defineTool({
  ...mcpToolSpec("memory_collection_add"),
  // POST /v1/collections's body, and its rule (operations/collections.ts): the folder, its
  // links resolved, must lie inside [server].collection_roots.
  inputSchema: AddCollectionRequestSchema,
  outputSchema: AddCollectionResponseSchema,
  // Without roots every call would be refused: the tool is not offered.
  available: ({ collections }) => collections.roots.length > 0,
  async run(input, scope) {
    const added = await addCollectionFor(input, scope);
    const { collection } = added;
    const head = `Added collection "${collection.name}" (namespace ${JSON.stringify(collection.namespace)}): ${collection.path}, pattern ${collection.pattern}.`;
    const text = added.sync
      ? `${head}\n${syncReportText(added.sync)}`
      : `${head} Not indexed yet: call memory_collection_sync with its name.`;
    return toolResult(text, added);
  },
});
