import { execFileSync } from "node:child_process";
import { createServer } from "node:net";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Output } from "../src/output/output.js";
import { createProgress, progressFormat } from "../src/output/progress.js";
import { json, Workspace } from "./helpers/run-memory.js";

interface DoctorResult {
  ok: boolean;
  checks: { name: string; status: string; message: string; fix?: string }[];
}

/** A port in this suite's range with nothing listening on it (checked by binding it first). */
async function closedPort(): Promise<number> {
  for (let port = 18899; port > 18880; port--) {
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free port in 18881-18899");
}

/** `chattr +i` makes a file immutable even for root (chmod does not stop root's writes). */
function immutable(file: string, on: boolean): boolean {
  try {
    execFileSync("chattr", [on ? "+i" : "-i", file], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("memory doctor with PostgreSQL down", () => {
  let ws: Workspace;
  let port: number;
  beforeAll(async () => {
    port = await closedPort();
    ws = new Workspace();
    ws.writeConfig(
      "memory.toml",
      `[memory]\nbackend = "postgres"\nembedding_provider = "noop"\n\n[postgres]\nurl = "postgresql://alice:hunter2secret@127.0.0.1:${port}/memory"\n`,
    );
  });
  afterAll(() => ws.remove());

  it("says the server is unreachable at host:port, what to check, and not to reindex", async () => {
    const result = await ws.run(["doctor"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `PostgreSQL is unreachable at 127.0.0.1:${port} (ECONNREFUSED)`,
    );
    expect(result.stdout).toMatch(/check that the PostgreSQL server is running/);
    expect(result.stdout).toContain(`[postgres].url in ${ws.file("memory.toml")}`);
    expect(result.stdout).toContain("MEMORY_POSTGRES_URL");
    expect(result.stdout).not.toContain("reindex");
    expect(result.stdout).not.toContain("hunter2secret");
    // The outage is reported once, not repeated by the full-text and recall checks (the chat
    // model is checked apart from the store: skipped here, none is configured).
    const body = json<DoctorResult>(await ws.run(["doctor", "--json"]));
    expect(body.checks.map((check) => check.name)).toEqual([
      "config",
      "embeddings",
      "backend",
      "chat",
    ]);
  });

  it("names MEMORY_POSTGRES_URL when the URL comes from the environment", async () => {
    ws.writeConfig("env.toml", '[memory]\nbackend = "postgres"\nembedding_provider = "noop"\n');
    const result = await ws.run(["--config", "env.toml", "doctor"], {
      env: { MEMORY_POSTGRES_URL: `postgresql://alice:hunter2secret@127.0.0.1:${port}/memory` },
    });
    expect(result.stdout).toContain(`unreachable at 127.0.0.1:${port}`);
    expect(result.stdout).toMatch(/that MEMORY_POSTGRES_URL .*names the right host and port/);
    expect(result.stdout).not.toContain("hunter2secret");
  });
});

describe("a read-only SQLite store", () => {
  let ws: Workspace;
  let locked: string | undefined;
  beforeAll(async () => {
    ws = new Workspace();
    expect((await ws.run(["store", "first entry", "--key", "one"])).code).toBe(0);
  });
  afterAll(() => {
    if (locked) immutable(locked, false);
    ws.remove();
  });

  const noCodeOptions = (text: string) => {
    expect(text).not.toMatch(/fallbackToNone|corrupt/);
  };

  // chattr needs root and a file system with inode flags; without them there is no read-only
  // file for root, and the test says so instead of passing vacuously.
  it("store and doctor say it is read-only and name [sqlite].path / data_dir", async (test) => {
    if (!immutable(ws.file("brain.db"), true)) {
      test.skip("chattr +i is not available here (needs root and ext4/xfs/btrfs)");
      return;
    }
    locked = ws.file("brain.db");
    const store = await ws.run(["store", "second entry", "--key", "two"]);
    expect(store.code).toBe(1);
    expect(store.stderr).toContain("is read-only");
    expect(store.stderr).toContain("data_dir / [sqlite].path");
    noCodeOptions(store.stderr);

    const doctor = await ws.run(["doctor"]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/FAIL {2}backend .*cannot be written: .*read-only/);
    expect(doctor.stdout).toContain("[sqlite].path / data_dir");
    noCodeOptions(doctor.stdout);
    // Reads keep working, so the read checks still run and pass.
    expect(doctor.stdout).toMatch(/ok {4}full text/);
    immutable(locked, false);
    locked = undefined;
  });

  it("an unopenable store names config keys, not code options", async (test) => {
    const dir = ws.file("locked");
    execFileSync("mkdir", ["-p", dir]);
    if (!immutable(dir, true)) {
      test.skip("chattr +i is not available here");
      return;
    }
    locked = dir;
    ws.writeConfig(
      "locked.toml",
      '[memory]\nembedding_provider = "noop"\n[sqlite]\npath = "locked/brain.db"\n',
    );
    const doctor = await ws.run(["--config", "locked.toml", "doctor"]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain("Cannot open the memory database");
    expect(doctor.stdout).toContain("[sqlite].path / data_dir");
    expect(doctor.stdout).toContain("[sqlite].fallback_to_none");
    noCodeOptions(doctor.stdout);
    immutable(dir, false);
    locked = undefined;
  });
});

describe("--since / --until", () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = new Workspace();
  });
  afterAll(() => ws.remove());

  for (const value of ["yesterday", "2026-01-31 12:00:00", "2026-01-31T12:00", "7 days"]) {
    it(`refuses ${JSON.stringify(value)} listing every accepted form`, async () => {
      const result = await ws.run(["list", "--since", value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("--since");
      for (const form of ["30m", "12h", "7d", "2w", "2026-01-31T12:00:00Z", "+02:00", "2026-01-31"])
        expect(result.stderr).toContain(form);
    });
  }

  it("says a time out of range is out of range, with the range", async () => {
    const result = await ws.run(["count", "--until", "0000-06-01"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("out of range; times go from 0001-01-01T00:00:00Z");
  });

  it("accepts the documented forms", async () => {
    for (const value of ["30m", "2w", "2026-01-31", "2026-01-31T14:00:00.250+02:00"]) {
      const result = await ws.run(["count", "--since", value]);
      expect(result.code, result.stderr).toBe(0);
    }
  });
});

describe("a config key typo", () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = new Workspace();
    ws.writeConfig(
      "memory.toml",
      '[memory]\nbackend = "sqlite"\nembeding_provider = "noop"\n\n[sqlite]\npath = "brain.db"\n',
    );
  });
  afterAll(() => ws.remove());

  it("suggests the closest key, with its section, file and line", async () => {
    const result = await ws.run(["count"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      `unknown key [memory].embeding_provider (${ws.file("memory.toml")}:3): did you mean [memory].embedding_provider?`,
    );
    // Not the list of every allowed key.
    expect(result.stderr).not.toContain("auto_recall_min_score");
  });
});

describe("migrate progress", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = new Workspace();
    ws.writeConfig("to.toml", '[memory]\nembedding_provider = "noop"\n[sqlite]\npath = "to.db"\n');
    const lines = Array.from({ length: 12 }, (_, i) =>
      JSON.stringify({ key: `k${i}`, content: `entry ${i}`, namespace: i % 2 ? "a" : "b" }),
    );
    expect((await ws.run(["import"], { input: `${lines.join("\n")}\n` })).code).toBe(0);
  });
  afterAll(() => ws.remove());

  it("counts the source first and reports the total and the rate", async () => {
    const result = await ws.run(["--json", "migrate", "--from", "memory.toml", "--to", "to.toml"]);
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toMatchObject({ read: 12, total: 12, seconds: expect.any(Number) });
    const human = await ws.run(["migrate", "--from", "memory.toml", "--to", "to.toml"]);
    expect(human.stdout).toMatch(/migrated 12 entries .* in \d+\.\d s \(\d+ entries\/s\)/);
  });

  it("draws a bar against the total with a rate, and a count with a rate without one", async () => {
    expect(progressFormat("migrate", "entries", true)).toMatch(
      /\{value\}\/\{total\}.*\{rate\} entries\/s.*ETA/,
    );
    expect(progressFormat("import", "entries", false)).not.toContain("{total}");
    expect(progressFormat("import", "entries", false)).toContain("{rate} entries/s");

    const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
    let drawn = "";
    stderr.on("data", (chunk: Buffer) => {
      drawn += chunk.toString();
    });
    const output = new Output({
      json: false,
      verbose: false,
      terminal: { color: false, progress: true, interactiveInput: false },
      stderr,
    });
    const progress = await createProgress(output, "migrate");
    progress.update(3, 10);
    progress.update(7, 10);
    progress.stop();
    expect(drawn).toMatch(/migrate .*\| 7\/10 entries \| \d+ entries\/s/);
  });
});
