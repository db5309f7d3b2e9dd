import { InvalidInputError, validateNamespace } from "@memory/api";

/**
 * LangGraph namespaces are tuples of labels (`["users", "42", "memories"]`); ours are one string.
 * The labels are joined with `.`, which LangGraph itself forbids inside a label, so the mapping
 * is reversible: `["users", "42"]` is `users.42`, and `users.42` reads back as `["users", "42"]`.
 * With a `rootNamespace`, it goes in front (`agent-a.users.42`) and only namespaces under it
 * belong to the store.
 */
export const NAMESPACE_SEPARATOR = ".";

/** Encodes and decodes namespaces for one store (one optional root). */
export class NamespaceMapping {
  readonly #root: string | undefined;

  constructor(rootNamespace: string | undefined) {
    this.#root = rootNamespace === undefined ? undefined : validateNamespace(rootNamespace);
  }

  /**
   * The namespace string of a tuple. Throws `InvalidInputError` for an empty tuple, a label that
   * is not a non-empty string or holds `.`, or a result our namespace rules refuse (too long,
   * control characters).
   */
  encode(labels: readonly string[]): string {
    if (!Array.isArray(labels) || labels.length === 0) {
      throw new InvalidInputError(
        'A LangGraph namespace needs at least one label, e.g. ["users", "42"].',
      );
    }
    return this.#join(labels, "namespace");
  }

  /** The namespace string a search prefix stands for; undefined for `[]` without a root (everything). */
  encodePrefix(labels: readonly string[]): string | undefined {
    if (!Array.isArray(labels)) {
      throw new InvalidInputError("A LangGraph namespace prefix must be an array of labels.");
    }
    if (labels.length === 0) return this.#root;
    return this.#join(labels, "namespace prefix");
  }

  /** The tuple of a stored namespace, or undefined when it is not under this store's root. */
  decode(namespace: string): string[] | undefined {
    if (this.#root === undefined) return namespace.split(NAMESPACE_SEPARATOR);
    const head = this.#root + NAMESPACE_SEPARATOR;
    if (!namespace.startsWith(head) || namespace.length === head.length) return undefined;
    return namespace.slice(head.length).split(NAMESPACE_SEPARATOR);
  }

  #join(labels: readonly string[], what: string): string {
    for (const label of labels) {
      if (typeof label !== "string" || label === "") {
        throw new InvalidInputError(
          `LangGraph ${what} ${JSON.stringify(labels)} has an empty or non-string label; every label must be a non-empty string.`,
        );
      }
      if (label.includes(NAMESPACE_SEPARATOR)) {
        throw new InvalidInputError(
          `LangGraph ${what} label ${JSON.stringify(label)} contains "."; labels cannot contain periods (LangGraph's own rule, which keeps the mapping to "a.b.c" reversible).`,
        );
      }
    }
    const joined = labels.join(NAMESPACE_SEPARATOR);
    const namespace = this.#root === undefined ? joined : this.#root + NAMESPACE_SEPARATOR + joined;
    try {
      return validateNamespace(namespace);
    } catch (error) {
      throw new InvalidInputError(
        `LangGraph ${what} ${JSON.stringify(labels)} maps to the namespace ${JSON.stringify(namespace)}, which is not valid: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}

/** True when `namespace` is `prefix` itself or lies under it. */
export function isUnderPrefix(namespace: string, prefix: string | undefined): boolean {
  if (prefix === undefined) return true;
  return namespace === prefix || namespace.startsWith(prefix + NAMESPACE_SEPARATOR);
}
