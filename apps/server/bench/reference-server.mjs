// The reference server of the throughput benchmark: the least a keyword memory server can do.
// One process, node:http, better-sqlite3 (WAL), an FTS5 table, JSON in and out; no auth, no
// validation beyond JSON.parse, no ranking beyond FTS5's bm25. Started by throughput-bench.ts:
//
//   node reference-server.mjs <database file> <rows.jsonl> [processes]   (prints "listening on <url>")
//
// With more than one process (node:cluster, as ours), the primary loads the rows and each
// worker serves from its own connection: the same handler on every core, the most N processes
// of anything can scale on the machine (the ceiling ours is judged against).
//
// Endpoints mirror ours so one load generator drives both: POST /v1/memories {key, content},
// GET /v1/memories/<key>, POST /v1/recall {query, limit}.
import cluster from "node:cluster";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import Database from "better-sqlite3";

const [file, rowsFile, processArg] = process.argv.slice(2);
const processes = Number(processArg ?? 1);
const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
// In N processes the writers share the file: wait for its lock as ours does (5 s).
db.pragma("busy_timeout = 5000");
db.exec(`CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, content TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(content, content = 'entries', tokenize = 'unicode61 remove_diacritics 2');`);
const insert = db.prepare("INSERT INTO entries (key, content) VALUES (?, ?) RETURNING rowid");
const byKey = db.prepare("SELECT rowid, key, content FROM entries WHERE key = ?");
const remove = db.prepare("DELETE FROM entries WHERE rowid = ?");
const ftsInsert = db.prepare("INSERT INTO fts (rowid, content) VALUES (?, ?)");
const ftsDelete = db.prepare("INSERT INTO fts (fts, rowid, content) VALUES ('delete', ?, ?)");
const search = db.prepare(
  "SELECT e.key, e.content, bm25(fts) AS score FROM fts JOIN entries e ON e.rowid = fts.rowid WHERE fts MATCH ? ORDER BY score LIMIT ?",
);
const store = db.transaction((key, content) => {
  const old = byKey.get(key);
  if (old) {
    ftsDelete.run(old.rowid, old.content);
    remove.run(old.rowid);
  }
  const { rowid } = insert.get(key, content);
  ftsInsert.run(rowid, content);
});
if (cluster.isPrimary) {
  db.transaction(() => {
    for (const line of readFileSync(rowsFile, "utf8").split("\n")) {
      if (line) store(JSON.parse(line).key, JSON.parse(line).content);
    }
  })();
}

// Quoted terms joined by OR: no FTS5 syntax from the query reaches the parser.
const matchOf = (query) =>
  (query.match(/[\p{L}\p{N}]+/gu) ?? []).map((term) => `"${term}"`).join(" OR ");

function body(request) {
  return new Promise((resolve, reject) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => {
      text += chunk;
    });
    request.on("end", () => resolve(text ? JSON.parse(text) : {}));
    request.on("error", reject);
  });
}

function send(response, status, value) {
  const text = JSON.stringify(value);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

const server = createServer(async (request, response) => {
  try {
    if (request.method === "POST" && request.url === "/v1/recall") {
      const { query, limit = 10 } = await body(request);
      const match = matchOf(query);
      return send(response, 200, { results: match ? search.all(match, limit) : [] });
    }
    if (request.method === "POST" && request.url === "/v1/memories") {
      const { key, content } = await body(request);
      // IMMEDIATE: a deferred transaction that reads first cannot wait for the lock when another
      // process wrote meanwhile (SQLITE_BUSY_SNAPSHOT), whatever busy_timeout says.
      store.immediate(key, content);
      return send(response, 200, { entry: { key, content } });
    }
    if (request.method === "GET" && request.url.startsWith("/v1/memories/")) {
      const row = byKey.get(decodeURIComponent(request.url.slice("/v1/memories/".length)));
      return row
        ? send(response, 200, { entry: { key: row.key, content: row.content } })
        : send(response, 404, {});
    }
    send(response, 404, {});
  } catch (error) {
    send(response, 500, { error: String(error) });
  }
});
server.keepAliveTimeout = 60_000;
const announce = (port) => process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
if (processes <= 1) {
  server.listen(0, "127.0.0.1", () => announce(server.address().port));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
} else if (cluster.isPrimary) {
  // Port 0 in a cluster would give each worker its own port: pick one, then share it.
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address();
    probe.close(() => {
      let ready = 0;
      for (let i = 0; i < processes; i += 1) {
        cluster.fork({ REFERENCE_PORT: String(port) }).on("listening", () => {
          ready += 1;
          if (ready === processes) announce(port);
        });
      }
    });
  });
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill("SIGTERM");
    process.exit(0);
  });
} else {
  server.listen(Number(process.env.REFERENCE_PORT), "127.0.0.1");
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}
