import { MAX_KEY_LENGTH } from "@memory/api";
import { NoneMemory } from "@memory/core";
import { describe, expect, it } from "vitest";
import { startTestServer, TOKEN_A, TOKEN_B } from "./helpers.js";

// Usage over HTTP, end to end on a real server over the in-memory reference backend (which has
// capabilities.usage; docs/usage.md): recallId, feedback, pins, snoozes, the report, the
// token's namespace scope and the typed errors.

type Server = Awaited<ReturnType<typeof startTestServer>>;

async function seed(server: Server, namespace = "default") {
  await server.memory.store({ key: "editor", content: "The user edits code in Neovim", namespace });
  await server.memory.store({ key: "tea", content: "The user drinks green tea", namespace });
}

const keysOf = (body: { results: { key: string }[] }) => body.results.map((entry) => entry.key);

describe("HTTP: recallId and POST /v1/feedback", () => {
  it("a recall answers a recallId that feedback records against, and the report counts it", async () => {
    const server = await startTestServer();
    await seed(server);
    const recalled = await server.call("POST", "/v1/recall", {
      body: { query: "Neovim editor", minScore: 0 },
    });
    expect(recalled.status, JSON.stringify(recalled.body)).toBe(200);
    expect(keysOf(recalled.body)).toContain("editor");
    const { recallId } = recalled.body;
    expect(recallId).toEqual(expect.any(String));

    const fed = await server.call("POST", "/v1/feedback", { body: { recallId, used: ["editor"] } });
    expect(fed.status, JSON.stringify(fed.body)).toBe(200);
    expect(fed.body).toEqual({ recallId, used: ["editor"], ignored: [] });

    const usage = await server.call("GET", "/v1/usage?candidates=true&limit=10");
    expect(usage.status, JSON.stringify(usage.body)).toBe(200);
    expect(usage.body.namespace).toBe("default");
    const editor = usage.body.entries.find((entry: { key: string }) => entry.key === "editor");
    expect(editor).toMatchObject({ pinned: false, stats: { surfaced: 1, used: 1, days: 1 } });
    expect(usage.body.pinCandidates).toEqual(expect.any(Array));
    expect(usage.body.snoozeCandidates).toEqual(expect.any(Array));
  });

  it("the memory context answers a recallId for the entries it shows; traced or track: false, none", async () => {
    const server = await startTestServer();
    await seed(server);
    const built = await server.call("POST", "/v1/context", {
      body: { message: "Which editor do I use, Neovim?", minScore: 0 },
    });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const shown = built.body.entries.map((entry: { key: string }) => entry.key);
    expect(shown).toContain("editor");
    expect(built.body.recallId).toEqual(expect.any(String));
    const fed = await server.call("POST", "/v1/feedback", {
      body: { recallId: built.body.recallId, used: ["editor"] },
    });
    expect(fed.status, JSON.stringify(fed.body)).toBe(200);
    for (const extra of [{ track: false }, { explain: "full" }]) {
      const untracked = await server.call("POST", "/v1/context", {
        body: { message: "Which editor do I use, Neovim?", minScore: 0, ...extra },
      });
      expect(untracked.status).toBe(200);
      expect(untracked.body.entries.length).toBeGreaterThan(0);
      expect(untracked.body, JSON.stringify(extra)).not.toHaveProperty("recallId");
    }
    const usage = await server.call("GET", "/v1/usage");
    const editor = usage.body.entries.find((entry: { key: string }) => entry.key === "editor");
    expect(editor.stats).toMatchObject({ surfaced: 1, used: 1 });
  });

  it("feedback with the reply instead of keys: the results it quotes count as used", async () => {
    const server = await startTestServer();
    await seed(server);
    const recalled = await server.call("POST", "/v1/recall", {
      body: { query: "the user", minScore: 0, limit: 10 },
    });
    expect(keysOf(recalled.body)).toContain("editor");
    const fed = await server.call("POST", "/v1/feedback", {
      body: { recallId: recalled.body.recallId, reply: "You edit your code in Neovim." },
    });
    expect(fed.status, JSON.stringify(fed.body)).toBe(200);
    expect(fed.body.used).toEqual(["editor"]);
    const both = await server.call("POST", "/v1/feedback", {
      body: { recallId: recalled.body.recallId, reply: "Neovim", used: ["editor"] },
    });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/either used .* or reply/);
  });

  it("answers 404 for an unknown recallId and 400 for a key that was not a result", async () => {
    const server = await startTestServer();
    await seed(server);
    const unknown = await server.call("POST", "/v1/feedback", {
      body: { recallId: "no-such-recall", used: ["editor"] },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("NOT_FOUND");
    const recalled = await server.call("POST", "/v1/recall", {
      body: { query: "Neovim", minScore: 0, limit: 1 },
    });
    const notAResult = await server.call("POST", "/v1/feedback", {
      body: { recallId: recalled.body.recallId, used: ["never-returned"] },
    });
    expect(notAResult.status).toBe(400);
    expect(notAResult.body.error.code).toBe("INVALID_INPUT");
    const misspelt = await server.call("POST", "/v1/feedback", {
      body: { recallId: recalled.body.recallId, usd: ["editor"] },
    });
    expect(misspelt.status).toBe(400);
  });

  it("track: false and explain full record nothing and answer no recallId", async () => {
    const server = await startTestServer();
    await seed(server);
    for (const body of [
      { query: "Neovim", minScore: 0, track: false },
      { query: "Neovim", minScore: 0, explain: "full" },
    ]) {
      const response = await server.call("POST", "/v1/recall", { body });
      expect(response.status, JSON.stringify(body)).toBe(200);
      expect(keysOf(response.body)).toContain("editor");
      expect(response.body, JSON.stringify(body)).not.toHaveProperty("recallId");
    }
    const usage = await server.call("GET", "/v1/usage");
    expect(usage.body.entries).toEqual([]);
  });
});

describe("HTTP: pins", () => {
  it("pins and unpins by path and by body, and the entry shows it", async () => {
    const server = await startTestServer();
    await seed(server);
    const pinned = await server.call("POST", "/v1/memories/editor/pin");
    expect(pinned.status, JSON.stringify(pinned.body)).toBe(200);
    expect(pinned.body.entry).toMatchObject({ key: "editor", pinned: true });
    const got = await server.call("GET", "/v1/memories/editor");
    expect(got.body.entry.pinned).toBe(true);
    const unpinned = await server.call("DELETE", "/v1/memories/editor/pin");
    expect(unpinned.body.entry.pinned).toBeUndefined();
    const byBody = await server.call("POST", "/v1/memories/pin", { body: { key: "tea" } });
    expect(byBody.body.entry).toMatchObject({ key: "tea", pinned: true });
    const offByBody = await server.call("POST", "/v1/memories/pin", {
      body: { key: "tea", pinned: false },
    });
    expect(offByBody.body.entry.pinned).toBeUndefined();
    const missing = await server.call("POST", "/v1/memories/nope/pin");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("NOT_FOUND");
    const badKey = await server.call("POST", "/v1/memories/pin", {
      body: { key: "k".repeat(MAX_KEY_LENGTH + 1) },
    });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.code).toBe("INVALID_INPUT");
  });
});

