import { FACT_KINDS } from "@memory/lifecycle";
import { namespaceInput } from "@memory/tools";
import { z } from "zod";
import { rememberTurn } from "../../operations/turns.js";
import { RememberRequestSchema } from "../../wire/requests.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import {
  cutAt,
  EntryMetadataSchema,
  LIST_ENTRY_MAX_CHARS,
  metadataOf,
  toolResult,
} from "../tool-results.js";
import { turnInputs } from "./tool-inputs.js";

export const memoryRemember = defineTool({
  ...mcpToolSpec("memory_remember"),
  // POST /v1/remember's body.
  inputSchema: RememberRequestSchema.extend({ ...turnInputs, namespace: namespaceInput }).strict(),
  outputSchema: z.object({
    turn: EntryMetadataSchema.nullable().describe("The saved turn; null when it was skipped."),
    facts: z
      .array(EntryMetadataSchema.extend({ kind: z.enum(FACT_KINDS) }))
      .describe("The durable facts saved as core memories (their contents are in the text)."),
    attempts: z.number().int(),
  }),
  // An agent should not see a tool that can only fail.
  available: ({ chatModel }) => chatModel !== null,
  async run(input, scope) {
    const remembered = await rememberTurn(input, scope);
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
