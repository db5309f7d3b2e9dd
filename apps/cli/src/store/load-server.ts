import { CommandError } from "../cli/cli-errors.js";
import { EXIT_CODES } from "../cli/exit-codes.js";

type ServerModule = typeof import("@memory/server");
type ServerContextModule = typeof import("@memory/server/context");

/**
 * Loads `@memory/server` on demand: only `serve` and `mcp` pay for hono and the MCP SDK.
 * A missing or unbuilt package becomes an error that says what to do.
 */
export function loadServer(purpose: string): Promise<ServerModule> {
  return importServer(purpose, () => import("@memory/server"));
}

/**
 * Loads `@memory/server/context`, the operation behind `POST /v1/context` and the MCP tool
 * `memory_context`, alone (no hono, no MCP SDK): `memory context` runs the very same code.
 */
export function loadServerContext(purpose: string): Promise<ServerContextModule> {
  return importServer(purpose, () => import("@memory/server/context"));
}

async function importServer<Module>(purpose: string, load: () => Promise<Module>): Promise<Module> {
  try {
    return await load();
  } catch (error) {
    throw new CommandError(
      `${purpose} needs @memory/server, which could not be loaded (${(error as Error).message.split("\n")[0]}): install it, or build it with \`pnpm --filter @memory/server build\`.`,
      EXIT_CODES.failure,
    );
  }
}

/** The CLI's own resolution: backends are dependencies of @memory/cli. */
export const loadModule = (specifier: string): Promise<unknown> => import(specifier);

/** Resolves on the first SIGINT or SIGTERM, so a server can shut down gracefully. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
