import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, Workspace } from "./helpers/run-memory.js";

interface Version {
  key: string;
  content: string;
  updatedAt: string;
  supersededBy?: string;
}

describe("memory supersede, unsupersede and history (SQLite store)", () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = new Workspace("", 'embedding_provider = "noop"\nhistory_versions = 2');
  });
  afterAll(() => ws.remove());

  it("supersedes an entry, says what changed, and restores it", async () => {
    await ws.run(["store", "The user lives in Berlin", "--key", "berlin"]);
    await ws.run(["store", "The user moved to Munich", "--key", "munich"]);
    const superseded = await ws.run(["supersede", "berlin", "munich"]);
    expect(superseded.code).toBe(0);
    expect(superseded.stdout).toContain("superseded berlin by munich (namespace default)");
    expect(superseded.stdout).toContain("memory unsupersede berlin");
    expect(json(await ws.run(["count", "--json"]))).toMatchObject({ count: 1 });
    expect(json(await ws.run(["get", "berlin", "--json"]))).toMatchObject({
      supersededBy: "munich",
    });

    const restored = await ws.run(["unsupersede", "berlin", "--json"]);
    expect(restored.code).toBe(0);
    expect(json(restored)).toMatchObject({
      key: "berlin",
      namespace: "default",
      restored: true,
      previous: "munich",
      entry: { key: "berlin", content: "The user lives in Berlin" },
    });
    const plain = await ws.run(["get", "berlin", "--json"]);
    expect(json(plain).supersededBy).toBeUndefined();
    expect(json(await ws.run(["count", "--json"]))).toMatchObject({ count: 2 });
  });

  it("exits 3, 1 and 2 with one line for a missing key, a current entry and a bad key", async () => {
    await ws.run(["store", "The user drinks tea", "--key", "tea"]);
    const cases = [
      [["supersede", "nope", "tea"], 3, "nothing to supersede"],
      [["supersede", "tea", "nope"], 3, "store the newer entry first"],
      [["supersede", "tea", "tea"], 2, "cannot supersede itself"],
      [["unsupersede", "nope"], 3, "nothing to restore"],
      [["unsupersede", "tea"], 1, "already current"],
      [["unsupersede", "tea::history:1"], 2, "reserved"],
      [["history", "nope"], 3, "no earlier version"],
      [["store", "forged", "--key", "tea::history:3"], 2, "reserved"],
    ] as const;
    for (const [args, code, words] of cases) {
      const result = await ws.run(args);
      expect(result.code, args.join(" ")).toBe(code);
      expect(result.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(result.stderr).toContain(words);
    }
    expect(json(await ws.run(["get", "tea", "--json"])).supersededBy).toBeUndefined();
  });

  it("says when a same-key store kept the previous version, and how to see it", async () => {
    const first = await ws.run(["store", "The user lives in Oslo", "--key", "home", "-n", "kept"]);
    expect(first.stdout).not.toContain("kept the previous version");
    const human = await ws.run([
      "store",
      "The user lives in Bergen",
      "--key",
      "home",
      "-n",
      "kept",
    ]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(
      "kept the previous version as home::history:1; see it with: memory history home --namespace kept",
    );
    const asJson = json(
      await ws.run(["store", "The user lives in Tromsø", "--key", "home", "-n", "kept", "--json"]),
    );
    expect(asJson).toMatchObject({ key: "home", keptVersion: "home::history:2" });
    // The same content again keeps nothing, and says nothing.
    const same = await ws.run(["store", "The user lives in Tromsø", "--key", "home", "-n", "kept"]);
    expect(same.stdout).not.toContain("kept the previous version");
    const history = json<{ versions: (Version & { supersessionRecord?: object })[] }>(
      await ws.run(["history", "home", "-n", "kept", "--json"]),
    );
    expect(history.versions[1]).toMatchObject({
      key: "home::history:2",
      content: "The user lives in Bergen",
      supersessionRecord: { by: "home", decidedBy: "version" },
    });
  });

  it("memory get says by which key and why a superseded entry was superseded", async () => {
    await ws.run(["store", "The user is vegetarian", "--key", "diet-1", "-n", "why"]);
    const newer = await ws.run([
      "store",
      "The user is not vegetarian",
      "--key",
      "diet-2",
      "-n",
      "why",
    ]);
    expect(newer.stdout).toContain("superseded diet-1");
    const human = await ws.run(["get", "diet-1", "-n", "why"]);
    expect(human.stdout).toMatch(/superseded by diet-2 on \S+Z \(negated: .*negated/);
    const old = json(await ws.run(["get", "diet-1", "-n", "why", "--json"]));
    expect(old).toMatchObject({
      supersededBy: "diet-2",
      supersessionRecord: { by: "diet-2", decidedBy: "rules", rule: "negated" },
    });
    const recalled = await ws.run([
      "recall",
      "vegetarian",
      "-n",
      "why",
      "--include-superseded",
      "--explain",
      "--min-score",
      "0",
    ]);
    expect(recalled.stdout).toMatch(/superseded by diet-2 \(negated: .*negated/);
    const kept = json(await ws.run(["get", "diet-2", "-n", "why", "--json"]));
    expect(kept.conflictRecord).toMatchObject({ superseded: ["diet-1"], mode: "rules" });
  });

  it("lists what a key said over time, newest first, within history_versions", async () => {
    for (const content of ["Ship on Monday", "Ship on Tuesday", "Ship on Friday", "Ship on Sunday"])
      await ws.run(["store", content, "--key", "plan", "--namespace", "team"]);
    const result = await ws.run(["history", "plan", "--namespace", "team", "--json"]);
    expect(result.code).toBe(0);
    const { versions } = json<{ versions: Version[] }>(result);
    // history_versions = 2 in memory.toml: the current content and the two before it.
    expect(versions.map((version) => version.content)).toEqual([
      "Ship on Sunday",
      "Ship on Friday",
      "Ship on Tuesday",
    ]);
    expect(versions.slice(1).every((version) => version.supersededBy === "plan")).toBe(true);
    const human = await ws.run(["history", "plan", "-n", "team"]);
    const lines = human.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z {2}current {2}Ship on Sunday$/);
    expect(lines[2]).toMatch(/^\S+Z {2}plan::history:\d {2}Ship on Tuesday$/);
    // Versions are hidden from list by default, shown with --include-superseded.
    const listed = json<{ entries: { key: string }[] }>(
      await ws.run(["list", "-n", "team", "--json"]),
    );
    expect(listed.entries.map((entry) => entry.key)).toEqual(["plan"]);
    const all = json<{ entries: { key: string }[] }>(
      await ws.run(["list", "-n", "team", "--include-superseded", "--json"]),
    );
    expect(all.entries).toHaveLength(3);
  });
});
