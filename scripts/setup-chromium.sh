#!/usr/bin/env bash
# Provision Debian's chromium for the server's browser tests (apps/server/test/ui-e2e.test.ts).
#
# The tests drive /usr/bin/chromium with playwright-core, which never downloads a browser; this
# script is the only place the browser comes from. Idempotent: when chromium is already
# installed it only checks that it starts (well under 2 seconds) and changes nothing.
#
#   1. install Debian's "chromium" package if missing (apt-get update only when apt cannot
#      find it: a fresh image without package lists)
#   2. check that /usr/bin/chromium runs headless and print its version
#
# Environment overrides (all optional):
#   CHROMIUM_SETUP_LOG  log of apt output (default ${TMPDIR:-/tmp}/memory-setup-chromium.log)
set -euo pipefail

readonly PACKAGE=chromium
readonly BINARY=/usr/bin/chromium
readonly LOG=${CHROMIUM_SETUP_LOG:-${TMPDIR:-/tmp}/memory-setup-chromium.log}

export LC_ALL=C

readonly SETUP_NAME=setup-chromium
# shellcheck source=scripts/setup-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup-common.sh"

# apt knows a candidate version for the package (package lists present and current enough).
has_candidate() {
  local candidate
  candidate=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}')
  [[ -n $candidate && $candidate != "(none)" ]]
}

step_install() {
  if is_installed "$PACKAGE" && [[ -x $BINARY ]]; then
    log "[1/2] $PACKAGE: already installed - skipped"
    return 0
  fi
  log "[1/2] $PACKAGE: not installed - installing from Debian (log: $LOG)"
  local started=$SECONDS
  if ! has_candidate "$PACKAGE"; then
    log "      apt has no candidate for $PACKAGE - refreshing package lists"
    run_logged as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
    has_candidate "$PACKAGE" || die "apt cannot find package $PACKAGE even after apt-get update"
  fi
  local cmd=(as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q
    --no-install-recommends -o Dpkg::Use-Pty=0 "$PACKAGE")
  printf '\n$ %s\n' "${cmd[*]}" >>"$LOG"
  if ! "${cmd[@]}" >>"$LOG" 2>&1; then
    # Stale lists (the mirror dropped the version apt knows about): refresh once and retry.
    log "      install failed - refreshing package lists and retrying"
    run_logged as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
    run_logged "${cmd[@]}"
  fi
  [[ -x $BINARY ]] || die "$BINARY missing after installing $PACKAGE"
  log "      installed in $((SECONDS - started))s"
}

step_check() {
  local version
  # Same flags as the tests: no sandbox (root in containers), no network side traffic. The
  # launcher's own stderr (Debian's /etc/chromium.d/dev-shm check can print a harmless shell
  # warning) goes to the log; only the version line is shown.
  printf '\n$ %s --version\n' "$BINARY" >>"$LOG"
  if ! version=$("$BINARY" --headless --no-sandbox --disable-background-networking \
    --disable-component-update --version 2>>"$LOG"); then
    tail -n 20 "$LOG" >&2
    die "$BINARY does not start (log: $LOG)"
  fi
  log "[2/2] $version"
}

main() {
  step_install
  step_check
  echo "chromium ready: $BINARY"
}

main "$@"
