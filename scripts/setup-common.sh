# Helpers shared by the provisioning scripts (sourced, not run). The sourcing script sets
# SETUP_NAME (the prefix of every message) and LOG (where noisy command output goes) first.

log() { printf '%s: %s\n' "$SETUP_NAME" "$*"; }
die() {
  printf '%s: ERROR: %s\n' "$SETUP_NAME" "$*" >&2
  exit 1
}

as_root() {
  if ((EUID == 0)); then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "root privileges needed for: $*"
  fi
}

# Run a noisy command with its output going to $LOG; show the tail on failure.
run_logged() {
  printf '\n$ %s\n' "$*" >>"$LOG"
  if ! "$@" >>"$LOG" 2>&1; then
    printf '%s: ERROR: command failed: %s\n--- last lines of %s ---\n' "$SETUP_NAME" "$*" "$LOG" >&2
    tail -n 40 "$LOG" >&2
    exit 1
  fi
}

# True when the Debian package is installed.
is_installed() {
  [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == "install ok installed" ]]
}
