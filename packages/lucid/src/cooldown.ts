/**
 * After a failure of the external tool, recall leaves it alone for a while: a missing or broken
 * tool must not add its timeout to every recall. The clock is injected so tests need no waiting.
 */
export class Cooldown {
  readonly #durationMs: number;
  readonly #now: () => number;
  #until = 0;
  #lastFailure: { at: number; reason: string } | undefined;

  constructor(durationMs: number, now: () => number) {
    this.#durationMs = durationMs;
    this.#now = now;
  }

  /** True while the tool should be left alone. */
  get active(): boolean {
    return this.#now() < this.#until;
  }

  /** When the cooldown ends (ms since the epoch), or undefined when none is running. */
  get until(): number | undefined {
    return this.active ? this.#until : undefined;
  }

  /** The last failure, kept after the cooldown ends (for healthCheck). */
  get lastFailure(): { at: number; reason: string } | undefined {
    return this.#lastFailure;
  }

  /** Records a failure; returns true when the tool was considered available until now. */
  trip(reason: string): boolean {
    const wasActive = this.active;
    const at = this.#now();
    this.#lastFailure = { at, reason };
    this.#until = at + this.#durationMs;
    return !wasActive;
  }

  /** A success: the tool is available again. */
  clear(): void {
    this.#until = 0;
  }
}
