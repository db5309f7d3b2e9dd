#!/usr/bin/env bash
# `npm run link-cli [-- <dir>]`: installs the `memory` command, without sudo or network, and says
# whether <dir> is on the PATH (printing the line to add when it is not).
# Writes <dir>/memory (default ~/.local/bin/memory), a two-line wrapper that runs this clone's
# built CLI (apps/cli/dist/memory.mjs) with the Node that ran this script, so a rebuild is picked
# up at once and the native SQLite addon always meets the Node it was built for. Builds the CLI
# first when it is missing. Remove it with `rm ~/.local/bin/memory`.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

if [ $# -gt 1 ] || [[ "${1:-}" == -* ]]; then
  echo "usage: npm run link-cli [-- <bin dir>]   (default: ~/.local/bin)" >&2
  exit 2
fi
dir=${1:-$HOME/.local/bin}
target=$dir/memory
marker="# Written by \`npm run link-cli\`"

if [ ! -f apps/cli/dist/memory.mjs ]; then
  source scripts/env.sh
  echo "link-cli: building the CLI first" >&2
  bash scripts/setup.sh
  pnpm exec turbo run build --filter=@memory/cli... --output-logs=errors-only
fi
if [ -e "$target" ] && ! grep -q "^$marker" "$target" 2>/dev/null; then
  echo "link-cli: $target exists and was not written by link-cli; move it away first" >&2
  exit 1
fi

mkdir -p "$dir"
cat >"$target" <<SH
#!/bin/sh
$marker in $repo: the memory CLI of that clone.
exec "$(command -v node)" "$repo/apps/cli/dist/memory.mjs" "\$@"
SH
chmod +x "$target"
echo "linked $target -> $repo/apps/cli/dist/memory.mjs" >&2

# On the PATH when an entry names the same directory (a trailing slash is the same place);
# otherwise say so, and print the line to add for the user's shell.
on_path=no
IFS=: read -r -a entries <<<"$PATH"
for entry in "${entries[@]}"; do
  if [ -n "$entry" ] && [ "${entry%/}" = "${dir%/}" ]; then on_path=yes; fi
done
if [ "$on_path" = yes ]; then
  echo "try: memory --help" >&2
else
  case "$(basename "${SHELL:-bash}")" in
    zsh) rc="~/.zshrc" ;;
    *) rc="~/.bashrc" ;;
  esac
  echo "$dir is NOT on your PATH, so \`memory\` is not found yet. Add this line to $rc, then open a new shell:" >&2
  echo "  export PATH=\"$dir:\$PATH\"" >&2
  echo "(or run it now: echo 'export PATH=\"$dir:\$PATH\"' >> $rc)" >&2
fi
