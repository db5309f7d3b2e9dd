import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BackendModule, MemoryConfig } from "@memory/api";
import { ConfigError } from "@memory/api";

/** Loads a package by name (a dynamic `import()` from the caller's location). */
export type ModuleLoader = (specifier: string) => Promise<unknown>;

async function defaultLoadModule(specifier: string): Promise<unknown> {
  try {
    return await import(specifier);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw error;
    // With strict installs (pnpm), @memory/api cannot see its siblings; the app can.
    const resolved = createRequire(join(process.cwd(), "package.json")).resolve(specifier);
    return import(pathToFileURL(resolved).href);
  }
}

/**
 * Loads an optional `@memory/*` package. When the package itself is missing the error is a
 * `ConfigError` naming it and what needs it (`purpose`); a missing dependency *of* the package
 * is reported as is. The default loader imports from this package's location, then from the
 * current working directory, so an app that depends on the package finds it.
 */
export async function loadPackage(
  specifier: string,
  purpose: string,
  loadModule: ModuleLoader | undefined,
): Promise<unknown> {
  try {
    return await (loadModule ?? defaultLoadModule)(specifier);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const missing = (error as Error).message ?? "";
    if (
      (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
      missing.includes(`'${specifier}'`)
    ) {
      throw new ConfigError(
        `${purpose} needs the package ${specifier}, which is not installed. @memory packages are not on the public npm registry: install its tarball next to @memory/api (\`npm install ./${tarballName(specifier)}-<version>.tgz\`; \`pnpm release:pack\` in the @memory repository makes them), or install it from the registry your team publishes @memory to.`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** `@memory/postgres` -> `memory-postgres`: the file name npm and pnpm give its tarball. */
function tarballName(specifier: string): string {
  return specifier.replace(/^@/, "").replace("/", "-");
}

/** Loads the configured backend package (`@memory/<backend>`); not for `backend = "none"`. */
export async function loadBackend(
  config: MemoryConfig,
  loadModule: ModuleLoader | undefined,
): Promise<{ specifier: string; backend: Partial<BackendModule> }> {
  const name = config.memory.backend;
  const specifier = `@memory/${name}`;
  const backend = (await loadPackage(specifier, `backend = "${name}"`, loadModule)) as
    | Partial<BackendModule>
    | undefined;
  return { specifier, backend: backend ?? {} };
}
