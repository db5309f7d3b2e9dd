import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, Workspace } from "./helpers/run-memory.js";

interface DoctorResult {
  checks: { name: string; status: string; message: string }[];
}

// The on-device `local` provider (Universal Sentence Encoder on tfjs-wasm) needs optional
// packages; when @memory/embeddings cannot resolve them, these tests are skipped with the reason.
const LOCAL = 'embedding_provider = "local"\ndefer_embedding = false';

describe("with the local embedding provider", () => {
  let ws: Workspace;
  let unavailable: string | undefined;
  beforeAll(async () => {
    ws = new Workspace("", LOCAL);
    ws.writeConfig("to.toml", `[memory]\n${LOCAL}\n\n[sqlite]\npath = "copy/brain.db"\n`);
    const doctor = json<DoctorResult>(await ws.run(["doctor", "--json"]));
    const embeddings = doctor.checks.find((check) => check.name === "embeddings");
    if (embeddings?.status !== "ok" || !embeddings.message.startsWith("local"))
      unavailable = embeddings?.message ?? "no embeddings check";
  });
  afterAll(() => ws.remove());

  it("backfills entries stored without a vector, then recalls with vector ranks", async (context) => {
    if (unavailable) return context.skip(`local provider unavailable: ${unavailable}`);
    // Stored keyword-only, as a store without the model would leave them.
    const noop = { env: { MEMORY_EMBEDDING_PROVIDER: "noop" } };
    await ws.run(
      ["store", "The user prefers TypeScript for backend services", "--key", "lang"],
      noop,
    );
    await ws.run(["store", "Deploys happen on Friday afternoons", "--key", "deploys"], noop);

    const before = json<DoctorResult>(await ws.run(["doctor", "--json"]));
    expect(before.checks.find((check) => check.name === "pending")).toMatchObject({
      status: "warn",
      message: expect.stringContaining("2 entries"),
    });

    const backfill = await ws.run(["backfill", "--json"]);
    expect(backfill.code, backfill.stderr).toBe(0);
    expect(json(backfill)).toMatchObject({
      embedded: 2,
      failed: 0,
      remaining: 0,
      provider: expect.stringMatching(/^local:/),
    });

    const recall = json<{ results: { key: string; explain: Record<string, unknown> }[] }>(
      // --min-score 0: a match by meaning alone sits near the default threshold; this pins ranks.
      await ws.run(["recall", "which programming language", "--min-score", "0", "--json"]),
    );
    const lang = recall.results.find((result) => result.key === "lang");
    expect(lang?.explain).toMatchObject({
      vectorRank: expect.any(Number),
      cosine: expect.any(Number),
    });
    expect(lang?.explain.degraded).toBeUndefined();

    const explained = await ws.run([
      "recall",
      "which programming language",
      "--min-score",
      "0",
      "--explain",
    ]);
    expect(explained.stdout).toMatch(/vector #\d \(cosine -?\d\.\d{3}, relevance \d\.\d{3}\)/);
  });

  it("migrates with embeddings copied when the fingerprints match", async (context) => {
    if (unavailable) return context.skip(`local provider unavailable: ${unavailable}`);
    const result = await ws.run(["migrate", "--from", "memory.toml", "--to", "to.toml", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toMatchObject({ copied: 2, embeddingsCopied: true, pendingEmbeddings: 0 });
    const doctor = json<DoctorResult>(await ws.run(["--config", "to.toml", "doctor", "--json"]));
    expect(doctor.checks.find((check) => check.name === "fingerprint")?.status).toBe("ok");
  });
});
