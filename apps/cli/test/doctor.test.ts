import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ChatServer } from "@memory/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, Workspace } from "./helpers/run-memory.js";

interface DoctorResult {
  ok: boolean;
  checks: { name: string; status: string; message: string; fix?: string }[];
}

const check = (result: DoctorResult, name: string) =>
  result.checks.find((item) => item.name === name);

describe("memory doctor", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = new Workspace();
    await ws.run(["store", "The user prefers TypeScript", "--key", "lang"]);
  });
  afterAll(() => ws.remove());

  it("passes on a healthy store and explains why recall is keyword-only", async () => {
    const result = await ws.run(["doctor", "--json"]);
    expect(result.code).toBe(0);
    const body = json<DoctorResult>(result);
    expect(body.ok).toBe(true);
    expect(check(body, "config")).toMatchObject({
      status: "ok",
      message: expect.stringContaining(ws.file("memory.toml")),
    });
    expect(check(body, "backend")).toMatchObject({
      status: "ok",
      message: expect.stringContaining("1 entries"),
    });
    expect(check(body, "full text")?.status).toBe("ok");
    expect(check(body, "recall")).toMatchObject({
      status: "warn",
      message: expect.stringContaining("keyword-only"),
      fix: expect.stringContaining("embedding_provider"),
    });
    expect(check(body, "size")?.message).toContain(ws.file("brain.db"));
    expect(check(body, "chat")).toMatchObject({
      status: "skip",
      message: expect.stringContaining("no chat_provider"),
    });

    const human = await ws.run(["doctor"]);
    expect(human.stdout).toMatch(/^ok\s+backend\s+sqlite opened/m);
    expect(human.stdout).toContain("doctor: no failures");
  });

  it("fails on a corrupt database file, saying what to do", async () => {
    const broken = new Workspace();
    try {
      writeFileSync(broken.file("brain.db"), "this is not a database, just text ".repeat(200));
      const result = await broken.run(["doctor", "--json"]);
      expect(result.code).toBe(1);
      const body = json<DoctorResult>(result);
      expect(body.ok).toBe(false);
      expect(check(body, "config")?.status).toBe("ok");
      expect(check(body, "backend")).toMatchObject({
        status: "fail",
        message: expect.stringContaining("not a database"),
      });
      // Other commands fail with exit 1 and one line.
      const list = await broken.run(["list"]);
      expect(list.code).toBe(1);
      expect(list.stderr.trim().split("\n")).toHaveLength(1);
    } finally {
      broken.remove();
    }
  });

  it("fails when the database path cannot be created", async () => {
    // A regular file where the database directory should be: unwritable even for root, unlike
    // a chmod'ed directory.
    const blocked = new Workspace();
    try {
      writeFileSync(blocked.file("not-a-dir"), "");
      blocked.writeConfig(
        "memory.toml",
        '[memory]\nembedding_provider = "noop"\n\n[sqlite]\npath = "not-a-dir/brain.db"\n',
      );
      const result = await blocked.run(["doctor", "--json"]);
      expect(result.code).toBe(1);
      expect(check(json<DoctorResult>(result), "backend")).toMatchObject({
        status: "fail",
        message: expect.stringContaining("not-a-dir"),
      });
    } finally {
      blocked.remove();
    }
  });

  it("fails on an invalid configuration without touching any store", async () => {
    const bad = new Workspace();
    try {
      bad.writeConfig("memory.toml", '[memory]\nbackend = "sqlite"\nsearch_mode = "fuzzy"\n');
      const result = await bad.run(["doctor", "--json"]);
      expect(result.code).toBe(1);
      const body = json<DoctorResult>(result);
      expect(check(body, "config")).toMatchObject({
        status: "fail",
        message: expect.stringContaining("search_mode"),
      });
      expect(check(body, "backend")).toBeUndefined();
    } finally {
      bad.remove();
    }
  });

  it("makes one real embedding call and fails, saying what to check, when the provider refuses", async () => {
    // An OpenAI-compatible endpoint on loopback that rejects the key (no retry on 401).
    const server = createServer((_request, response) => {
      response.writeHead(401, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ error: { message: "Incorrect API key", type: "invalid_request_error" } }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const remote = new Workspace(
      "",
      `embedding_provider = "custom:http://127.0.0.1:${port}/v1"\nembedding_model = "m"\nembedding_dims = 8`,
    );
    try {
      const result = await remote.run(["doctor", "--json"]);
      expect(result.code).toBe(1);
      expect(check(json<DoctorResult>(result), "embed call")).toMatchObject({
        status: "fail",
        message: expect.stringMatching(/failed: .*keywords/),
        fix: expect.stringContaining("embedding_provider"),
      });
    } finally {
      remote.remove();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("memory doctor: the chat model", () => {
  it("makes one real completion against the configured chat_provider", async () => {
    const server = await ChatServer.start();
    const ws = new Workspace(
      "",
      ['embedding_provider = "noop"', `chat_provider = "custom:${server.baseURL}"`].join("\n"),
    );
    try {
      server.reply({ content: "OK" });
      const ok = json<DoctorResult>(await ws.run(["doctor", "--json"]));
      expect(check(ok, "chat")).toMatchObject({ status: "ok" });
      expect(server.requests).toHaveLength(1);
      // A bad answer (HTTP 400, not retried) fails the check and says what to look at.
      server.reply({ status: 400 });
      const bad = await ws.run(["doctor", "--json"]);
      expect(bad.code).toBe(1);
      expect(check(json<DoctorResult>(bad), "chat")).toMatchObject({
        status: "fail",
        fix: expect.stringContaining("chat_provider"),
      });
    } finally {
      ws.remove();
      await server.close();
    }
  });
});
