/** Where the server writes what it has to say. Never receives a token. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/**
 * Writes to stderr: stdout belongs to the MCP stdio protocol, and keeping every log on one
 * stream keeps the order readable.
 */
export const stderrLogger: Logger = {
  info: (message) => process.stderr.write(`${message}\n`),
  warn: (message) => process.stderr.write(`warning: ${message}\n`),
  error: (message, error) => {
    const detail =
      error instanceof Error
        ? `\n${error.stack ?? error.message}`
        : error === undefined
          ? ""
          : `\n${String(error)}`;
    process.stderr.write(`error: ${message}${detail}\n`);
  },
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** A loud multi-line notice, for things an operator must not miss (keyword-only fallback). */
export function banner(logger: Logger, lines: string[]): void {
  const rule = "!".repeat(78);
  logger.warn(["", rule, ...lines.map((line) => `!! ${line}`), rule, ""].join("\n"));
}
