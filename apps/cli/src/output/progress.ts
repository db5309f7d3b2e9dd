import type { Output } from "./output.js";

/** A progress display for long jobs; a no-op when nobody is watching. */
export interface ProgressReporter {
  update(done: number, total?: number): void;
  stop(): void;
}

const SILENT: ProgressReporter = { update() {}, stop() {} };

/**
 * A bar with rate and ETA on stderr, only when `output.terminal.progress` allows it (a terminal,
 * no NO_COLOR, no --json). cli-progress is imported only then, so scripts never load it.
 */
export async function createProgress(
  output: Output,
  label: string,
  unit = "entries",
): Promise<ProgressReporter> {
  if (!output.terminal.progress) return SILENT;
  const { SingleBar, Presets } = (await import("cli-progress")).default;
  let knownTotal = true;
  const bar = new SingleBar(
    {
      format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {rate}/s | ETA {eta_formatted}`,
      stream: output.stderr as NodeJS.WriteStream,
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 50,
      fps: 10,
    },
    Presets.shades_classic,
  );
  const started = Date.now();
  let running = false;
  return {
    update(done, total) {
      const rate = Math.round(done / Math.max((Date.now() - started) / 1000, 0.001));
      if (!running) {
        knownTotal = total !== undefined && total > 0;
        bar.start(knownTotal ? total! : Math.max(done, 1), done, { rate });
        running = true;
        return;
      }
      if (knownTotal && total !== undefined) bar.setTotal(total);
      // Without a total (stdin), the bar tracks what was read so far.
      if (!knownTotal) bar.setTotal(Math.max(done, 1));
      bar.update(done, { rate });
    },
    stop() {
      if (running) bar.stop();
    },
  };
}
