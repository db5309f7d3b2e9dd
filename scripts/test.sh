#!/usr/bin/env bash
# `npm test`: the whole test suite on a fresh machine. Installs what is missing (pnpm, the
# workspace's dependencies, PostgreSQL + pgvector, Debian's chromium for the browser tests),
# builds, lints, type-checks and runs every package's tests. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

step() { printf '\n== %s\n' "$*"; }

step "install"
bash scripts/setup.sh
step "postgres + pgvector"
bash scripts/setup-postgres.sh
export MEMORY_TEST_POSTGRES_URL="${MEMORY_TEST_POSTGRES_URL:-postgresql://postgres@127.0.0.1:5432/memory_test}"
step "chromium (browser tests)"
bash scripts/setup-chromium.sh

step "build"
pnpm exec turbo run build --output-logs=errors-only
step "lint + format (biome)"
pnpm exec biome check .
step "typecheck"
pnpm exec turbo run typecheck --output-logs=errors-only
step "test"
# Two at a time: the machine has 2 cores and several suites start child processes. `--only`:
# every package was built above; without it turbo runs the tests' `^build` again (always, under
# TURBO_FORCE), and a dependency's tsdown empties its dist/ while that package's own tests spawn
# children from it.
pnpm exec turbo run test --concurrency=2 --only
