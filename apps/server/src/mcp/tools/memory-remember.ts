import { FACT_KINDS } from "@memory/lifecycle";
import { z } from "zod";
import { resolveNamespace } from "../../access.js";
import { rememberOne } from "../../agent-turns.js";
import { RememberRequestSchema } from "../../schemas.js";
import { defineTool } from "../tool-definition.js";
import {
  cutAt,
  EntryMetadataSchema,
  LIST_ENTRY_MAX_CHARS,
  metadataOf,
  toolResult,
} from "../tool-results.js";
import { namespaceInput, turnInputs } from "./tool-inputs.js";

export const MEMORY_REMEMBER_DESCRIPTION =
  "Remember one conversation turn, after you have answered it, when the user told you something lasting: a preference, a decision, a fact about themselves, their work or their projects. The turn is saved as it is, then the server's language model extracts each durable fact from it and saves it as its own core memory (updating the memory with the same subject). Pass the user's message verbatim and your reply. It costs a model call: skip turns with nothing lasting in them (use memory_consolidate for those, or nothing). If it fails, the turn itself is already saved; do not retry in a loop. To save one fact in your own words, use memory_store.";

export const memoryRemember = defineTool({
  name: "memory_remember",
  title: "Remember what the user said",
  description: MEMORY_REMEMBER_DESCRIPTION,
  // POST /v1/remember's body.
  inputSchema: RememberRequestSchema.extend({ ...turnInputs, namespace: namespaceInput }).strict(),
  outputSchema: z.object({
    turn: EntryMetadataSchema.nullable().describe("The saved turn; null when it was skipped."),
    facts: z
      .array(EntryMetadataSchema.extend({ kind: z.enum(FACT_KINDS) }))
      .describe("The durable facts saved as core memories (their contents are in the text)."),
    attempts: z.number().int(),
  }),
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  // An agent should not see a tool that can only fail.
  available: ({ chatModel }) => chatModel !== null,
  async run(input, { memory, access, chatModel, turnSettings, signal }) {
    const namespace = resolveNamespace(access, input.namespace);
    const remembered = await rememberOne(memory, chatModel, input, namespace, {
      ...turnSettings,
      signal,
    });
    const facts = remembered.facts.map((fact) => {
      const content = cutAt(fact.content, LIST_ENTRY_MAX_CHARS);
      return { fact, content };
    });
    const structured = {
      turn: remembered.turn ? metadataOf(remembered.turn, 0) : null,
      facts: facts.map(({ fact, content }) => ({
        ...metadataOf(fact, content.length),
        kind: fact.kind,
      })),
      attempts: remembered.attempts,
    };
    if (!remembered.turn)
      return toolResult(
        "Not remembered: empty or automated turns (cron, heartbeat, memory context) are skipped.",
        structured,
      );
    const lines = facts.map(({ fact, content }) => {
      const replaced = fact.conflict?.superseded ?? [];
      const note = replaced.length > 0 ? ` (replaces ${replaced.join(", ")})` : "";
      return `- ${fact.key} (${fact.kind}): ${content}${content.length < fact.content.length ? "…" : ""}${note}`;
    });
    return toolResult(
      [
        `Saved the turn as "${remembered.turn.key}".`,
        lines.length === 0
          ? "No durable fact found in it."
          : `${lines.length} fact(s) saved as core memories:`,
        ...lines,
      ].join("\n"),
      structured,
    );
  },
});
