import { InvalidInputError } from "./errors.js";

// A same-key store that changes the content keeps the previous content as a superseded entry
// under a reserved key of the same namespace: `<key>::history:<slot>`, superseded by `<key>`.
// Slots are numbered 1..HISTORY_VERSIONS_MAX so that the versions of a key are found by identity
// (one driver `read` of known keys) on every backend, with no key-prefix scan. `store` refuses
// keys of this form, so a user key can never collide with a version (docs/history.md).

/** What separates a key from its version slot in a version's key. */
export const VERSION_KEY_MARKER = "::history:";
/** The most versions a key can keep (`history_versions` is at most this). */
export const HISTORY_VERSIONS_MAX = 100;
/** Versions kept per key when `history_versions` is not set. */
export const HISTORY_VERSIONS_DEFAULT = 20;

const VERSION_KEY = /^([\s\S]+)::history:([1-9][0-9]{0,2})$/;

/** The key of version slot `slot` (1..HISTORY_VERSIONS_MAX) of `key`. */
export function versionKey(key: string, slot: number): string {
  return `${key}${VERSION_KEY_MARKER}${slot}`;
}

/** The version keys of every slot of `key`, slot 1 first. */
export function versionKeys(key: string): string[] {
  return Array.from({ length: HISTORY_VERSIONS_MAX }, (_, index) => versionKey(key, index + 1));
}

/**
 * The key and slot a version key stands for, or undefined when `key` is not of the reserved form
 * (`<key>::history:<1..100>`).
 */
export function parseVersionKey(key: string): { key: string; slot: number } | undefined {
  const match = VERSION_KEY.exec(key);
  if (!match) return undefined;
  const slot = Number(match[2]);
  // A blank key has no versions (it is not a valid key), so "  ::history:1" is an ordinary key.
  if (slot > HISTORY_VERSIONS_MAX || match[1]!.trim() === "") return undefined;
  return { key: match[1]!, slot };
}

/** True when `key` names a kept version of another key. */
export function isVersionKey(key: string): boolean {
  return parseVersionKey(key) !== undefined;
}

/**
 * Refuses a key of the reserved version form where a caller writes or restores an entry of its
 * own (store, unsupersede): versions are made and pruned by `store` alone.
 */
export function assertNotVersionKey(key: string, field = "key"): void {
  const version = parseVersionKey(key);
  if (!version) return;
  throw new InvalidInputError(
    `${field} ${JSON.stringify(key)} is reserved: keys ending in "${VERSION_KEY_MARKER}<number>" hold the earlier versions of another key (here ${JSON.stringify(version.key)}; see \`memory history\`). Choose a key without that ending; to bring an earlier version back, store its content under ${JSON.stringify(version.key)}.`,
  );
}
