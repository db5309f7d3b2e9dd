import type { Memory } from "@memory/api";
import { gate } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import {
  ChatOutputError,
  CURATE_JOB,
  type CurateReport,
  checkProposal,
  configuredJobs,
  curate,
  JobScheduler,
} from "../src/index.js";
import { chatModelFor, useChatFixture } from "./support/stores.js";

const chat = useChatFixture();
const { stores } = chat;

const proposal = (value: unknown) => ({ content: JSON.stringify(value) });

async function seed(memory: Memory, namespace = "default") {
  const entries = [
    { key: "editor", content: "The user edits code in Neovim", category: "core" },
    { key: "editor2", content: "User likes the Neovim editor", category: "core" },
    { key: "tz", content: "The user works in UTC+2", category: "core" },
    { key: "d1", content: "Fixed the flaky login test", category: "daily" },
    { key: "d2", content: "Said hello", category: "daily" },
    { key: "d3", content: "Login test fixed (flaky)", category: "daily" },
  ];
  for (const entry of entries) await memory.store({ ...entry, namespace });
}

const GOOD = {
  delete: ["d2"],
  merge: [
    { keys: ["editor", "editor2"], content: "The user edits code in Neovim and likes it" },
    { keys: ["d1", "d3"], content: "Fixed the flaky login test", key: "daily_login_fix" },
  ],
};

function expectGoodReport(report: CurateReport, dryRun: boolean) {
  expect(report.dryRun).toBe(dryRun);
  expect(report.namespaces).toEqual(["default"]);
  expect(report.reviewed).toBe(6);
  expect(report.before).toEqual({ core: 3, daily: 3, total: 6 });
  expect(report.after).toEqual({ core: 2, daily: 1, total: 3 });
  expect(report.deleted).toEqual([{ namespace: "default", key: "d2" }]);
  expect(report.merged).toEqual([
    {
      namespace: "default",
      keys: ["editor", "editor2"],
      into: "editor",
      content: "The user edits code in Neovim and likes it",
      superseded: ["editor2"],
      deleted: [],
    },
    {
      namespace: "default",
      keys: ["d1", "d3"],
      into: "daily_login_fix",
      content: "Fixed the flaky login test",
      superseded: [],
      deleted: ["d1", "d3"],
    },
  ]);
  expect(report.skipped).toEqual([]);
}

describe.each([
  ["SQLite", () => stores.sqlite()],
  ["PostgreSQL", () => stores.postgres()],
])("curate on %s", (_name, open) => {
  it("dry run: validates and reports the proposal, changes and records nothing", async () => {
    const memory = open();
    await seed(memory);
    chat.server.reply(proposal(GOOD));
    const report = await curate(memory, {
      chatModel: chatModelFor(chat.server.baseURL),
      dryRun: true,
    });
    expectGoodReport(report, true);
    expect(await memory.count({ categories: ["core", "daily"] })).toBe(6);
    expect(await memory.getJobState(CURATE_JOB)).toBeNull();
    const sent = JSON.parse(chat.server.userMessages()[0]?.[0] ?? "{}");
    expect(sent.entries.map((entry: { key: string }) => entry.key).sort()).toEqual([
      "d1",
      "d2",
      "d3",
      "editor",
      "editor2",
      "tz",
    ]);
  });

  it("never shows a pinned entry to the model, so never merges or deletes it", async () => {
    const memory = open();
    await seed(memory);
    await memory.pin("d2");
    chat.server.reply(proposal({ delete: [], merge: [] }));
    await curate(memory, { chatModel: chatModelFor(chat.server.baseURL), dryRun: true });
    const sent = JSON.parse(chat.server.userMessages()[0]?.[0] ?? "{}");
    expect(sent.entries.map((entry: { key: string }) => entry.key)).not.toContain("d2");
    expect(sent.entries.map((entry: { key: string }) => entry.key)).toContain("d1");
  });

  it("applies merges and deletions, supersedes merged core entries, records the report", async () => {
    const memory = open();
    await seed(memory);
    chat.server.reply(proposal(GOOD));
    const report = await curate(memory, { chatModel: chatModelFor(chat.server.baseURL) });
    expectGoodReport(report, false);
    expect((await memory.get("editor"))?.content).toBe(
      "The user edits code in Neovim and likes it",
    );
    expect((await memory.get("editor2"))?.supersededBy).toBe("editor");
    expect(await memory.get("d1")).toBeNull();
    expect(await memory.get("d2")).toBeNull();
    expect((await memory.get("daily_login_fix"))?.category).toBe("daily");
    expect(await memory.get("tz")).not.toBeNull();
    const state = await memory.getJobState(CURATE_JOB);
    expect(state?.lastRunAt).toBe(report.at);
    expect(state?.lastReport).toEqual(JSON.parse(JSON.stringify(report)));
    // The lease was released.
    expect(await memory.acquireLease(`job:${CURATE_JOB}`, "someone", 1000)).not.toBeNull();
  });

  it("keeps the surviving entry's sessionId in a merge (and a new key's, when its members share one)", async () => {
    const memory = open();
    await memory.store({ key: "editor", content: "Neovim", category: "core", sessionId: "s-1" });
    await memory.store({
      key: "editor2",
      content: "Likes Neovim",
      category: "core",
      sessionId: "s-2",
    });
    await memory.store({ key: "d1", content: "Login fix", category: "daily", sessionId: "s-3" });
    await memory.store({ key: "d3", content: "Login fixed", category: "daily", sessionId: "s-3" });
    chat.server.reply(
      proposal({
        delete: [],
        merge: [
          { keys: ["editor", "editor2"], content: "Neovim, and likes it" },
          { keys: ["d1", "d3"], content: "Fixed the login test", key: "daily_login_fix" },
        ],
      }),
    );
    await curate(memory, { chatModel: chatModelFor(chat.server.baseURL) });
    expect(await memory.get("editor")).toMatchObject({
      content: "Neovim, and likes it",
      sessionId: "s-1",
    });
    expect((await memory.get("daily_login_fix"))?.sessionId).toBe("s-3");
  });
});

