import type { Output } from "./output.js";

/** A progress display for long jobs; a no-op when nobody is watching. */
export interface ProgressReporter {
  /** `total`: how many items the job has, when known (the bar then shows it, a percentage and an ETA). */
  update(done: number, total?: number): void;
  stop(): void;
}

const SILENT: ProgressReporter = { update() {}, stop() {} };

/** The bar's text: with a known total, progress against it and an ETA; without, a count. */
export function progressFormat(label: string, unit: string, knownTotal: boolean): string {
  return knownTotal
    ? `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {rate} ${unit}/s | ETA {eta_formatted}`
    : `${label} {value} ${unit} | {rate} ${unit}/s`;
}

/**
 * A bar with rate and ETA on stderr, only when `output.terminal.progress` allows it (a terminal,
 * no NO_COLOR, no --json). cli-progress is imported only then, so scripts never load it. The
 * first `update` decides the layout: a job that knows its total gets a bar against it; one
 * that does not (stdin) gets a running count and rate instead of a bar that is always full.
 */
export async function createProgress(
  output: Output,
  label: string,
  unit = "entries",
): Promise<ProgressReporter> {
  if (!output.terminal.progress) return SILENT;
  const { SingleBar, Presets } = (await import("cli-progress")).default;
  let bar: InstanceType<typeof SingleBar> | undefined;
  let knownTotal = false;
  const started = Date.now();
  return {
    update(done, total) {
      const rate = Math.round(done / Math.max((Date.now() - started) / 1000, 0.001));
      if (bar === undefined) {
        knownTotal = total !== undefined && total > 0;
        bar = new SingleBar(
          {
            format: progressFormat(label, unit, knownTotal),
            stream: output.stderr as NodeJS.WriteStream,
            hideCursor: true,
            clearOnComplete: false,
            etaBuffer: 50,
            fps: 10,
          },
          Presets.shades_classic,
        );
        bar.start(knownTotal ? total! : done, done, { rate });
        return;
      }
      // A total can grow (an import's estimate from bytes read); it never goes below `done`.
      if (knownTotal && total !== undefined) bar.setTotal(Math.max(total, done));
      if (!knownTotal) bar.setTotal(done);
      bar.update(done, { rate });
    },
    stop() {
      bar?.stop();
    },
  };
}
