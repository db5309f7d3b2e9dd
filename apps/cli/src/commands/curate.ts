import { curate } from "@memory/lifecycle";
import type { CommandHandler } from "../cli/lazy-action.js";
import { renderTable } from "../output/table.js";
import { requireChatModel } from "../store/open-chat-model.js";

export interface CurateCommandOptions {
  dryRun?: boolean;
  namespace?: string;
}

/**
 * `memory curate [--dry-run]`: the configured chat model reviews core and daily entries and
 * proposes deletions and merges; the proposal is validated, applied (unless --dry-run) and
 * recorded as job state `curate`, which `memory jobs` shows.
 */
const curateCommand: CommandHandler<CurateCommandOptions> = async (context, _args, options) => {
  const { dryRun, namespace } = options;
  const { config } = context.config();
  const chatModel = requireChatModel(config.memory, "memory curate");
  const { memory } = await context.open("configured");
  const report = await curate(memory, {
    chatModel,
    dryRun: dryRun === true,
    maxEntries: config.memory.curator_max_entries,
    ...(namespace === undefined ? {} : { namespace }),
  });
  context.output.result(report, () => {
    const actions = [
      ...report.deleted.map((item) => ({
        action: dryRun ? "would delete" : "deleted",
        namespace: item.namespace,
        keys: item.key,
        result: "",
      })),
      ...report.merged.map((group) => ({
        action: dryRun ? "would merge" : "merged",
        namespace: group.namespace,
        keys: group.keys.join(", "),
        result: `-> ${group.into}: ${group.content}`,
      })),
      ...report.skipped.map((item) => ({
        action: "skipped",
        namespace: item.namespace,
        keys: item.keys.join(", "),
        result: item.reason,
      })),
    ];
    const { before, after } = report;
    return [
      ...(actions.length === 0
        ? [`${report.model} proposed no change (${report.reviewed} entries reviewed).`]
        : renderTable(actions, [
            { header: "action", value: (row) => row.action },
            { header: "namespace", value: (row) => row.namespace },
            { header: "keys", value: (row) => row.keys },
            { header: "result", value: (row) => row.result, flexible: true },
          ])),
      `core ${before.core} -> ${after.core}, daily ${before.daily} -> ${after.daily}, total ${before.total} -> ${after.total}`,
      dryRun ? "dry run: nothing was changed." : "",
    ].filter((line) => line !== "");
  });
};

export default curateCommand;
