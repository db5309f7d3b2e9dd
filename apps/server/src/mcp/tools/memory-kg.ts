import { knowledgeGraphInput, namespaceInput } from "@memory/tools";
import { z } from "zod";
import { entityKnowledgeGraph } from "../../operations/knowledge-graph.js";
import { KnowledgeGraphResponseSchema } from "../../wire/knowledge-graph.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { toolResult } from "../tool-results.js";

export const memoryKg = defineTool({
  ...mcpToolSpec("memory_kg"),
  inputSchema: z.object({ ...knowledgeGraphInput, namespace: namespaceInput }).strict(),
  outputSchema: KnowledgeGraphResponseSchema,
  async run(input, scope) {
    const found = await entityKnowledgeGraph(input, scope);
    if (found.triples.length === 0)
      return toolResult(`No fact about "${found.entity}" holds at ${found.asOf}.`, { ...found });
    const lines = found.triples.map((triple) => {
      const until = triple.validTo === null ? "" : `, until ${triple.validTo}`;
      return `- ${triple.subjectName} ${triple.predicate} ${triple.objectName} (since ${triple.validFrom}${until})`;
    });
    return toolResult(
      `Facts about "${found.entity}" at ${found.asOf}, newest first:\n${lines.join("\n")}`,
      { ...found },
    );
  },
});
