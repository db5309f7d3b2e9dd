import { timingSafeEqual } from "node:crypto";
import { DEFAULT_NAMESPACE } from "@memory/api";
import { HttpError } from "./http-error.js";
import { hashToken, type ResolvedToken } from "./server-settings.js";

/** What one request may touch. */
export interface Access {
  /** `"*"` or the namespaces the caller may use. */
  readonly namespaces: "*" | ReadonlySet<string>;
  /** The namespace used when a request names none. */
  readonly defaultNamespace: string;
  /** Safe to log: the token's label or `anonymous`. */
  readonly label: string;
}

/** Full access: stdio MCP (the local user) and the unauthenticated loopback mode. */
export const FULL_ACCESS: Access = {
  namespaces: "*",
  defaultNamespace: DEFAULT_NAMESPACE,
  label: "anonymous",
};

export function accessForToken(token: ResolvedToken): Access {
  if (token.namespaces === "*")
    return { namespaces: "*", defaultNamespace: DEFAULT_NAMESPACE, label: token.label };
  const set = new Set(token.namespaces);
  return {
    namespaces: set,
    // A scoped token works without naming its namespace each time: `default` when it may use
    // it, else the first namespace it lists.
    defaultNamespace: set.has(DEFAULT_NAMESPACE) ? DEFAULT_NAMESPACE : token.namespaces[0]!,
    label: token.label,
  };
}

/**
 * Finds the token matching `presented`. Both sides are SHA-256 hashes of equal length, compared
 * with `timingSafeEqual`, and every configured token is compared (no early exit), so timing
 * reveals neither the token nor which one matched.
 */
export function matchToken(
  tokens: readonly ResolvedToken[],
  presented: string,
): ResolvedToken | undefined {
  const hash = hashToken(presented);
  let found: ResolvedToken | undefined;
  for (const token of tokens) {
    if (timingSafeEqual(token.hash, hash) && found === undefined) found = token;
  }
  return found;
}

/** The `Bearer` credential of an Authorization header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

export function canUse(access: Access, namespace: string): boolean {
  return access.namespaces === "*" || access.namespaces.has(namespace);
}

/** The namespace a request means (its own or the caller's default), if the caller may use it. */
export function resolveNamespace(access: Access, requested: string | undefined): string {
  const namespace = requested ?? access.defaultNamespace;
  if (!canUse(access, namespace)) {
    throw new HttpError(
      "FORBIDDEN",
      `This token may not use namespace "${namespace}"; it is limited to ${[...(access.namespaces as ReadonlySet<string>)].map((name) => `"${name}"`).join(", ")}.`,
    );
  }
  return namespace;
}

/**
 * The namespaces an "all namespaces" operation covers: `undefined` (really all) for a `*`
 * caller, else the caller's own list.
 */
export function visibleNamespaces(access: Access): readonly string[] | undefined {
  return access.namespaces === "*" ? undefined : [...access.namespaces];
}
