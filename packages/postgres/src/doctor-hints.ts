import type { BackendDoctorHints, MemoryConfig } from "@memory/api";
import { describeStore } from "./create-memory-from-config.js";

// Errors that mean "nothing answered at that address", as opposed to a refused login.
const UNREACHABLE =
  /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ECONNRESET|timeout)\b/i;

/** Which setting holds the URL, as `createMemoryFromConfig` reads them: table, then environment. */
function urlSetting(
  config: MemoryConfig,
  file: string | undefined,
  env: Record<string, string | undefined>,
): string {
  const table = config.postgres as { url?: unknown } | undefined;
  if (typeof table?.url === "string")
    return `[postgres].url${file ? ` in ${file}` : ""} (it wins over MEMORY_POSTGRES_URL)`;
  if (env.MEMORY_POSTGRES_URL)
    return "MEMORY_POSTGRES_URL (or [postgres].url in memory.toml, which wins over it)";
  if (env.DATABASE_URL)
    return "DATABASE_URL (or [postgres].url in memory.toml / MEMORY_POSTGRES_URL, which win over it)";
  return "[postgres].url in memory.toml (or MEMORY_POSTGRES_URL)";
}

/** `BackendModule.doctorHints`: what `memory doctor` advises for a PostgreSQL store. */
export const doctorHints: BackendDoctorHints = {
  notWritable: () =>
    "free space on the database server, or grant the [postgres].url user write access to the schema",
  unavailable(config, error, context) {
    const env = context.env ?? process.env;
    let identity = "";
    try {
      identity = describeStore(config, env).identity;
    } catch {
      // No URL configured: the setting named below says where to put one.
    }
    const address = /^postgres:\/\/([^/]*)\//.exec(identity)?.[1];
    const where = address ? ` at ${address}` : "";
    const setting = urlSetting(config, context.file, env);
    const code = UNREACHABLE.exec(error)?.[1];
    if (code !== undefined) {
      return {
        message: `PostgreSQL is unreachable${where} (${code})`,
        fix: `check that the PostgreSQL server is running and accepts TCP connections${where}, and that ${setting} names the right host and port`,
      };
    }
    return {
      message: `PostgreSQL${where} refused to open the store: ${error}`,
      fix: `check the user, password and database in ${setting}, and that the user may create the [postgres].schema`,
    };
  },
};
