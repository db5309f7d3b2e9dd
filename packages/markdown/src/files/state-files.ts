import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";

/** Leases by name, as `leases.json` holds them; a released lease stays (expired) so its token keeps counting. */
export type LeaseTable = Record<string, { holder: string; token: number; expiresAtMs: number }>;

/**
 * Small JSON files under the hidden state directory (`leases.json`, `jobs.json`): read and
 * written only with the tree lock held, replaced atomically.
 */
export class StateFiles {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  read<T>(name: string, fallback: T): T {
    try {
      return JSON.parse(readFileSync(join(this.dir, name), "utf8")) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return fallback;
      if (error instanceof SyntaxError) return fallback; // damaged: start over (doctor reports it)
      throw error;
    }
  }

  write(name: string, value: unknown): void {
    writeFileAtomic(join(this.dir, name), JSON.stringify(value));
  }
}
