#!/usr/bin/env bash
# Installs what a fresh machine lacks for this repository: pnpm (pinned), then the workspace's
# dependencies from the frozen lockfile. Idempotent and quick when already done.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  echo "setup: installing pnpm $PNPM_VERSION"
  npm install --global "pnpm@$PNPM_VERSION" >/dev/null 2>&1 ||
    { corepack enable pnpm && corepack prepare "pnpm@$PNPM_VERSION" --activate; }
fi

# A warm pnpm store makes this a few seconds; a cold one builds better-sqlite3 (~75 s).
pnpm install --frozen-lockfile --reporter=append-only
