import { entitiesInput, namespaceInput } from "@memory/tools";
import { z } from "zod";
import { namespaceEntities } from "../../operations/entities.js";
import { EntitySummarySchema } from "../../wire/entities.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { toolResult } from "../tool-results.js";

export const memoryEntities = defineTool({
  ...mcpToolSpec("memory_entities"),
  inputSchema: z.object({ ...entitiesInput, namespace: namespaceInput }).strict(),
  outputSchema: z.object({
    namespace: z.string(),
    entities: z.array(EntitySummarySchema).describe("Most mentioned first."),
  }),
  async run(input, scope) {
    const found = await namespaceEntities(input, scope);
    if (found.entities.length === 0)
      return toolResult(
        `No entities in namespace "${found.namespace}": no stored memory names anyone or anything yet (or entity reading is off on this server).`,
        { ...found },
      );
    const lines = found.entities.map(
      (entity) =>
        `- ${entity.name} (${entity.mentions} ${entity.mentions === 1 ? "memory" : "memories"})`,
    );
    return toolResult(
      `Entities named in namespace "${found.namespace}", most mentioned first:\n${lines.join("\n")}`,
      { ...found },
    );
  },
});
