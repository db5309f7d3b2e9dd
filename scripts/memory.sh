#!/usr/bin/env bash
# `pnpm memory <command>` in this repository: the built CLI, on the store `npm start` serves.
# Without --config, and when neither ./memory.toml nor MEMORY_CONFIG says otherwise, it uses
# .memory/memory.toml (written by the first `npm start`), so the CLI and the server agree on the
# store and the embedder.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=apps/cli/dist/memory.mjs
if [ ! -f "$cli" ]; then
  echo "pnpm memory: $cli is not built yet: run \`npm start\` once, or \`pnpm exec turbo run build --filter=@memory/cli...\`" >&2
  exit 1
fi
config=()
case " $* " in
  *" --config "* | *" --config="*) ;;
  *)
    if [ -n "${MEMORY_CONFIG:-}" ]; then
      config=(--config "$MEMORY_CONFIG")
    elif [ ! -f memory.toml ] && [ -f .memory/memory.toml ]; then
      config=(--config .memory/memory.toml)
    fi
    ;;
esac
exec node "$cli" "${config[@]}" "$@"
