import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { loadConfig } from "@memory/core";
import { CommandError } from "../cli/cli-errors.js";
import { EXIT_CODES } from "../cli/exit-codes.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { defaultConfigTemplate } from "../config/default-config-template.js";
import { CONFIG_FILE_NAME } from "../config/find-config-file.js";

export interface InitOptions {
  force?: boolean;
  embeddingProvider: string;
}

// The embedded default; other backends are configured by editing the file (see its comments).
const backend = "sqlite";

/** `memory init`: writes memory.toml (at --config, or ./memory.toml) and creates ./.memory. */
const init: CommandHandler<InitOptions> = async (context, _args, options) => {
  const { force, embeddingProvider } = options;
  const file = path.resolve(context.globals.config ?? CONFIG_FILE_NAME);
  if (existsSync(file) && !force) {
    throw new CommandError(
      `${file} already exists: edit it, or pass --force to overwrite it with the default.`,
      EXIT_CODES.failure,
    );
  }
  const text = defaultConfigTemplate({ backend, embeddingProvider });
  // Validate before writing, so a bad --embedding-provider leaves no broken file behind.
  loadConfig({ text, file, env: {} });
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text, "utf8");
  const dataDir = path.join(path.dirname(file), ".memory");
  await mkdir(dataDir, { recursive: true });
  context.output.result({ file, dataDir, backend, embeddingProvider, deferEmbedding: true }, () => [
    `wrote ${file}`,
    `  backend ${backend}, data under ${dataDir}, embedding_provider ${embeddingProvider}, deferred embedding`,
    'next: memory store "The user prefers TypeScript" && memory recall typescript --explain',
  ]);
};

export default init;
