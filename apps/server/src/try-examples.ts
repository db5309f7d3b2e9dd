import type { ServerSettings } from "./server-settings.js";

/** A token label that names an environment variable (MEMORY_SERVER_TOKEN, a token_env). */
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

/**
 * The `Authorization` header the banner's examples send: none in unauthenticated loopback mode;
 * else the first token, by the environment variable that holds it when there is one (the
 * secret itself is never printed), or a placeholder naming where it is configured.
 */
export function exampleAuthHeader(
  settings: Pick<ServerSettings, "tokens" | "allowUnauthenticatedLoopback">,
): string | undefined {
  if (settings.allowUnauthenticatedLoopback) return undefined;
  const token = settings.tokens[0];
  if (!token) return undefined;
  return ENV_NAME.test(token.label)
    ? `"authorization: Bearer $${token.label}"`
    : `'authorization: Bearer <the token of ${token.label}>'`;
}

/** The banner's `curl` lines: store then recall, with the auth header the server needs. */
export function curlExamples(
  url: string,
  settings: Pick<ServerSettings, "tokens" | "allowUnauthenticatedLoopback">,
): string[] {
  const header = exampleAuthHeader(settings);
  const auth = header ? ` -H ${header}` : "";
  return [
    `curl -s ${url}/v1/memories${auth} -H 'content-type: application/json' -d '{"key":"editor","content":"The user edits code in Neovim"}'`,
    `curl -s ${url}/v1/recall${auth} -H 'content-type: application/json' -d '{"query":"which editor?"}'`,
  ];
}
