import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { resolveServerSettings } from "../src/index.js";
import { curlExamples } from "../src/try-examples.js";
import { startTestServer, TOKEN_ALL } from "./helpers.js";

const execFileAsync = promisify(execFile);

describe("the banner's curl examples", () => {
  const url = "http://127.0.0.1:8787";
  it("name a token_env or a [server].tokens entry without printing the secret", () => {
    const secret = "a-secret-token-0123456789abcdefgh";
    const fromFile = resolveServerSettings(
      { server: { tokens: [{ token: secret, namespaces: ["*"] }] } } as never,
      {},
    );
    for (const line of curlExamples(url, fromFile)) {
      expect(line).toContain("-H 'authorization: Bearer <the token of [server].tokens[0]>'");
      expect(line).not.toContain(secret);
    }
    const fromEnv = resolveServerSettings(
      { server: { tokens: [{ token_env: "TEAM_TOKEN", namespaces: ["*"] }] } } as never,
      { TEAM_TOKEN: secret },
    );
    expect(curlExamples(url, fromEnv)[0]).toContain('-H "authorization: Bearer $TEAM_TOKEN"');
  });

  it("carry no header in unauthenticated loopback mode", () => {
    const open = resolveServerSettings(undefined, {}, { allowUnauthenticatedLoopback: true });
    for (const line of curlExamples(url, open)) expect(line).not.toContain("authorization");
  });

  it("README's curl examples work as written (with $TOKEN set)", async () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const curls = readme.split("\n").filter((line) => line.startsWith("curl -s localhost:8787"));
    expect(curls).toHaveLength(2);
    const server = await startTestServer();
    const host = new URL(server.url).host;
    for (const curl of curls) {
      const { stdout } = await execFileAsync(
        "sh",
        ["-c", `${curl.replace("localhost:8787", host)} -w ' %{http_code}'`],
        { env: { PATH: process.env.PATH ?? "", TOKEN: TOKEN_ALL } },
      );
      expect(stdout, curl).toMatch(/ 200$/);
    }
  });
});
