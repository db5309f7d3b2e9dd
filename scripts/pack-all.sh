#!/usr/bin/env bash
# `pnpm release:pack [-- --out <dir>] [--no-build] [<package name>...]`: packs every non-private
# workspace package (or only the ones named) into <dir> (default ./packs) exactly as `pnpm publish` would (workspace:* ranges become real
# versions), then checks each tarball with scripts/check-packs.mjs (README, LICENSE, engines,
# license, every `exports` target present, no workspace: range left) and prints the sizes.
# New packages are picked up by themselves: mark a package `"private": true` to leave it out.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

out=packs
build=1
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    -*) echo "usage: scripts/pack-all.sh [--out <dir>] [--no-build] [<package name>...]" >&2; exit 2 ;;
    *) only+=("$1"); shift ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)

# name<TAB>dir of every workspace package that is not private, from pnpm's own workspace list.
packages=$(pnpm ls -r --depth -1 --json | node -e '
  const all = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
  const wanted = process.argv.slice(1);
  const public_ = all.filter((p) => !p.private);
  for (const name of wanted) {
    if (!public_.some((p) => p.name === name)) {
      console.error(`pack-all: ${name} is not a public package of this workspace`);
      process.exit(2);
    }
  }
  for (const p of public_) {
    if (wanted.length === 0 || wanted.includes(p.name)) console.log(`${p.name}\t${p.path}`);
  }
' "${only[@]}")
if [ -z "$packages" ]; then
  echo "pack-all: no public workspace package found" >&2
  exit 1
fi

if [ "$build" = 1 ]; then
  filters=()
  while IFS=$'\t' read -r name _; do filters+=(--filter "$name"); done <<<"$packages"
  pnpm exec turbo run build --output-logs=errors-only "${filters[@]}"
fi

tarballs=()
while IFS=$'\t' read -r name dir; do
  file=$(cd "$dir" && pnpm pack --pack-destination "$out" --json | node -e '
    console.log(JSON.parse(require("node:fs").readFileSync(0, "utf8")).filename)')
  tarballs+=("$file")
done <<<"$packages"

node scripts/check-packs.mjs "${tarballs[@]}"
