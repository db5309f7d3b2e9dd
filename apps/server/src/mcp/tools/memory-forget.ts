import { z } from "zod";
import { resolveNamespace } from "../../access.js";
import { ForgetByKeyRequestSchema } from "../../schemas.js";
import { defineTool } from "../tool-definition.js";
import { toolResult } from "../tool-results.js";
import { namespaceInput } from "./tool-inputs.js";

export const MEMORY_FORGET_DESCRIPTION =
  "Permanently delete one memory by its exact key. Use it when the user asks you to forget something, or a memory is wrong and should not exist at all. To correct a memory, call memory_store with the same key instead.";

export const memoryForget = defineTool({
  name: "memory_forget",
  title: "Forget one memory",
  description: MEMORY_FORGET_DESCRIPTION,
  // POST /v1/memories/forget's body.
  inputSchema: ForgetByKeyRequestSchema.extend({
    key: ForgetByKeyRequestSchema.shape.key.describe("The exact key to delete."),
    namespace: namespaceInput,
  }).strict(),
  outputSchema: z.object({
    deleted: z.boolean().describe("False when there was no memory with that key."),
  }),
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(input, { memory, access }) {
    const namespace = resolveNamespace(access, input.namespace);
    const deleted = await memory.forget(input.key, { namespace });
    return toolResult(
      deleted ? `Forgot "${input.key}".` : `There was no memory with key "${input.key}".`,
      { deleted },
    );
  },
});
