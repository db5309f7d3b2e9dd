import { relationGraph } from "@memory/core";
import type { CommandHandler } from "../cli/lazy-action.js";

export interface GraphOptions {
  namespace?: string;
  depth?: number;
  type?: string[];
}

const PREVIEW = 80;

function preview(content: string | undefined): string {
  if (content === undefined) return "(forgotten meanwhile)";
  const line = content.replace(/\s+/g, " ").trim();
  return line.length > PREVIEW ? `${line.slice(0, PREVIEW - 1)}…` : line;
}

/**
 * `memory graph <key>`: breadth-first over relations (both directions), bounded by `--depth`
 * (at most 3) and 100 entries, through the library's `relationGraph`.
 */
const graph: CommandHandler<GraphOptions> = async (context, args, options) => {
  const [key] = args as [string];
  const namespace = options.namespace ?? "default";
  const { memory } = await context.open("none");
  const found = await relationGraph(memory, key, {
    namespace,
    ...(options.depth === undefined ? {} : { depth: options.depth }),
    ...(options.type ? { types: options.type } : {}),
  });
  const { edges } = found;
  const { style } = context.output;
  context.output.result(found, () => {
    const lines = [
      `${found.nodes.length} ${found.nodes.length === 1 ? "entry" : "entries"} and ${edges.length} ${edges.length === 1 ? "relation" : "relations"} within ${found.depth} ${found.depth === 1 ? "step" : "steps"} of ${key} (namespace ${namespace})${found.truncated ? `, stopped at ${found.nodes.length} entries` : ""}`,
    ];
    for (const node of found.nodes)
      lines.push(
        `  ${style.dim(`[${node.depth}]`)} ${style.bold(node.key)}  ${preview(node.content)}`,
      );
    if (edges.length > 0) lines.push("relations:");
    for (const edge of edges)
      lines.push(`  ${edge.from} -${edge.type} (${edge.weight})-> ${edge.to}`);
    return lines;
  });
};

export default graph;
