import { ConfigError } from "@memory/api";

/**
 * Loads an optional heavy dependency on first use. Keeping these out of static imports means
 * `@memory/embeddings` costs nothing for users of other providers, and a missing package
 * becomes an error that says what to install instead of a crash at import time.
 */
export async function importOptional<T>(
  packageName: string,
  purpose: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isModuleNotFound(error, packageName)) {
      throw new ConfigError(
        `${purpose} needs the optional package "${packageName}": install it with \`pnpm add ${packageName}\` (or npm install ${packageName}).`,
        { cause: error, details: { package: packageName } },
      );
    }
    throw error;
  }
}

function isModuleNotFound(error: unknown, packageName: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : "";
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    message.includes(packageName)
  );
}
