import { syncCollectionsFor } from "../../operations/collections.js";
import {
  SyncCollectionsRequestSchema,
  SyncCollectionsResponseSchema,
} from "../../wire/collections.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { toolResult } from "../tool-results.js";
import { syncReportText } from "./collection-report-text.js";

export const memoryCollectionSync = defineTool({
  ...mcpToolSpec("memory_collection_sync"),
  // POST /v1/collections/sync's body: `name` optional (every collection the token may use).
  inputSchema: SyncCollectionsRequestSchema,
  outputSchema: SyncCollectionsResponseSchema,
  async run(input, scope) {
    const collections = await syncCollectionsFor(input, scope);
    const text =
      collections.length === 0
        ? "No collections to sync."
        : collections.map(syncReportText).join("\n");
    return toolResult(text, { collections });
  },
});
