import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultConfig } from "@memory/core";
import { createSqliteMemory } from "@memory/sqlite";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startTestServer, TOKEN_A, TOKEN_B } from "./helpers.js";

let dir: string;
let roots: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "memory-server-collections-"));
  roots = path.join(dir, "roots");
  mkdirSync(path.join(roots, "team"), { recursive: true });
  writeFileSync(
    path.join(roots, "team", "runbook.md"),
    "# Pager runbook\n\nWhen the pager fires at night, first check the queue depth dashboard.\n",
  );
  mkdirSync(path.join(dir, "private"));
  writeFileSync(
    path.join(dir, "private", "keys.md"),
    "# Keys\n\nThe vault unseal keys are here.\n",
  );
  symlinkSync(path.join(dir, "private"), path.join(roots, "escape"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function server() {
  const config = defaultConfig();
  config.collections = { handbook: { path: path.join(roots, "team"), namespace: "b" } };
  return startTestServer({
    memory: createSqliteMemory({ path: path.join(dir, "brain.db") }),
    config,
    collectionRoots: [roots],
  });
}

describe("collections over HTTP", () => {
  it("adds a folder inside collection_roots, recall returns its source, list and sync are scoped", async () => {
    const test = await server();
    const added = await test.call("POST", "/v1/collections", {
      body: { name: "runbooks", path: path.join(roots, "team"), namespace: "a" },
      token: TOKEN_A,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.sync).toMatchObject({ notes: 1, added: 1 });
    const recall = await test.call("POST", "/v1/recall", {
      body: { query: "pager queue depth", namespace: "a" },
      token: TOKEN_A,
    });
    expect(recall.body.results[0].source).toMatchObject({
      collection: "runbooks",
      path: "runbook.md",
      title: "Pager runbook",
      startLine: 1,
      endLine: 3,
    });
    const memoryOnly = await test.call("POST", "/v1/recall", {
      body: { query: "pager queue depth", namespace: "a", collections: false },
      token: TOKEN_A,
    });
    expect(memoryOnly.body.results).toEqual([]);
    const listA = await test.call("GET", "/v1/collections", { token: TOKEN_A });
    expect(listA.body.collections.map((c: { name: string }) => c.name)).toEqual(["runbooks"]);
    const listB = await test.call("GET", "/v1/collections", { token: TOKEN_B });
    expect(listB.body.collections.map((c: { name: string }) => c.name)).toEqual(["handbook"]);
    const syncB = await test.call("POST", "/v1/collections/sync", { body: {}, token: TOKEN_B });
    expect(syncB.body.collections.map((r: { collection: string }) => r.collection)).toEqual([
      "handbook",
    ]);
    const forbidden = await test.call("POST", "/v1/collections/sync", {
      body: { name: "runbooks" },
      token: TOKEN_B,
    });
    expect(forbidden.status).toBe(403);
    const removeForbidden = await test.call("DELETE", "/v1/collections/runbooks", {
      token: TOKEN_B,
    });
    expect(removeForbidden.status).toBe(403);
    const removed = await test.call("DELETE", "/v1/collections/runbooks", { token: TOKEN_A });
    expect(removed.status).toBe(200);
    expect(removed.body.deleted).toBeGreaterThan(0);
  });

  it("refuses folders outside the roots (a symlink resolved first), patterns escaping, and other namespaces", async () => {
    const test = await server();
    for (const folder of [path.join(dir, "private"), path.join(roots, "escape")]) {
      const response = await test.call("POST", "/v1/collections", {
        body: { name: "leak", path: folder, namespace: "a" },
        token: TOKEN_A,
      });
      expect(response.status).toBe(403);
      expect(response.body.error.message).toContain("outside [server].collection_roots");
    }
    const escaping = await test.call("POST", "/v1/collections", {
      body: { name: "up", path: path.join(roots, "team"), pattern: "../**/*.md", namespace: "a" },
      token: TOKEN_A,
    });
    expect(escaping.status).toBe(400);
    const otherNamespace = await test.call("POST", "/v1/collections", {
      body: { name: "x", path: path.join(roots, "team"), namespace: "b" },
      token: TOKEN_A,
    });
    expect(otherNamespace.status).toBe(403);
    const list = await test.call("GET", "/v1/collections", { token: TOKEN_A });
    expect(list.body.collections).toEqual([]);
    const noRoots = await startTestServer({ collectionRoots: [] });
    const off = await noRoots.call("POST", "/v1/collections", {
      body: { name: "runbooks", path: path.join(roots, "team") },
    });
    expect(off.status).toBe(403);
    expect(off.body.error.message).toContain("collection_roots");
  });

  it("forget of a fragment over HTTP is a 400 that says to edit the file", async () => {
    const test = await server();
    await test.call("POST", "/v1/collections/sync", { body: { name: "handbook" }, token: TOKEN_B });
    const key = "collection:handbook:runbook.md#L1-3";
    const response = await test.call("POST", "/v1/memories/forget", {
      body: { key, namespace: "b" },
      token: TOKEN_B,
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toContain("edit or delete that file");
  });
});

describe("the server keeps collections fresh", () => {
  it("syncs at start and after a change, once the debounce timer fires", async () => {
    const timers: { callback: () => void; ms: number; live: boolean }[] = [];
    const config = defaultConfig();
    config.collections = { handbook: { path: path.join(roots, "team") } };
    const test = await startTestServer({
      memory: createSqliteMemory({ path: path.join(dir, "brain.db") }),
      config,
      watchCollections: {
        debounceMs: 250,
        schedule: (callback, ms) => {
          const timer = { callback, ms, live: true };
          timers.push(timer);
          return {
            cancel: () => {
              timer.live = false;
            },
          };
        },
      },
    });
    const recall = async (query: string) =>
      (await test.call("POST", "/v1/recall", { body: { query } })).body.results as {
        source?: { path: string };
      }[];
    await vi.waitFor(
      async () => expect((await recall("pager queue depth"))[0]?.source?.path).toBe("runbook.md"),
      {
        timeout: 20_000,
      },
    );
    writeFileSync(
      path.join(roots, "team", "oncall.md"),
      "# On-call swaps\n\nSwap on-call shifts in the rota spreadsheet and tell the team lead.\n",
    );
    const debounce = () => timers.filter((timer) => timer.live && timer.ms === 250);
    await vi.waitFor(() => expect(debounce().length).toBeGreaterThan(0), { timeout: 20_000 });
    for (const timer of debounce()) {
      timer.live = false;
      timer.callback();
    }
    await vi.waitFor(
      async () =>
        expect((await recall("on-call shifts rota spreadsheet"))[0]?.source?.path).toBe(
          "oncall.md",
        ),
      { timeout: 20_000 },
    );
  });
});
