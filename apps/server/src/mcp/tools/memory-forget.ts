import { forgetInput, namespaceInput } from "@memory/tools";
import { z } from "zod";
import { forgetEntry } from "../../operations/entries.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { toolResult } from "../tool-results.js";

export const memoryForget = defineTool({
  ...mcpToolSpec("memory_forget"),
  // POST /v1/memories/forget's body.
  inputSchema: z.object({ ...forgetInput, namespace: namespaceInput }).strict(),
  outputSchema: z.object({
    deleted: z.boolean().describe("False when there was no memory with that key."),
  }),
  async run(input, scope) {
    const deleted = await forgetEntry(input, scope);
    return toolResult(
      deleted ? `Forgot "${input.key}".` : `There was no memory with key "${input.key}".`,
      { deleted },
    );
  },
});
