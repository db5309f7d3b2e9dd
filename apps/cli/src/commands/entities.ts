import { listEntities } from "@memory/core";
import type { CommandHandler } from "../cli/lazy-action.js";

export interface EntitiesOptions {
  namespace?: string;
  top?: number;
}

/** `memory entities [--top N]`: the namespace's entities, most mentioned first. */
const entities: CommandHandler<EntitiesOptions> = async (context, _args, options) => {
  const namespace = options.namespace ?? "default";
  const { memory } = await context.open("none");
  const found = await listEntities(memory, {
    namespace,
    ...(options.top === undefined ? {} : { top: options.top }),
  });
  const { style } = context.output;
  context.output.result(found, () => {
    if (found.length === 0)
      return [
        `no entities in namespace ${namespace} (entity_reading = true in memory.toml reads them from entries stored from then on)`,
      ];
    return found.map(
      (entity) =>
        `${String(entity.mentions).padStart(5)}  ${style.bold(entity.name)}  ${style.dim(entity.key)}`,
    );
  });
};

export default entities;
