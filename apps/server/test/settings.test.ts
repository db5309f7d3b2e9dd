import { CONFIG_TABLE_KEYS } from "@memory/core";
import { describe, expect, it } from "vitest";
import {
  assertSafeAuth,
  isLoopbackHost,
  resolveServerSettings,
  serverSettingsSchema,
} from "../src/index.js";
import { resolveMaxBodyBytes } from "../src/server-settings.js";

const config = (server: unknown) => ({ memory: {} as never, server });

describe("server settings", () => {
  // loadConfig rejects unknown [server] keys from this list; it must be the schema's keys.
  it("declares the same [server] keys to loadConfig as its schema reads", () => {
    expect([...CONFIG_TABLE_KEYS.server].sort()).toEqual(
      Object.keys(serverSettingsSchema.shape).sort(),
    );
  });

  it("has the documented defaults", () => {
    const settings = resolveServerSettings(undefined, {});
    expect(settings).toMatchObject({
      host: "127.0.0.1",
      port: 8787,
      tokens: [],
      allowUnauthenticatedLoopback: false,
      maxBodyBytes: 1_048_576,
      maxImportBytes: 104_857_600,
      shutdownTimeoutMs: 10_000,
      mcp: true,
    });
  });

  it("reads the worker count from [server].workers, MEMORY_SERVER_WORKERS, then --workers", () => {
    expect(resolveServerSettings(undefined, {}).workers).toBeUndefined();
    expect(resolveServerSettings(config({ workers: 3 }), {}).workers).toBe(3);
    expect(
      resolveServerSettings(config({ workers: 3 }), { MEMORY_SERVER_WORKERS: "4" }).workers,
    ).toBe(4);
    expect(
      resolveServerSettings(config({ workers: 3 }), { MEMORY_SERVER_WORKERS: "4" }, { workers: 1 })
        .workers,
    ).toBe(1);
    expect(() => resolveServerSettings(config({ workers: 0 }), {})).toThrow(
      /\[server\]\.workers: /,
    );
    expect(() => resolveServerSettings(undefined, { MEMORY_SERVER_WORKERS: "0" })).toThrow(
      'MEMORY_SERVER_WORKERS must be from 1 to 256 (got "0").',
    );
    expect(() => resolveServerSettings(config({ server_workers: 2 }), {})).toThrow(
      "unknown key(s) [server].server_workers",
    );
  });

  it("reads [server] and lets the environment, then overrides, win", () => {
    const settings = resolveServerSettings(
      config({ host: "::1", port: 9000, max_body_bytes: 10 }),
      { MEMORY_SERVER_PORT: "9100", MEMORY_SERVER_ALLOW_UNAUTHENTICATED_LOOPBACK: "yes" },
      { maxBodyBytes: 20 },
    );
    expect(settings).toMatchObject({
      host: "::1",
      port: 9100,
      allowUnauthenticatedLoopback: true,
      maxBodyBytes: 20,
    });
  });

  it("keeps only hashes of tokens, with labels safe to log", () => {
    const secret = "abcdefghijklmnopqrstuvwxyz";
    const settings = resolveServerSettings(
      config({ tokens: [{ token: secret, namespaces: ["a", "a", "b"] }] }),
      {
        MEMORY_SERVER_TOKEN: `${secret}-env`,
      },
    );
    expect(settings.tokens.map((token) => [token.label, token.namespaces])).toEqual([
      ["[server].tokens[0]", ["a", "b"]],
      ["MEMORY_SERVER_TOKEN", "*"],
    ]);
    expect(JSON.stringify(settings)).not.toContain(secret);
  });

  it("names what to fix for bad token settings", () => {
    expect(() =>
      resolveServerSettings(config({ tokens: [{ token_env: "NOPE", namespaces: ["a"] }] }), {}),
    ).toThrow(/NOPE.*not set/);
    expect(() =>
      resolveServerSettings(config({ tokens: [{ token: "short", namespaces: ["a"] }] }), {}),
    ).toThrow(/shorter than 16/);
    expect(() => resolveServerSettings(config({ tokens: [{ namespaces: ["a"] }] }), {})).toThrow(
      /exactly one of token or token_env/,
    );
    expect(() => resolveServerSettings(undefined, { MEMORY_SERVER_TOKENS: "[{" })).toThrow(
      /MEMORY_SERVER_TOKENS is not valid JSON/,
    );
    expect(() =>
      resolveServerSettings(undefined, { MEMORY_SERVER_TOKENS: '[{"token":"x"}]' }),
    ).toThrow(/namespaces/);
    expect(() => resolveServerSettings(config({ prot: 1 }), {})).toThrow(/\[server\]\.prot/);
    expect(() => resolveServerSettings(undefined, { MEMORY_SERVER_PORT: "http" })).toThrow(
      /MEMORY_SERVER_PORT/,
    );
  });

  it("recognises loopback hosts", () => {
    for (const host of [
      "127.0.0.1",
      "127.1.2.3",
      "localhost",
      "::1",
      "[::1]",
      "::ffff:127.0.0.1",
    ]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of [
      "0.0.0.0",
      "::",
      "192.168.1.2",
      "example.com",
      "128.0.0.1",
      "localhost.evil.com",
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it("refuses to run without tokens unless explicitly unauthenticated on loopback", () => {
    expect(() => assertSafeAuth(resolveServerSettings(undefined, {}))).toThrow(
      /--allow-unauthenticated-loopback/,
    );
    expect(() => assertSafeAuth(resolveServerSettings(config({ host: "0.0.0.0" }), {}))).toThrow(
      /not a loopback address/,
    );
    expect(() =>
      assertSafeAuth(
        resolveServerSettings(
          config({ host: "0.0.0.0", allow_unauthenticated_loopback: true }),
          {},
        ),
      ),
    ).toThrow(/only allowed on a loopback host/);
    expect(() =>
      assertSafeAuth(resolveServerSettings(config({ allow_unauthenticated_loopback: true }), {})),
    ).not.toThrow();
  });
});

describe("resolveMaxBodyBytes (the stdio MCP message limit)", () => {
  it("reads max_body_bytes as the HTTP server does, without resolving the tokens", () => {
    const config = {
      server: {
        max_body_bytes: 5000,
        tokens: [{ token_env: "UNSET_TOKEN_VAR", namespaces: ["*"] }],
      },
    } as never;
    expect(resolveMaxBodyBytes(config, {})).toBe(5000);
    expect(resolveMaxBodyBytes(config, { MEMORY_SERVER_MAX_BODY_BYTES: "7000" })).toBe(7000);
    expect(resolveMaxBodyBytes(undefined, {})).toBe(
      resolveServerSettings(undefined, {}).maxBodyBytes,
    );
    expect(() => resolveMaxBodyBytes({ server: { max_body_bytes: "big" } } as never, {})).toThrow(
      /max_body_bytes must be a positive integer/,
    );
  });
});
