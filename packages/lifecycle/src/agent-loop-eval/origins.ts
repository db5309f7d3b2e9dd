/**
 * Which message a stored entry came from. By key first: `autosaveTurn` returns the entries it
 * stored, so their keys map exactly to the LoCoMo dia_id (life.json turn id) and role. An entry
 * whose key the loop never saw (one a future helper derives, promotes or merges) falls back to a
 * content match: the message whose text holds the entry's (speaker label aside), or the other
 * way round; `lookups` counts how each entry returned was matched.
 */
import type { MemoryEntry } from "@memory/api";
import type { LoopMessage, Role } from "./loop-session.js";

export interface EntryOrigin {
  origin: string;
  role: Role;
}

const normalize = (text: string) =>
  text
    .replace(/^\s*(user|assistant)\s*:\s*/gim, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();

export class EntryOrigins {
  readonly #byKey = new Map<string, EntryOrigin>();
  readonly #messages: { text: string; origin: EntryOrigin }[] = [];
  readonly lookups = { byKey: 0, byContent: 0, unknown: 0 };

  /** A message the loop saw (for the content fallback). */
  noteMessage(message: LoopMessage): void {
    const text = normalize(message.text);
    if (text !== "") {
      this.#messages.push({ text, origin: { origin: message.origin, role: message.role } });
    }
  }

  /** An entry `autosaveTurn` stored for `message`. */
  noteStored(key: string, message: LoopMessage): void {
    this.#byKey.set(key, { origin: message.origin, role: message.role });
  }

  of(entry: MemoryEntry): EntryOrigin | undefined {
    const known = this.#byKey.get(entry.key);
    if (known) {
      this.lookups.byKey++;
      return known;
    }
    const content = normalize(entry.content);
    const match =
      content === ""
        ? undefined
        : this.#messages.find((m) => m.text.includes(content) || content.includes(m.text));
    if (match) this.lookups.byContent++;
    else this.lookups.unknown++;
    return match?.origin;
  }
}
