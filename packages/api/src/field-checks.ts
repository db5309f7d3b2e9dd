import { InvalidInputError } from "./errors.js";

// The checks the validators of validation.ts and timestamps.ts share; not exported by the
// package (the rules are the validators, docs/input-rules.md).

// C0 controls, DEL and C1 controls: refused in identifiers (keys, namespaces, session ids),
// where they break one-line logs, snapshot headings and terminal output. Content keeps them.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** The type of a refused value, for error messages (`null` is named as such). */
export function describe(value: unknown): string {
  return value === null ? "null" : typeof value;
}

/** A field given as JSON `null`: refused everywhere, so HTTP, MCP and import agree. */
export function nullField(field: string): InvalidInputError {
  return new InvalidInputError(
    `${field} is null; leave the field out to use its default, or give a value.`,
  );
}

/**
 * The checks every text input shares: a string, not blank, within `maxLength` UTF-16 code
 * units, no NUL, no lone surrogate (it has no UTF-8 encoding, so no backend could store it
 * byte-for-byte).
 */
export function checkText(field: string, value: unknown, maxLength: number): string {
  if (value === null) throw nullField(field);
  if (typeof value !== "string") {
    throw new InvalidInputError(`${field} must be a string, got ${describe(value)}.`);
  }
  if (value.length === 0 || value.trim().length === 0) {
    throw new InvalidInputError(`${field} is empty: pass at least one non-space character.`);
  }
  if (value.length > maxLength) {
    throw new InvalidInputError(
      `${field} is ${value.length} characters long; the limit is ${maxLength}. ${field === "content" ? "Split it into several entries." : "Use a shorter one."}`,
    );
  }
  if (value.includes("\u0000")) {
    throw new InvalidInputError(`${field} contains a NUL character (\\u0000); remove it.`);
  }
  checkWellFormed(field, value);
  return value;
}

export function checkWellFormed(field: string, value: string): void {
  if (!value.isWellFormed()) {
    throw new InvalidInputError(
      `${field} contains a lone UTF-16 surrogate and cannot be stored as UTF-8; fix the text encoding (String.prototype.toWellFormed).`,
    );
  }
}

/** `checkText` plus: no control characters (identifiers only). */
export function checkIdentifier(field: string, value: unknown, maxLength: number): string {
  const text = checkText(field, value, maxLength);
  const control = CONTROL_CHARACTER.exec(text);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).padStart(4, "0");
    throw new InvalidInputError(
      `${field} contains the control character \\u${code} at position ${control.index}; remove it (tabs and line breaks are not allowed in a ${field} either).`,
    );
  }
  return text;
}

/** UTF-8 length of a well-formed string (no `Buffer`: the contract runs outside Node too). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** `undefined` (left out) gives `undefined`; anything else, `null` included, is validated. */
export function optional<T>(value: unknown, validate: (value: unknown) => T): T | undefined {
  return value === undefined ? undefined : validate(value);
}
