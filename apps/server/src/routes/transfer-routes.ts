import type { MemoryEntry } from "@memory/api";
import { readNdjsonLines } from "../body.js";
import { toErrorResponse } from "../http-error.js";
import type { Logger } from "../logger.js";
import { exportEntries, importEntries } from "../operations/transfer.js";
import { defineRoute, errorResponses, json, scopeOf } from "../route-spec.js";
import { MemoryEntrySchema } from "../wire/entry.js";
import { ExportQuery } from "../wire/queries.js";
import { ImportResponseSchema } from "../wire/responses.js";

const NDJSON = "application/x-ndjson";
// Export writes in chunks of about this size: one write per entry would cost a syscall each.
const EXPORT_CHUNK_BYTES = 64 * 1024;

/** Streams NDJSON from several async iterables in order. A failure mid-stream ends with an error line. */
function ndjsonStream(sources: AsyncIterable<MemoryEntry>[], logger: Logger) {
  const encoder = new TextEncoder();
  let index = 0;
  let iterator: AsyncIterator<MemoryEntry> | undefined;
  let finished = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = "";
      try {
        while (chunk.length < EXPORT_CHUNK_BYTES) {
          if (!iterator) {
            const source = sources[index++];
            if (!source) {
              finished = true;
              break;
            }
            iterator = source[Symbol.asyncIterator]();
          }
          const next = await iterator.next();
          if (next.done) {
            iterator = undefined;
            continue;
          }
          chunk += `${JSON.stringify(next.value)}\n`;
        }
      } catch (error) {
        // Headers are gone already: the stream ends with one error line in the usual shape.
        const { body, internal } = toErrorResponse(error);
        if (internal) logger.error("export failed mid-stream", error);
        chunk += `${JSON.stringify(body)}\n`;
        finished = true;
      }
      if (chunk !== "") controller.enqueue(encoder.encode(chunk));
      if (finished) controller.close();
    },
    async cancel() {
      await iterator?.return?.();
    },
  });
}

/** Export and import, streamed as NDJSON. */
export const transferRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/export",
    operationId: "export",
    summary: "Export entries as NDJSON, oldest first, streamed",
    description:
      'One MemoryEntry per line. Without `namespace`, every namespace the token may use. If the backend fails mid-stream, the last line is an error object ({"error":{code,message}}).',
    tag: "transfer",
    query: ExportQuery,
    responses: {
      200: {
        description: "NDJSON, one MemoryEntry per line.",
        lineSchema: MemoryEntrySchema,
        contentType: NDJSON,
      },
      ...errorResponses,
    },
    handler: (input) => {
      // Validated before the 200 goes out: a bad filter is a 400, not an error line in a stream.
      const sources = exportEntries(input.query, scopeOf(input));
      return new Response(ndjsonStream(sources, input.context.logger), {
        headers: { "content-type": `${NDJSON}; charset=utf-8` },
      });
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/import",
    operationId: "import",
    summary: "Import NDJSON entries (upsert on namespace + key), streamed",
    description:
      "One entry per line, as an export writes them (a MemoryEntry: key and content required; id, category, namespace, sessionId, importance, createdAt, updatedAt, supersededBy, relations and embedding kept; score and explain ignored), so an export can be sent back as is. Lines that are not valid JSON, do not match the schema, or name a namespace the token may not use are rejected one by one; the rest is imported. Entries without a namespace go to the token's default namespace.",
    tag: "transfer",
    rawBody: {
      contentType: NDJSON,
      description: "NDJSON, one entry (MemoryEntry fields) per line.",
    },
    responses: {
      200: { description: "What was imported and rejected.", schema: ImportResponseSchema },
      413: { description: "The body or one line is too large (PAYLOAD_TOO_LARGE)." },
      ...errorResponses,
    },
    handler: async (input) => {
      const { request, context } = input;
      const lines = readNdjsonLines(request, context.maxImportBytes, context.maxBodyBytes);
      return json(await importEntries(lines, scopeOf(input)));
    },
  }),
];
