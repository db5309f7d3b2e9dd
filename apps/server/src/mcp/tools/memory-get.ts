import { InvalidInputError } from "@memory/api";
import { entryHeader, namespaceInput } from "@memory/tools";
import { z } from "zod";
import { findEntry } from "../../operations/entries.js";
import { readFile } from "../../operations/files.js";
import { INPUT_BOUNDS } from "../../wire/fields.js";
import { GetByKeyRequestSchema } from "../../wire/requests.js";
import { FileResponseSchema } from "../../wire/responses.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import {
  cutAt,
  EntryMetadataSchema,
  metadataOf,
  RESULT_MAX_CHARS,
  readOnHint,
  toolResult,
} from "../tool-results.js";

export const memoryGet = defineTool({
  ...mcpToolSpec("memory_get"),
  inputSchema: z
    .object({
      key: GetByKeyRequestSchema.shape.key.optional().describe("The exact key."),
      offset: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe(
          `With key: the first character of the content to return; default 0. At most ${RESULT_MAX_CHARS} characters come per call.`,
        ),
      path: z
        .string()
        .min(1)
        .max(INPUT_BOUNDS.filePath)
        .optional()
        .describe(
          "Instead of a key: a memory file (MEMORY.md, memory/2026-11-24.md) to read lines of.",
        ),
      from: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe("With path: first line (1-based); default 1."),
      lines: z
        .number()
        .int()
        .min(1)
        .max(INPUT_BOUNDS.fileLines)
        .optional()
        .describe(`With path: how many lines; default all (at most ${INPUT_BOUNDS.fileLines}).`),
      namespace: namespaceInput,
    })
    .strict(),
  outputSchema: z.object({
    found: z.boolean(),
    entry: EntryMetadataSchema.optional(),
    offset: z.number().int().optional().describe("First character of the content shown."),
    nextOffset: z
      .number()
      .int()
      .optional()
      .describe("Where the next part starts, when the content goes on."),
    file: FileResponseSchema.omit({ text: true })
      .extend({ textChars: z.number().int(), textShown: z.number().int() })
      .optional(),
  }),
  async run(input, scope) {
    if ((input.key === undefined) === (input.path === undefined))
      throw new InvalidInputError("memory_get needs either key or path, not both.");
    if (input.path !== undefined) {
      if (input.offset !== undefined)
        throw new InvalidInputError("offset goes with key; with path, use from and lines.");
      const { text, ...file } = await readFile(
        { path: input.path, from: input.from, lines: input.lines },
        scope,
      );
      const shown = cutAt(text, RESULT_MAX_CHARS);
      const marker =
        shown.length < text.length
          ? `\n… [cut at ${shown.length} of ${text.length} characters; read fewer lines at once (lines) to see the rest]`
          : "";
      return toolResult(`${shown}${marker}`, {
        found: true,
        file: { ...file, textChars: text.length, textShown: shown.length },
      });
    }
    if (input.from !== undefined || input.lines !== undefined)
      throw new InvalidInputError("from and lines go with path; with key, use offset.");
    const entry = await findEntry({ key: input.key as string, namespace: input.namespace }, scope);
    if (!entry) return toolResult(`No memory with key "${input.key}".`, { found: false });
    const offset = Math.min(input.offset ?? 0, entry.content.length);
    const part = cutAt(entry.content.slice(offset), RESULT_MAX_CHARS);
    const next = offset + part.length;
    const range =
      offset === 0 && next === entry.content.length
        ? ""
        : ` (characters ${offset}-${next} of ${entry.content.length})`;
    const marker =
      next < entry.content.length ? `\n… [continues: ${readOnHint(entry, next)} reads on]` : "";
    return toolResult(`${entryHeader(entry)}${range}: ${part}${marker}`, {
      found: true,
      entry: metadataOf(entry, part.length),
      offset,
      ...(next < entry.content.length ? { nextOffset: next } : {}),
    });
  },
});
