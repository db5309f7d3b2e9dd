// Replaced by tsdown's `define` with the version from package.json. Under tsc/vitest (no build
// step) the identifier is undefined, unless vitest.config.ts defines it too.
declare const __MEMORY_SERVER_VERSION__: string | undefined;

/** The version of `@memory/server`, injected at build time. */
export const VERSION: string =
  typeof __MEMORY_SERVER_VERSION__ === "string" ? __MEMORY_SERVER_VERSION__ : "0.0.0-dev";
