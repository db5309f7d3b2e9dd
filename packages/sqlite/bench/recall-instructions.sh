#!/usr/bin/env bash
# Keyword recall against a bare FTS5 query on the 419-entry conv-26 store, in CPU instructions
# (valgrind's callgrind counts them; the count repeats to within about 1% whatever else the
# machine runs, where seconds move by tens of percent on a shared 2-core machine).
#
#   node /work/shared/eval/locomo/locomo.mjs --export /tmp/locomo-export --out /tmp/locomo-x
#   bash packages/sqlite/bench/recall-instructions.sh /tmp/locomo-export     (after a build)
#
# Each side runs twice, with WARM and WARM + COUNT operations, on a fresh copy of the store;
# the difference over COUNT is one operation's instructions in steady state (start-up, module
# loading and the JIT's warm-up cancel out). Each operation is followed by a turn of the event
# loop, so a tracked recall's usage is written in a transaction of its own, as in a server at
# low load (BENCH_YIELD=0: back to back, usage written in one batch at close; the figures
# before 2026-11-28's fourth session). All processes' threads count: the garbage
# collector's and the compiler's too. About 9 minutes on 2 cores; the runs go two at a time.
set -euo pipefail
export_dir=${1:?usage: recall-instructions.sh EXPORT_DIR}
warm=${WARM:-1000}
count=${COUNT:-2000}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v valgrind >/dev/null || { echo "valgrind is needed (apt install valgrind)" >&2; exit 2; }
node "$here/recall-instructions.mjs" build "$export_dir" "$work/store.db" >&2

# Instructions of `run <side> <n>` on a fresh copy of the store.
instructions() {
  local copy="$work/$1-$2.db"
  cp "$work/store.db" "$copy"
  valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    node "$here/recall-instructions.mjs" run "$export_dir" "$copy" "$1" "$2" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

declare -A per
for side in bare off on; do
  instructions "$side" "$warm" > "$work/$side.a" &
  instructions "$side" $((warm + count)) > "$work/$side.b" &
  wait
  per[$side]=$(( ($(cat "$work/$side.b") - $(cat "$work/$side.a")) / count ))
  echo "$side: ${per[$side]} instructions per operation" >&2
done
echo "| side | instructions per operation | x bare |"
echo "|---|---:|---:|"
for side in bare off on; do
  echo "| $side | ${per[$side]} | $(awk -v a="${per[$side]}" -v b="${per[bare]}" 'BEGIN { printf "%.2f", a / b }') |"
done
