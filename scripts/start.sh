#!/usr/bin/env bash
# `npm start`: serve memory on this machine, from a fresh clone of a fresh machine.
#
#   npm start -- [--port <port>] [--host <host>] [--config <file>] [--workers <n>]
#
#   1. install what is missing (pnpm, the workspace's dependencies: scripts/setup.sh)
#   2. build the server, the `memory` CLI and what they depend on (turbo, cached after the
#      first run), so `pnpm memory ...` and `npm run link-cli` work next
#   3. first run only: create ./.memory with the embedded default configuration
#      (SQLite + the offline `local` embedder), unless ./memory.toml exists
#   4. start the HTTP API + MCP server on 127.0.0.1:8787 in loopback dev mode (no token, which
#      the server allows only on a loopback address and only because this script asks for it)
#
# Arguments win over the environment: --port (MEMORY_SERVER_PORT, else [server].port, else
# 8787), --host (MEMORY_SERVER_HOST, else 127.0.0.1), --config (MEMORY_CONFIG, else
# ./memory.toml, else .memory/memory.toml), --workers (MEMORY_SERVER_WORKERS, else
# [server].workers, else the number of cores). MEMORY_SERVER_TOKEN: a token is also accepted.
# MEMORY_START_SKIP_SETUP=1 skips steps 1 and 2 (the tests use it; they build beforehand).
set -euo pipefail
# A relative --config is relative to where the user typed the command (npm sets INIT_CWD).
caller=${INIT_CWD:-$PWD}
cd "$(dirname "$0")/.."

usage() {
  cat <<'USAGE'
Usage: npm start -- [--port <port>] [--host <host>] [--config <file>] [--workers <n>]

  --port, -p <port>   port to listen on (default: MEMORY_SERVER_PORT, else [server].port, else 8787)
  --host <host>       interface to listen on (default: MEMORY_SERVER_HOST, else 127.0.0.1);
                      a host that is not loopback needs a token (MEMORY_SERVER_TOKEN)
  --config, -c <file> memory.toml to use (default: MEMORY_CONFIG, else ./memory.toml,
                      else .memory/memory.toml, written on first run)
  --workers, -w <n>   server processes sharing the port (default: MEMORY_SERVER_WORKERS, else
                      [server].workers, else the number of cores; 1 serves in one process)
  --help, -h          this help

The `--` matters: without it npm keeps --port for itself.
USAGE
}

fail() {
  printf 'npm start: %s\n' "$1" >&2
  printf 'accepted: --port <port>, --host <host>, --config <file>, --workers <n>, --help (npm start -- --port 8790)\n' >&2
  exit 2
}

port=${MEMORY_SERVER_PORT:-}
host=${MEMORY_SERVER_HOST:-127.0.0.1}
config=${MEMORY_CONFIG:-}
workers=
while [ $# -gt 0 ]; do
  case "$1" in
    --port | -p | --host | --config | -c | --workers | -w)
      [ $# -ge 2 ] && [ -n "$2" ] || fail "$1 needs a value"
      case "$1" in
        --port | -p) port=$2 ;;
        --host) host=$2 ;;
        --workers | -w) workers=$2 ;;
        *) config=$2 ;;
      esac
      shift 2
      ;;
    --port=*) port=${1#--port=} && shift ;;
    --host=*) host=${1#--host=} && shift ;;
    --config=*) config=${1#--config=} && shift ;;
    --workers=*) workers=${1#--workers=} && shift ;;
    --help | -h) usage && exit 0 ;;
    *)
      # `npm start --port 8790` (no `--`): npm takes --port as its own setting, sets
      # npm_config_port=true and passes only "8790" on.
      if [ -n "${npm_config_port:-}${npm_config_host:-}${npm_config_config:-}" ] && [[ "$1" != -* ]]; then
        fail "npm kept --port/--host/--config for itself and passed only \"$1\"; put -- before them: npm start -- --port 8790"
      fi
      fail "unknown argument \"$1\""
      ;;
  esac
done
if [ -n "$port" ] && ! [[ "$port" =~ ^[0-9]+$ && "$port" -le 65535 ]]; then
  fail "--port must be an integer from 0 to 65535 (got \"$port\")"
fi
if [ -n "$workers" ] && ! [[ "$workers" =~ ^[0-9]+$ && "$workers" -ge 1 && "$workers" -le 256 ]]; then
  fail "--workers must be an integer from 1 to 256 (got \"$workers\")"
fi

source scripts/env.sh

step() { printf '\n== %s\n' "$*" >&2; }

if [ "${MEMORY_START_SKIP_SETUP:-}" != 1 ]; then
  step "install (scripts/setup.sh)"
  bash scripts/setup.sh

  step "build (server + CLI)"
  pnpm exec turbo run build --filter=@memory/server... --filter=@memory/cli... --output-logs=errors-only
fi

step "configuration"
if [ -n "$config" ]; then
  case "$config" in /*) ;; *) config=$caller/$config ;; esac
  [ -f "$config" ] || fail "the configuration file $config does not exist"
  echo "using $config" >&2
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

args=(--config "$config" --host "$host")
# No --port unless asked: the server then reads MEMORY_SERVER_PORT, else [server].port (8787).
if [ -n "$port" ]; then args+=(--port "$port"); fi
# No --workers unless asked: the server then reads MEMORY_SERVER_WORKERS, else [server].workers.
if [ -n "$workers" ]; then args+=(--workers "$workers"); fi
case "$host" in
  127.* | localhost | ::1 | "[::1]") args+=(--allow-unauthenticated-loopback) ;;
  *) echo "host $host is not loopback: a token is required (MEMORY_SERVER_TOKEN)" >&2 ;;
esac

step "start"
exec node apps/server/dist/main.mjs "${args[@]}"
