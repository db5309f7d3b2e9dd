// Cold-start timings of the built CLI: each run is a fresh `node dist/memory.mjs` process, as
// a shell or an agent hook would start it. Usage: node bench/cold-start.mjs [runs] [entries]
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../dist/memory.mjs", import.meta.url));
const runs = Number(process.argv[2] ?? 20);
const entries = Number(process.argv[3] ?? 10_000);

function setup(provider) {
  const dir = mkdtempSync(path.join(tmpdir(), `memory-bench-${provider}-`));
  writeFileSync(
    path.join(dir, "memory.toml"),
    `[memory]\nembedding_provider = "${provider}"\ndefer_embedding = false\n\n[sqlite]\npath = "brain.db"\n`,
  );
  const lines = [];
  for (let index = 0; index < entries; index++) {
    const topic = ["deploys", "typescript", "coffee", "meetings", "invoices", "travel", "music"][
      index % 7
    ];
    lines.push(
      JSON.stringify({
        key: `fact-${index}`,
        content: `Note ${index}: the user said something about ${topic} on day ${index % 365}`,
        category: index % 5 ? "daily" : "core",
      }),
    );
  }
  writeFileSync(path.join(dir, "seed.jsonl"), `${lines.join("\n")}\n`);
  const started = performance.now();
  execFileSync(process.execPath, [BIN, "import", "seed.jsonl"], { cwd: dir, stdio: "ignore" });
  console.log(
    `${provider}: imported ${entries} entries in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return dir;
}

// `unique`: append a run-specific word to the query, so the store's query-embedding cache
// cannot answer and the model really runs (loaded from disk) in every process.
function time(dir, args, unique = false) {
  const samples = [];
  spawnSync(process.execPath, [BIN, ...args], { cwd: dir }); // warm the OS file cache once
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const runArgs = unique ? [args[0], `${args[1]} q${run}`, ...args.slice(2)] : args;
    const result = spawnSync(process.execPath, [BIN, ...runArgs], { cwd: dir, encoding: "utf8" });
    samples.push(performance.now() - started);
    if (result.status !== 0) throw new Error(`memory ${args.join(" ")} failed: ${result.stderr}`);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  const label = unique
    ? `${args[0]} "${args[1]} q<n>"${args.length > 2 ? ` ${args.slice(2).join(" ")}` : ""}`
    : args.join(" ");
  console.log(
    `| \`memory ${label}\` | ${median.toFixed(0)} | ${mean.toFixed(0)} | ${samples[0].toFixed(0)} | ${samples.at(-1).toFixed(0)} |`,
  );
}

console.log(`node ${process.version}, ${runs} runs each, ${entries}-entry SQLite store`);
const dirs = [];
try {
  const noop = setup("noop");
  dirs.push(noop);
  console.log(
    "\n| command (noop provider) | median ms | mean ms | min ms | max ms |\n|---|---|---|---|---|",
  );
  time(noop, ["--version"]);
  time(noop, ["get", "fact-4242"]);
  time(noop, ["recall", "typescript deploys"]);
  if (process.env.BENCH_LOCAL !== "0") {
    const local = setup("local");
    dirs.push(local);
    console.log(
      "\n| command (local provider) | median ms | mean ms | min ms | max ms |\n|---|---|---|---|---|",
    );
    time(local, ["get", "fact-4242"]);
    time(local, ["recall", "typescript deploys", "--mode", "bm25"]);
    time(local, ["recall", "typescript deploys"]);
    // No stored word matches, so there is no decisive keyword hit (early return) and the
    // query must be embedded: this is the cost of loading the model.
    time(local, ["recall", "favourite hot drink"], true);
  }
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
