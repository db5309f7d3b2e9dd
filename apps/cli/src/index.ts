export { EXIT_CODES, type ExitCode } from "./cli/exit-codes.js";
export { runCli } from "./cli/run-cli.js";
export { type ConfigLocation, findConfigFile } from "./config/find-config-file.js";
export { VERSION } from "./version.js";