describe("HTTP: snoozes", () => {
  it("a snoozed entry leaves recall until unsnoozed; includeSnoozed shows it", async () => {
    const server = await startTestServer();
    await seed(server);
    const snoozed = await server.call("POST", "/v1/memories/tea/snooze", { body: { for: "7d" } });
    expect(snoozed.status, JSON.stringify(snoozed.body)).toBe(200);
    const until = snoozed.body.entry.snoozedUntil as string;
    expect(Date.parse(until)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const recall = (body: Record<string, unknown>) =>
      server.call("POST", "/v1/recall", { body: { query: "", track: false, ...body } });
    expect(keysOf((await recall({})).body)).toEqual(["editor"]);
    expect(keysOf((await recall({ includeSnoozed: true })).body).sort()).toEqual(["editor", "tea"]);
    expect((await server.call("GET", "/v1/memories/tea")).body.entry.snoozedUntil).toBe(until);

    const woken = await server.call("DELETE", "/v1/memories/tea/snooze");
    expect(woken.status).toBe(200);
    expect(woken.body.entry.snoozedUntil).toBeUndefined();
    expect(keysOf((await recall({})).body).sort()).toEqual(["editor", "tea"]);

    const byBody = await server.call("POST", "/v1/memories/snooze", {
      body: { key: "tea", until: "2999-01-01" },
    });
    expect(byBody.body.entry.snoozedUntil).toBe("2999-01-01T00:00:00.000Z");
    const wokenByBody = await server.call("POST", "/v1/memories/snooze", {
      body: { key: "tea", unsnooze: true },
    });
    expect(wokenByBody.body.entry.snoozedUntil).toBeUndefined();
    const inMs = await server.call("POST", "/v1/memories/tea/snooze", {
      body: { for: 3_600_000 },
    });
    expect(inMs.status).toBe(200);
  });

  it("refuses a past time, a bad length, both or neither with 400, and an unknown key with 404", async () => {
    const server = await startTestServer();
    await seed(server);
    for (const body of [
      { until: "2001-01-01" },
      { until: "next week" },
      { for: "7 days" },
      { for: 0 },
      { until: "2999-01-01", for: "7d" },
      {},
    ]) {
      const response = await server.call("POST", "/v1/memories/tea/snooze", { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe("INVALID_INPUT");
    }
    const both = await server.call("POST", "/v1/memories/snooze", {
      body: { key: "tea", unsnooze: true, for: "7d" },
    });
    expect(both.status).toBe(400);
    const missing = await server.call("POST", "/v1/memories/nope/snooze", { body: { for: "1d" } });
    expect(missing.status).toBe(404);
    expect((await server.call("GET", "/v1/memories/tea")).body.entry.snoozedUntil).toBeUndefined();
  });
});

describe("HTTP: usage routes and tokens", () => {
  it("a token for namespace a cannot feed back on, pin, snooze or read the usage of b", async () => {
    const server = await startTestServer();
    await seed(server, "b");
    const inB = await server.call("POST", "/v1/recall", {
      token: TOKEN_B,
      body: { query: "Neovim", namespace: "b", minScore: 0 },
    });
    const { recallId } = inB.body;
    expect(recallId).toEqual(expect.any(String));
    const refused = [
      ["POST", "/v1/feedback", { recallId, used: ["editor"], namespace: "b" }],
      ["POST", "/v1/memories/editor/pin?namespace=b", undefined],
      ["DELETE", "/v1/memories/editor/pin?namespace=b", undefined],
      ["POST", "/v1/memories/pin", { key: "editor", namespace: "b" }],
      ["POST", "/v1/memories/editor/snooze", { for: "1d", namespace: "b" }],
      ["DELETE", "/v1/memories/editor/snooze?namespace=b", undefined],
      ["POST", "/v1/memories/snooze", { key: "editor", for: "1d", namespace: "b" }],
      ["GET", "/v1/usage?namespace=b", undefined],
    ] as const;
    for (const [method, path, body] of refused) {
      const response = await server.call(method, path, { token: TOKEN_A, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error.code).toBe("FORBIDDEN");
    }
    // Knowing b's recallId does not help from a: the recall is looked up in a, where it is not.
    const fromA = await server.call("POST", "/v1/feedback", {
      token: TOKEN_A,
      body: { recallId, used: ["editor"] },
    });
    expect(fromA.status).toBe(404);
    const own = await server.call("GET", "/v1/usage", { token: TOKEN_A });
    expect(own.body).toMatchObject({ namespace: "a", entries: [] });
    const inBUsage = await server.call("GET", "/v1/usage?namespace=b", { token: TOKEN_B });
    expect(inBUsage.body.entries[0]).toMatchObject({ key: "editor", stats: { used: 0 } });
    expect((await server.memory.get("editor", { namespace: "b" }))?.pinned).toBeUndefined();
  });

  it("answers 501 UNSUPPORTED on a backend without usage", async () => {
    const server = await startTestServer({ memory: new NoneMemory("no usage in this test") });
    for (const [method, path, body] of [
      ["POST", "/v1/feedback", { recallId: "r1", used: [] }],
      ["GET", "/v1/usage", undefined],
      ["POST", "/v1/memories/editor/pin", undefined],
      ["POST", "/v1/memories/editor/snooze", { for: "1d" }],
    ] as const) {
      const response = await server.call(method, path, { body });
      expect(response.status, `${method} ${path} ${JSON.stringify(response.body)}`).toBe(501);
      expect(response.body.error.code).toBe("UNSUPPORTED");
    }
  });

  it("are in the OpenAPI document", async () => {
    const server = await startTestServer();
    const { paths } = (await server.call("GET", "/openapi.json")).body;
    expect(paths["/v1/feedback"].post.operationId).toBe("feedback");
    expect(paths["/v1/usage"].get.operationId).toBe("usage");
    expect(Object.keys(paths["/v1/memories/{key}/pin"]).sort()).toEqual(["delete", "post"]);
    expect(Object.keys(paths["/v1/memories/{key}/snooze"]).sort()).toEqual(["delete", "post"]);
    expect(paths["/v1/memories/pin"].post.operationId).toBe("pinByKey");
    expect(paths["/v1/memories/snooze"].post.operationId).toBe("snoozeByKey");
  });
});
