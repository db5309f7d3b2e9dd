#!/usr/bin/env bash
# LoCoMo retrieval eval of @memory/sqlite, next to the kit's built-in baselines, in one command.
#
#   pnpm exec turbo run build                      # the adapter imports the built packages
#   packages/sqlite/bench/locomo.sh                # default configurations: hybrid-local, bm25
#   packages/sqlite/bench/locomo.sh hybrid-local \
#     weighted="LOCOMO_MODE=hybrid LOCOMO_OPTIONS='{\"mergeStrategy\":\"weighted\"}'" \
#     -- --convs conv-26 --keep-work               # after "--": passed to locomo.mjs as is
#
# A configuration is a preset name (hybrid-local, bm25, embedding-local, hybrid-local-isolated)
# or NAME=ENV, where ENV is shell text put before `node locomo-adapter.mjs` (the harness runs each
# --ext command through /bin/sh, so quoting follows sh rules; see locomo-adapter.mjs for the
# LOCOMO_* variables).
#
# Environment: LOCOMO_KIT (default /work/shared/eval/locomo), LOCOMO_SYSTEMS (built-in
# baselines, default fts5-or,fts5-or-porter; "none" for none), LOCOMO_OUT (results directory).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ADAPTER="$HERE/locomo-adapter.mjs"
KIT="${LOCOMO_KIT:-/work/shared/eval/locomo}"
CACHE="${TMPDIR:-/tmp}/memory-locomo-kit"
OUT="${LOCOMO_OUT:-${TMPDIR:-/tmp}/memory-locomo-results/$(date +%Y%m%d-%H%M%S)}"
SYSTEMS="${LOCOMO_SYSTEMS:-fts5-or,fts5-or-porter}"

for built in "$HERE/../dist/index.mjs" "$HERE/../../embeddings/dist/local.mjs"; do
  [ -f "$built" ] || { echo "locomo.sh: $built is missing; run pnpm exec turbo run build" >&2; exit 1; }
done

# The kit is read-only and its baselines need better-sqlite3: work on a prepared copy, cached so
# re-runs skip the ~75 s native build. The kit's files are refreshed on every run (cheap); npm ci
# runs again only when the lockfile changed.
export npm_config_nodedir="${npm_config_nodedir:-/usr}" # node-gyp cannot download headers here
if [ -d "$CACHE/node_modules/better-sqlite3" ] && cmp -s "$KIT/package-lock.json" "$CACHE/package-lock.json"; then
  chmod -R u+w "$CACHE"
  cp -rf "$KIT/." "$CACHE/"
else
  rm -rf "$CACHE"
  cp -r "$KIT" "$CACHE"
  chmod -R u+w "$CACHE"
  echo "locomo.sh: npm ci in $CACHE (builds better-sqlite3)" >&2
  (cd "$CACHE" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi
chmod -R u+w "$CACHE"

preset() {
  case "$1" in
    hybrid-local) echo "LOCOMO_MODE=hybrid LOCOMO_EMBEDDER=local" ;;
    bm25) echo "LOCOMO_MODE=bm25 LOCOMO_EMBEDDER=noop" ;;
    embedding-local) echo "LOCOMO_MODE=embedding LOCOMO_EMBEDDER=local" ;;
    hybrid-local-isolated) echo "LOCOMO_MODE=hybrid LOCOMO_EMBEDDER=local LOCOMO_ISOLATE=1" ;;
    *) return 1 ;;
  esac
}

configs=()
passthrough=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; passthrough=("$@"); break; fi
  configs+=("$1")
  shift
done
[ ${#configs[@]} -gt 0 ] || configs=(hybrid-local bm25)

ext=()
for config in "${configs[@]}"; do
  if [[ "$config" == *=* ]]; then
    name="${config%%=*}" env="${config#*=}"
  else
    name="$config"
    env="$(preset "$config")" || { echo "locomo.sh: unknown preset $config" >&2; exit 2; }
  fi
  # The command's own env assignments win over anything inherited from this shell.
  ext+=(--ext "$name=$env node '$ADAPTER'")
done

mkdir -p "$OUT"
echo "locomo.sh: results in $OUT" >&2
cd "$CACHE"
exec node locomo.mjs --systems "$SYSTEMS" "${ext[@]}" --out "$OUT" ${passthrough[@]+"${passthrough[@]}"}
