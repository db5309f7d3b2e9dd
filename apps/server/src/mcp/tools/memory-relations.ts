import { namespaceInput, relationsInput } from "@memory/tools";
import { z } from "zod";
import { entryRelations } from "../../operations/relations.js";
import { RelationSchema } from "../../wire/relations.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { cutAt, toolResult } from "../tool-results.js";

/** Characters of each related memory shown beside its edge (memory_get reads it in full). */
const EXCERPT_CHARS = 160;
const DEFAULT_LIMIT = 20;

export const memoryRelations = defineTool({
  ...mcpToolSpec("memory_relations"),
  // GET /v1/relations/{key}'s query, as the body form takes it.
  inputSchema: z.object({ ...relationsInput, namespace: namespaceInput }).strict(),
  outputSchema: z.object({
    key: z.string(),
    namespace: z.string(),
    relations: z.array(RelationSchema).describe("Strongest first, then newest."),
  }),
  async run(input, scope) {
    const found = await entryRelations({ ...input, limit: input.limit ?? DEFAULT_LIMIT }, scope);
    if (found.relations.length === 0) {
      return toolResult(`"${input.key}" has no relations${input.types ? " of those types" : ""}.`, {
        ...found,
      });
    }
    const others = found.relations.map((relation) =>
      relation.from === input.key ? relation.to : relation.from,
    );
    const entries = await Promise.all(
      others.map((key) => scope.memory.get(key, { namespace: found.namespace })),
    );
    const lines = found.relations.map((relation, index) => {
      const entry = entries[index];
      const excerpt = entry ? `: ${cutAt(entry.content, EXCERPT_CHARS)}` : "";
      return relation.from === input.key
        ? `- ${relation.type} -> "${relation.to}" (weight ${relation.weight})${excerpt}`
        : `- <- ${relation.type} from "${relation.from}" (weight ${relation.weight})${excerpt}`;
    });
    return toolResult(`Relations of "${input.key}":\n${lines.join("\n")}`, { ...found });
  },
});
