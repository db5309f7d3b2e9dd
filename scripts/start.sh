#!/usr/bin/env bash
# `npm start`: serve memory on this machine, from a fresh clone of a fresh machine.
#
#   1. install what is missing (pnpm, the workspace's dependencies: scripts/setup.sh)
#   2. build the server and what it depends on (turbo, cached after the first run)
#   3. first run only: create ./.memory with the embedded default configuration
#      (SQLite + the offline `local` embedder), unless ./memory.toml exists
#   4. start the HTTP API + MCP server on 127.0.0.1:8787 in loopback dev mode (no token, which
#      the server allows only on a loopback address and only because this script asks for it)
#
# Environment (all optional): MEMORY_CONFIG (a memory.toml to use instead), MEMORY_SERVER_HOST,
# MEMORY_SERVER_PORT, MEMORY_SERVER_TOKEN (then a token is also accepted).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

step() { printf '\n== %s\n' "$*" >&2; }

step "install (scripts/setup.sh)"
bash scripts/setup.sh

step "build"
pnpm exec turbo run build --filter=@memory/server... --output-logs=errors-only

step "configuration"
if [ -n "${MEMORY_CONFIG:-}" ]; then
  config=$MEMORY_CONFIG
  echo "using MEMORY_CONFIG=$config" >&2
elif [ -f memory.toml ]; then
  config=memory.toml
  echo "using ./memory.toml" >&2
else
  config=.memory/memory.toml
  if [ -f "$config" ]; then
    echo "using $config" >&2
  else
    mkdir -p .memory
    cat >"$config" <<'TOML'
# Written by `npm start` on first run: the embedded default.
# Relative paths are relative to this file, so data_dir "." is this .memory directory.
# Every [memory] key can be overridden by MEMORY_<KEY>, e.g. MEMORY_EMBEDDING_PROVIDER=noop.

[memory]
backend = "sqlite"
data_dir = "."
# local = an on-device sentence encoder (no network). If it cannot load, the server still
# starts, keyword-only (BM25), and says so.
embedding_provider = "local"
# store returns at once; embeddings are computed in the background.
defer_embedding = true

[server]
host = "127.0.0.1"
port = 8787
TOML
    echo "created $config (SQLite + local embedder; data in $(pwd)/.memory)" >&2
  fi
fi

host=${MEMORY_SERVER_HOST:-127.0.0.1}
port=${MEMORY_SERVER_PORT:-8787}
args=(--config "$config" --host "$host" --port "$port")
case "$host" in
  127.* | localhost | ::1 | "[::1]") args+=(--allow-unauthenticated-loopback) ;;
  *) echo "host $host is not loopback: a token is required (MEMORY_SERVER_TOKEN)" >&2 ;;
esac

step "start"
exec node apps/server/dist/main.mjs "${args[@]}"
