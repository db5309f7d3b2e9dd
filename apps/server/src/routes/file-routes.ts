import { readFile } from "../operations/files.js";
import { defineRoute, errorResponses, json, scopeOf } from "../route-spec.js";
import { FileQuery } from "../wire/queries.js";
import { FileResponseSchema } from "../wire/responses.js";

/** The memory files of file-backed backends. */
export const fileRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/files",
    operationId: "readFile",
    summary: "Read lines of a memory file (Markdown backend)",
    description:
      "The `path`, `startLine` and `endLine` of a recall result name a file and lines; this reads them with their surroundings. Confined to the memory tree (no absolute paths, `..` or links leading out: INVALID_INPUT) and to the token's namespaces; other backends answer UNSUPPORTED.",
    tag: "memories",
    query: FileQuery,
    responses: {
      200: { description: "The lines.", schema: FileResponseSchema },
      404: { description: "No such file (NOT_FOUND)." },
      501: { description: "The backend keeps no files (UNSUPPORTED)." },
      ...errorResponses,
    },
    handler: async (input) => json(await readFile(input.query, scopeOf(input))),
  }),
];
