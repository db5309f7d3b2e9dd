import { knowledgeGraph } from "@memory/lifecycle";
import type { CommandHandler } from "../cli/lazy-action.js";

export interface KgOptions {
  namespace?: string;
  asOf?: string;
}

/**
 * `memory kg <entity>`: the triples about an entity valid now or at `--as-of`, through the
 * library's `knowledgeGraph` (bad input is its INVALID_INPUT error: exit code 2).
 */
const kg: CommandHandler<KgOptions> = async (context, args, options) => {
  const [words = []] = args as [string[] | undefined];
  const { memory } = await context.open("none");
  const found = await knowledgeGraph(memory, words.join(" "), {
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    ...(options.asOf === undefined ? {} : { asOf: options.asOf }),
  });
  const { style } = context.output;
  context.output.result(found, () => {
    const count = found.triples.length;
    const lines = [
      `${count} ${count === 1 ? "triple" : "triples"} about ${found.entity} holding at ${found.asOf} (namespace ${found.namespace})`,
    ];
    for (const triple of found.triples) {
      const until = triple.validTo === null ? "" : ` until ${triple.validTo}`;
      lines.push(
        `  ${style.bold(`${triple.subjectName} ${triple.predicate} ${triple.objectName}`)}  ${style.dim(`since ${triple.validFrom}${until}`)}`,
      );
    }
    return lines;
  });
};

export default kg;
