import { contentKey } from "@memory/api";
import { z } from "zod";
import { resolveNamespace } from "../../access.js";
import { defined } from "../../defined.js";
import { fields, StoreRequestSchema } from "../../schemas.js";
import { defineTool } from "../tool-definition.js";
import { EntryMetadataSchema, metadataOf, toolResult } from "../tool-results.js";
import { namespaceInput } from "./tool-inputs.js";

export const MEMORY_STORE_DESCRIPTION =
  'Save a fact, preference, decision or note to long-term memory so it can be recalled in later conversations. Write the content as a self-contained sentence ("The user prefers Neovim for editing code"), not a fragment. Category: "core" (the default) for durable facts, preferences and decisions about the user or their work; "daily" for what happened today (notes, progress); "conversation" only for passing details of this chat. The key is optional: leave it out and one is derived from the content (the same text stored twice stays one memory), or give a short, stable, descriptive key such as "user_preferred_editor": storing again under the same key replaces the old content, which is how you correct or update a memory. Never store secrets.';

const store = StoreRequestSchema.shape;

export const memoryStore = defineTool({
  name: "memory_store",
  title: "Remember something",
  description: MEMORY_STORE_DESCRIPTION,
  // The HTTP body's fields (one source of their bounds), without `embedding`, key optional.
  inputSchema: z
    .object({
      key: store.key
        .optional()
        .describe(
          'Optional stable identifier, e.g. "user_preferred_editor". Reusing a key updates that memory; left out, it is derived from the content.',
        ),
      content: store.content.describe("The memory itself, as a self-contained sentence."),
      category: fields.category
        .optional()
        .describe(
          'Default "core". Use "core" for durable facts and preferences, "daily" for notes about today, "conversation" for passing details, or a custom name (letters, digits, - and _).',
        ),
      importance: store.importance.describe(
        "0..1, how important this is; leave it out to let the server decide.",
      ),
      sessionId: fields.sessionId
        .optional()
        .describe("The current conversation/session id, if you have one."),
      namespace: namespaceInput,
    })
    .strict(),
  outputSchema: z.object({ entry: EntryMetadataSchema }),
  annotations: { idempotentHint: true, destructiveHint: false, openWorldHint: false },
  async run(input, { memory, access }) {
    const namespace = resolveNamespace(access, input.namespace);
    // Without a key, the one `memory store` derives: the same text stays one memory.
    const key = input.key ?? contentKey(input.content);
    const entry = await memory.store(defined({ ...input, key, namespace }));
    const superseded = entry.conflict?.superseded ?? [];
    const replaced =
      superseded.length === 0 ? "" : ` It replaces the older memory ${superseded.join(", ")}.`;
    // The content is the caller's own: the result does not send it back.
    return toolResult(
      `Stored "${entry.key}" (${entry.category}) in namespace "${entry.namespace}".${replaced}`,
      { entry: metadataOf(entry, 0) },
    );
  },
});
