// Replaced by tsdown's `define` with the version from package.json, so printing the version
// reads no file. Under tsc/vitest (no build step) the identifier is undefined.
declare const __MEMORY_CLI_VERSION__: string | undefined;

/** The version of `@memory/cli`, injected at build time. */
export const VERSION: string =
  typeof __MEMORY_CLI_VERSION__ === "string" ? __MEMORY_CLI_VERSION__ : "0.0.0-dev";