describe("curate (SQLite)", () => {
  it("rejects a proposal that deletes a core entry or names unknown keys, asks again, then fails and changes nothing", async () => {
    const memory = stores.sqlite();
    await seed(memory);
    chat.server.reply(
      proposal({ delete: ["tz", "nope"], merge: [] }),
      proposal({ delete: [], merge: [{ keys: ["d1", "d1"], content: "x" }] }),
    );
    const error = await curate(memory, { chatModel: chatModelFor(chat.server.baseURL) }).catch(
      (caught: unknown) => caught,
    );
    expect(ChatOutputError.isInstance(error)).toBe(true);
    const typed = error as ChatOutputError;
    expect(typed.task).toBe("curate");
    expect(typed.problems.join("\n")).toMatch(/used twice/);
    expect(chat.server.userMessages()[1]?.at(-1)).toMatch(/core entry/);
    expect(chat.server.userMessages()[1]?.at(-1)).toMatch(/unknown key "nope"/);
    expect(await memory.count({ categories: ["core", "daily"] })).toBe(6);
    expect(await memory.getJobState(CURATE_JOB)).toBeNull();
  });

  it("rejects an empty merged text and a malformed answer, then uses a valid one", async () => {
    const memory = stores.sqlite();
    await seed(memory);
    chat.server.reply(
      proposal({ merge: [{ keys: ["d1", "d3"], content: "   " }] }),
      proposal({ delete: ["d2"] }),
    );
    const report = await curate(memory, { chatModel: chatModelFor(chat.server.baseURL) });
    expect(chat.server.userMessages()[1]?.at(-1)).toMatch(/merged text is empty/);
    expect(report.deleted).toEqual([{ namespace: "default", key: "d2" }]);
    expect(report.after).toEqual({ core: 3, daily: 2, total: 5 });

    chat.server.reset();
    chat.server.reply({ content: "I would delete d1." }, proposal({}));
    const second = await curate(memory, { chatModel: chatModelFor(chat.server.baseURL) });
    expect(chat.server.requests).toHaveLength(2);
    expect(second.deleted).toEqual([]);
  });

  it("curates every namespace when none is given, each with its own keys", async () => {
    const memory = stores.sqlite();
    await seed(memory, "alice");
    await memory.store({ key: "x", content: "only one entry here", namespace: "bob" });
    await memory.store({ key: "y", content: "and a second one", namespace: "bob" });
    chat.server.reply(proposal({ delete: ["d2"] }), proposal({ delete: ["d2"] }));
    const error = await curate(memory, { chatModel: chatModelFor(chat.server.baseURL) }).catch(
      (caught: unknown) => caught,
    );
    // alice is curated first (sorted); bob has no d2, so its proposals are rejected.
    expect(ChatOutputError.isInstance(error)).toBe(true);
    expect(await memory.get("d2", { namespace: "alice" })).toBeNull();

    chat.server.reset();
    chat.server.reply(proposal({}), proposal({}));
    const report = await curate(memory, { chatModel: chatModelFor(chat.server.baseURL) });
    expect(report.namespaces).toEqual(["alice", "bob"]);
    expect(report.reviewed).toBe(7);
  });

  it("takes the lease: a run while another holder has it is a CONFLICT", async () => {
    const memory = stores.sqlite();
    await seed(memory);
    const held = await memory.acquireLease(`job:${CURATE_JOB}`, "other-host", 60_000);
    expect(held).not.toBeNull();
    await expect(
      curate(memory, { chatModel: chatModelFor(chat.server.baseURL) }),
    ).rejects.toSatisfy((error) => (error as { code?: string }).code === "CONFLICT");
    expect(chat.server.requests).toHaveLength(0);
  });

  it("holds the lease while the model is slow: a second run is a CONFLICT, a dry run is not", async () => {
    const memory = stores.sqlite();
    await seed(memory);
    const slow = gate();
    chat.server.reply({ ...proposal({ delete: ["d2"] }), release: slow.release }, proposal({}));
    const chatModel = chatModelFor(chat.server.baseURL);
    const first = curate(memory, { chatModel });
    await expect.poll(() => chat.server.requests.length).toBe(1);
    await expect(curate(memory, { chatModel })).rejects.toSatisfy(
      (error) => (error as { code?: string }).code === "CONFLICT",
    );
    const dry = await curate(memory, { chatModel, dryRun: true });
    expect(dry.deleted).toEqual([]);
    slow.open();
    expect((await first).deleted).toEqual([{ namespace: "default", key: "d2" }]);
    expect(await memory.get("d2")).toBeNull();
  });

  it("runs on the scheduler when a chat model is configured, and records a failure", async () => {
    const memory = stores.sqlite();
    await seed(memory);
    const config = {
      memory: {
        hygiene_enabled: false,
        snapshot_enabled: false,
        curator_enabled: true,
        curator_interval_hours: 24,
        curator_max_entries: 50,
        transcripts_enabled: false,
        hygiene_interval_hours: 12,
      },
    } as unknown as Parameters<typeof configuredJobs>[0];
    expect(configuredJobs(config)).toEqual([]);
    const jobs = configuredJobs(config, { chatModel: chatModelFor(chat.server.baseURL) });
    expect(jobs.map((job) => [job.name, job.intervalMs])).toEqual([[CURATE_JOB, 24 * 3_600_000]]);
    let now = new Date("2026-01-01T00:00:00.000Z");
    const scheduler = new JobScheduler({ memory, jobs, now: () => now });
    chat.server.reply({ status: 500 }, { status: 500 });
    expect(await scheduler.tick()).toEqual({ curate: "failed" });
    const [failed] = await scheduler.status();
    expect(failed?.lastError?.message).toMatch(/HTTP 500/);
    chat.server.reply(proposal({ delete: ["d2"] }));
    now = new Date("2026-01-01T00:01:00.000Z");
    expect(await scheduler.tick()).toEqual({ curate: "ran" });
    const [status] = await scheduler.status();
    expect(status?.lastError).toBeNull();
    expect((status?.lastReport as CurateReport | undefined)?.deleted).toEqual([
      { namespace: "default", key: "d2" },
    ]);
    await scheduler.stop();
  });
});

describe("checkProposal", () => {
  const entries = new Map(
    [
      { key: "a", category: "core" },
      { key: "b", category: "daily" },
      { key: "c", category: "daily" },
    ].map((entry) => [
      entry.key,
      {
        ...entry,
        id: entry.key,
        content: entry.key,
        namespace: "default",
        createdAt: "",
        updatedAt: "",
      },
    ]),
  );
  it("accepts merging a core entry and deleting a daily one", () => {
    expect(
      checkProposal({ delete: ["c"], merge: [{ keys: ["a", "b"], content: "ab" }] }, entries),
    ).toEqual([]);
  });
  it("refuses a merge target that is another existing entry", () => {
    expect(
      checkProposal(
        { delete: [], merge: [{ keys: ["a", "b"], content: "ab", key: "c" }] },
        entries,
      ),
    ).toEqual([
      'merge[0]: key "c" belongs to another entry; use one of the group\'s keys or a new one',
    ]);
  });
  it("refuses a key both deleted and merged", () => {
    expect(
      checkProposal({ delete: ["b"], merge: [{ keys: ["a", "b"], content: "ab" }] }, entries),
    ).toEqual(['merge[0]: key "b" is used twice']);
  });
});
