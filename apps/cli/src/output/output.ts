import { once } from "node:events";
import { createStyle, type Style } from "./style.js";
import type { TerminalFeatures } from "./terminal.js";

/**
 * Where a command writes. Results go to stdout (human text, or exactly one JSON document with
 * `--json`); notes, warnings and progress go to stderr so that piping stdout stays clean.
 */
export class Output {
  readonly json: boolean;
  readonly verbose: boolean;
  readonly terminal: TerminalFeatures;
  readonly style: Style;
  readonly #stdout: NodeJS.WritableStream;
  readonly #stderr: NodeJS.WritableStream;

  constructor(options: {
    json: boolean;
    verbose: boolean;
    terminal: TerminalFeatures;
    stdout?: NodeJS.WritableStream;
    stderr?: NodeJS.WritableStream;
  }) {
    this.json = options.json;
    this.verbose = options.verbose;
    this.terminal = options.terminal;
    this.style = createStyle(options.terminal.color);
    this.#stdout = options.stdout ?? process.stdout;
    this.#stderr = options.stderr ?? process.stderr;
  }

  /** Prints a result: `human()` text normally, `value` as one JSON document with `--json`. */
  result(value: unknown, human: () => string | string[]): void {
    if (this.json) {
      this.#stdout.write(`${JSON.stringify(value)}\n`);
      return;
    }
    const text = human();
    const lines = Array.isArray(text) ? text : [text];
    if (lines.length > 0) this.#stdout.write(`${lines.join("\n")}\n`);
  }

  /** A note for people (stderr); silent with `--json`, whose stdout must parse. */
  note(message: string): void {
    if (!this.json) this.#stderr.write(`${message}\n`);
  }

  /** A warning (stderr), shown even with `--json` because scripts log stderr. */
  warn(message: string): void {
    this.#stderr.write(`${this.style.yellow("warning:")} ${message}\n`);
  }

  /** Writes raw text to stdout for streams (JSONL export), honouring back-pressure. */
  async write(chunk: string): Promise<void> {
    if (!this.#stdout.write(chunk)) await once(this.#stdout, "drain");
  }

  /** Raw stderr access for the error printer and progress bars. */
  get stderr(): NodeJS.WritableStream {
    return this.#stderr;
  }

  get stdout(): NodeJS.WritableStream {
    return this.#stdout;
  }
}
