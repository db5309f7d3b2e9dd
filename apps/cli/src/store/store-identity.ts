import path from "node:path";
import type { MemoryConfig } from "@memory/api";

function table(config: MemoryConfig, name: string): Record<string, unknown> {
  const value = config[name];
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * A string naming the physical store a configuration opens, so `migrate` can refuse to copy a
 * store onto itself. Mirrors each backend's documented defaults; unknown backends return
 * undefined (no check).
 */
export function storeIdentity(config: MemoryConfig): string | undefined {
  const { backend, data_dir: dataDir } = config.memory;
  if (backend === "sqlite") {
    const file = table(config, "sqlite").path;
    return `sqlite:${path.resolve(typeof file === "string" ? file : path.join(dataDir, "memory", "brain.db"))}`;
  }
  if (backend === "postgres") {
    const postgres = table(config, "postgres");
    const url = postgres.url ?? process.env.MEMORY_POSTGRES_URL ?? process.env.DATABASE_URL;
    return `postgres:${String(url)}#${String(postgres.schema ?? "memory")}`;
  }
  if (backend === "markdown" || backend === "lucid") return `${backend}:${path.resolve(dataDir)}`;
  return undefined;
}
