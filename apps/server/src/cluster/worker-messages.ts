/** What a worker tells the primary over the cluster IPC channel. */
export interface WorkerReady {
  type: "memory:ready";
  url: string;
  host: string;
  port: number;
  pid: number;
  /** The backend's name (`sqlite`, `postgres`, ...). */
  backend: string;
  /**
   * The store is persistent and several processes may open it (`capabilities.multiInstance`
   * and `persistent`): only then may more than one worker serve it.
   */
  shareable: boolean;
  /** The start-up banner the entry point asked for (`describe`), printed once by the primary. */
  description?: string;
}

/** What the primary tells a worker. */
export interface WorkerShutdown {
  type: "memory:shutdown";
}

export function isWorkerReady(message: unknown): message is WorkerReady {
  return (message as { type?: unknown } | null)?.type === "memory:ready";
}

export function isWorkerShutdown(message: unknown): message is WorkerShutdown {
  return (message as { type?: unknown } | null)?.type === "memory:shutdown";
}
