import { UsageError } from "../cli/cli-errors.js";
import type { CommandHandler } from "../cli/lazy-action.js";

export interface RelateOptions {
  namespace?: string;
  weight?: number;
  metadata?: string;
}

/** `memory relate <from> <to> <type>`: the library refuses what is wrong (typed errors, exit codes). */
const relate: CommandHandler<RelateOptions> = async (context, args, options) => {
  const [from, to, type] = args as [string, string, string];
  const namespace = options.namespace ?? "default";
  let metadata: Record<string, unknown> | undefined;
  if (options.metadata !== undefined) {
    try {
      metadata = JSON.parse(options.metadata);
    } catch (error) {
      throw new UsageError(
        `--metadata must be a JSON object like '{"source":"chat"}': ${(error as Error).message}`,
      );
    }
  }
  const { memory } = await context.open("none");
  const relation = await memory.relate(from, to, type, {
    namespace,
    ...(options.weight === undefined ? {} : { weight: options.weight }),
    ...(metadata === undefined ? {} : { metadata }),
  });
  context.output.result(
    relation,
    () =>
      `related ${from} -${type}-> ${to} (weight ${relation.weight}, namespace ${namespace}); see \`memory graph ${from}\``,
  );
};

export default relate;
