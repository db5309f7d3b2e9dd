import type { CommandHandler } from "../cli/lazy-action.js";

export interface FeedbackOptions {
  used: string[];
  ignored?: string[];
  namespace?: string;
}

/**
 * `memory feedback <recallId> --used k1,k2 [--ignored k3]`: what the agent did with a recall's
 * results. The library checks them: an unknown recallId is NOT_FOUND (exit code 3), a key that
 * was not a result INVALID_INPUT (exit code 2).
 */
const feedback: CommandHandler<FeedbackOptions> = async (context, args, options) => {
  const [recallId] = args as [string];
  const { memory } = await context.open("none");
  const report = await memory.feedback({
    recallId,
    used: options.used,
    ...(options.ignored === undefined ? {} : { ignored: options.ignored }),
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
  });
  const list = (keys: string[]) => (keys.length === 0 ? "none" : keys.join(", "));
  context.output.result(report, () => [
    `recorded feedback on ${report.recallId}: used ${list(report.used)}; ignored ${list(report.ignored)}`,
  ]);
};

export default feedback;
