import type { Memory } from "@memory/api";
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { type Access, canUse } from "../access.js";
import { countNamespace, namespaceSummaries } from "../namespace-summaries.js";
import { listEntries } from "./tool-results.js";

/** Core memories a resource shows, newest first. */
export const CORE_RESOURCE_LIMIT = 20;
/** Newest entries a namespace summary names. */
const SUMMARY_NEWEST = 5;

const coreUri = (namespace: string) => `memory://namespaces/${encodeURIComponent(namespace)}/core`;
const summaryUri = (namespace: string) =>
  `memory://namespaces/${encodeURIComponent(namespace)}/summary`;

/** The namespace named by a resource URI, if the caller may read it. */
function namespaceOf(variables: Record<string, string | string[]>, access: Access): string {
  const raw = variables.namespace;
  let namespace: string;
  try {
    namespace = decodeURIComponent(Array.isArray(raw) ? raw.join(",") : (raw ?? ""));
  } catch {
    throw new McpError(
      ErrorCode.InvalidParams,
      "INVALID_INPUT: the namespace in the resource URI is not valid percent-encoding; encode it with encodeURIComponent.",
    );
  }
  if (!canUse(access, namespace))
    throw new McpError(
      ErrorCode.InvalidParams,
      `FORBIDDEN: this token may not use namespace "${namespace}"; resources/list names the ones it may read.`,
    );
  return namespace;
}

/** The namespaces the caller may read: a scoped token's own, or every namespace with entries. */
async function readableNamespaces(memory: Memory, access: Access): Promise<string[]> {
  const summaries = await namespaceSummaries(memory, access);
  return summaries.map((summary) => summary.namespace);
}

/**
 * The resources docs/getting-started.md promises, per namespace the caller may use (token
 * scopes hold as for the tools): `memory://namespaces/{namespace}/core`, the recent core
 * memories as text, and `memory://namespaces/{namespace}/summary`, the namespace's counts per
 * category and its newest entries as JSON.
 */
export function registerMemoryResources(server: McpServer, memory: Memory, access: Access): void {
  server.registerResource(
    "core-memories",
    new ResourceTemplate("memory://namespaces/{namespace}/core", {
      list: async () => ({
        resources: (await readableNamespaces(memory, access)).map((namespace) => ({
          uri: coreUri(namespace),
          name: `core memories of ${namespace}`,
          mimeType: "text/plain",
        })),
      }),
    }),
    {
      title: "Recent core memories",
      description: `The ${CORE_RESOURCE_LIMIT} most recently updated core memories of a namespace (durable facts, preferences and decisions), newest first; long contents are cut (memory_get reads them whole).`,
      mimeType: "text/plain",
    },
    async (uri, variables) => {
      const namespace = namespaceOf(variables, access);
      const entries = await memory.list({
        namespace,
        categories: ["core"],
        limit: CORE_RESOURCE_LIMIT,
      });
      const listing = listEntries(entries, () => "- ");
      const text =
        entries.length === 0
          ? `No core memories in namespace "${namespace}".`
          : `Core memories of namespace "${namespace}", newest first:\n${listing.lines.join("\n")}`;
      return { contents: [{ uri: uri.href, mimeType: "text/plain", text }] };
    },
  );

  server.registerResource(
    "namespace-summary",
    new ResourceTemplate("memory://namespaces/{namespace}/summary", {
      list: async () => ({
        resources: (await readableNamespaces(memory, access)).map((namespace) => ({
          uri: summaryUri(namespace),
          name: `summary of ${namespace}`,
          mimeType: "application/json",
        })),
      }),
    }),
    {
      title: "Namespace summary",
      description:
        "A namespace's entry counts (per category: core, daily, conversation, other; superseded apart) and its newest entries (key, category, updatedAt), as JSON.",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const namespace = namespaceOf(variables, access);
      const [counts, newest] = await Promise.all([
        countNamespace(memory, namespace),
        memory.list({ namespace, limit: SUMMARY_NEWEST }),
      ]);
      const summary = {
        ...counts,
        newest: newest.map(({ key, category, updatedAt }) => ({ key, category, updatedAt })),
      };
      return {
        contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(summary) }],
      };
    },
  );
}
