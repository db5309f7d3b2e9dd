import { namespaceInput, relateInput } from "@memory/tools";
import { z } from "zod";
import { relateEntries } from "../../operations/relations.js";
import { RelationSchema } from "../../wire/relations.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { toolResult } from "../tool-results.js";

export const memoryRelate = defineTool({
  ...mcpToolSpec("memory_relate"),
  // POST /v1/relations's body (without metadata: a model states the relation, not a record).
  inputSchema: z.object({ ...relateInput, namespace: namespaceInput }).strict(),
  outputSchema: z.object({ relation: RelationSchema }),
  async run(input, scope) {
    const relation = await relateEntries(input, scope);
    return toolResult(
      `"${relation.from}" ${relation.type} "${relation.to}" (weight ${relation.weight}): saved. memory_relations with key "${relation.from}" lists its edges.`,
      { relation },
    );
  },
});
