import type { Memory } from "@memory/api";
import { type CliConfig, loadCliConfig } from "../config/load-cli-config.js";
import type { Output } from "../output/output.js";
import { type EmbeddingNeed, type OpenedMemory, openMemory } from "../store/open-memory.js";
import { EXIT_CODES, type ExitCode } from "./exit-codes.js";

/** Options every command accepts. */
export interface GlobalOptions {
  config?: string;
  json: boolean;
  verbose: boolean;
}

/**
 * What a command gets: its output, the configuration (loaded on first use, so commands that do
 * not need one, like `init`, never fail on a broken file), and stores it opens, which are closed
 * when the command ends, even when it fails.
 */
export class CommandContext {
  readonly globals: GlobalOptions;
  readonly output: Output;
  /**
   * Set by a command that printed its full result but must still fail (an import with rejected
   * lines): the output stays one document, and scripts see the failure in the exit code.
   */
  exitCode: ExitCode = EXIT_CODES.ok;
  #config: CliConfig | undefined;
  readonly #opened: Memory[] = [];

  constructor(globals: GlobalOptions, output: Output) {
    this.globals = globals;
    this.output = output;
  }

  config(): CliConfig {
    this.#config ??= loadCliConfig(this.globals.config);
    return this.#config;
  }

  /** Opens the configured store; closed automatically by `dispose()`. */
  async open(
    need: EmbeddingNeed,
    config: CliConfig = this.config(),
    options: { longRunning?: boolean } = {},
  ): Promise<OpenedMemory> {
    const opened = await openMemory(config.config, need, options);
    this.#opened.push(opened.memory);
    return opened;
  }

  /** Closes every store this command opened (close drains deferred embeddings). */
  async dispose(): Promise<void> {
    const errors: unknown[] = [];
    for (const memory of this.#opened.splice(0).reverse()) {
      try {
        await memory.close();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw errors[0];
  }
}
