#!/usr/bin/env bash
# Provision a local PostgreSQL 15 + pgvector for the @memory/postgres tests.
#
# Idempotent: every step checks first and is skipped when already done, so a
# re-run on a ready machine takes well under 2 seconds and changes nothing.
#
#   1. install postgresql-15 (Debian) if missing; ensure cluster "15 main"
#      (a cluster created here gets trust auth on 127.0.0.1 / ::1)
#   2. start the cluster if it is down; wait for pg_isready (bounded)
#   3. if the "vector" extension is not available, build pgvector from
#      Debian's own trixie source package (private apt config, the system's
#      apt sources are never touched) against postgresql-server-dev-15
#   4. create the test databases if missing and CREATE EXTENSION vector
#      in each (tests create per-file schemas inside memory_test)
#   5. print the connection URL and pgvector version
#
# See docs/postgres-setup.md. Environment overrides (all optional):
#   PG_READY_TIMEOUT  seconds to wait for pg_isready           (default 30)
#   PGVECTOR_SUITE    Debian suite to take the source from      (default trixie)
#   PGVECTOR_MIRROR   Debian mirror                 (default http://deb.debian.org/debian)
#   PGVECTOR_CACHE    download/build dir          (default /var/cache/memory-pgvector)
#   PG_SETUP_LOG      log of apt/make output (default ${TMPDIR:-/tmp}/memory-setup-postgres.log)
set -euo pipefail

readonly PG_VERSION=15
readonly PG_CLUSTER=main
readonly PG_HOST=127.0.0.1
readonly PG_PORT=5432
readonly PG_SUPERUSER=postgres
readonly TEST_DB=memory_test
# Databases that get the extension. Tests only use $TEST_DB (one schema per
# test file), so template1 is deliberately left alone.
readonly DATABASES=("$TEST_DB" test)
readonly PG_BINDIR=/usr/lib/postgresql/$PG_VERSION/bin
readonly PG_CONFIG=$PG_BINDIR/pg_config
readonly READY_TIMEOUT=${PG_READY_TIMEOUT:-30}
readonly PGVECTOR_SUITE=${PGVECTOR_SUITE:-trixie}
readonly PGVECTOR_MIRROR=${PGVECTOR_MIRROR:-http://deb.debian.org/debian}
readonly PGVECTOR_CACHE=${PGVECTOR_CACHE:-/var/cache/memory-pgvector}
readonly DEBIAN_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
readonly LOG=${PG_SETUP_LOG:-${TMPDIR:-/tmp}/memory-setup-postgres.log}

export PGCONNECT_TIMEOUT=5
export LC_ALL=C

readonly SETUP_NAME=setup-postgres
# shellcheck source=scripts/setup-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup-common.sh"

psql_su() { # psql_su DB [psql args...] -- unaligned, tuples only, no prompts
  local db=$1
  shift
  "$PG_BINDIR/psql" -X -q -A -t -w -v ON_ERROR_STOP=1 \
    -h "$PG_HOST" -p "$PG_PORT" -U "$PG_SUPERUSER" -d "$db" "$@"
}

# ---------------------------------------------------------------- apt helpers
APT_UPDATED=0
apt_update_once() {
  ((APT_UPDATED)) && return 0
  run_logged as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
  APT_UPDATED=1
}

# Install the given Debian packages (from the system's normal, bookworm,
# sources) if any is missing; refresh the package lists once if needed.
apt_install() {
  local p missing=()
  for p in "$@"; do is_installed "$p" || missing+=("$p"); done
  ((${#missing[@]})) || return 0
  local cmd=(as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q
    --no-install-recommends -o Dpkg::Use-Pty=0 "${missing[@]}")
  printf '\n$ %s\n' "${cmd[*]}" >>"$LOG"
  if ((APT_UPDATED)) || ! "${cmd[@]}" >>"$LOG" 2>&1; then
    # Lists missing or stale (fresh CI image): refresh once and retry.
    apt_update_once
    run_logged "${cmd[@]}"
  fi
}

# ------------------------------------------------------------------- cluster
cluster_line() { # "ver cluster port status owner datadir logfile", or nothing
  command -v pg_lsclusters >/dev/null 2>&1 || return 0
  { pg_lsclusters -h 2>/dev/null || true; } | awk -v v="$PG_VERSION" -v c="$PG_CLUSTER" '$1 == v && $2 == c'
}

ensure_trust_auth() {
  local hba=/etc/postgresql/$PG_VERSION/$PG_CLUSTER/pg_hba.conf
  [[ -f $hba ]] || die "$hba not found"
  if grep -Eq '^[[:space:]]*host[[:space:]]+all[[:space:]]+all[[:space:]]+127\.0\.0\.1/32[[:space:]]+trust' "$hba"; then
    return 0
  fi
  # First matching line wins in pg_hba.conf: put the trust rules on top.
  as_root sed -i '1i # added by scripts/setup-postgres.sh (local testing only)\nhost    all             all             127.0.0.1/32            trust\nhost    all             all             ::1/128                 trust' "$hba"
  log "      pg_hba.conf: trust auth for 127.0.0.1 and ::1 ($hba)"
  return 1 # tells the caller a reload is needed if the cluster runs
}

step_install() {
  local fresh=0 line
  if command -v pg_lsclusters >/dev/null 2>&1 && [[ -x $PG_BINDIR/postgres ]]; then
    log "[1/5] postgresql-$PG_VERSION: already installed - skipped"
  else
    log "[1/5] postgresql-$PG_VERSION: not installed - installing from Debian (log: $LOG)"
    apt_install "postgresql-$PG_VERSION"
    fresh=1
  fi
  line=$(cluster_line)
  if [[ -z $line ]]; then
    log "      cluster $PG_VERSION/$PG_CLUSTER: missing - creating on port $PG_PORT"
    run_logged as_root pg_createcluster -p "$PG_PORT" "$PG_VERSION" "$PG_CLUSTER"
    fresh=1
    line=$(cluster_line)
    [[ -n $line ]] || die "cluster $PG_VERSION/$PG_CLUSTER still missing after pg_createcluster"
  fi
  # Only clusters created by this script are switched to trust auth; an
  # existing cluster that demands a password is reported in step 2 instead.
  if ((fresh)) && ! ensure_trust_auth; then
    if [[ $(awk '{print $4}' <<<"$line") == online ]]; then
      run_logged as_root pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" "$PG_CLUSTER" reload
    fi
  fi
}

step_start() {
  local line port status
  line=$(cluster_line)
  port=$(awk '{print $3}' <<<"$line")
  status=$(awk '{print $4}' <<<"$line")
  [[ $port == "$PG_PORT" ]] ||
    die "cluster $PG_VERSION/$PG_CLUSTER is configured for port $port, expected $PG_PORT"
  if [[ $status == online ]]; then
    log "[2/5] cluster $PG_VERSION/$PG_CLUSTER: online - skipped"
  else
    log "[2/5] cluster $PG_VERSION/$PG_CLUSTER: $status - starting"
    run_logged as_root pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" "$PG_CLUSTER" start
  fi
  local deadline=$((SECONDS + READY_TIMEOUT))
  until "$PG_BINDIR/pg_isready" -q -h "$PG_HOST" -p "$PG_PORT"; do
    if ((SECONDS >= deadline)); then
      local logfile
      logfile=$(awk '{print $7}' <<<"$line")
      [[ -n $logfile && -r $logfile ]] && tail -n 20 "$logfile" >&2
      die "PostgreSQL not accepting connections on $PG_HOST:$PG_PORT after ${READY_TIMEOUT}s (pg_isready)"
    fi
    sleep 0.2
  done
  local err
  if ! err=$(psql_su postgres -c 'SELECT 1' 2>&1 >/dev/null); then
    die "cannot connect as $PG_SUPERUSER to $PG_HOST:$PG_PORT without a password: $err
  (add 'host all all 127.0.0.1/32 trust' at the top of /etc/postgresql/$PG_VERSION/$PG_CLUSTER/pg_hba.conf and reload)"
  fi
}

# ------------------------------------------------------------------ pgvector
vector_available() {
  [[ $(psql_su postgres -c "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'") == 1 ]]
}

# Fetch Debian's pgvector source package from $PGVECTOR_SUITE with a private
# apt configuration (own sources list, lists and cache dirs in a temp dir), so
# the system's apt sources and package lists are left exactly as they were.
fetch_pgvector_source() {
  local srcroot=$1 apt_dir
  apt_dir=$(mktemp -d "${TMPDIR:-/tmp}/memory-pgvector-apt.XXXXXX")
  # shellcheck disable=SC2064 # expand now: apt_dir is local
  trap "rm -rf '$apt_dir'" EXIT
  mkdir -p "$apt_dir"/{sources.list.d,lists/partial,cache/archives/partial,preferences.d}
  local signed_by=""
  [[ -r $DEBIAN_KEYRING ]] && signed_by="[signed-by=$DEBIAN_KEYRING] "
  printf 'deb-src %s%s %s main\n' "$signed_by" "$PGVECTOR_MIRROR" "$PGVECTOR_SUITE" >"$apt_dir/sources.list"
  local apt_priv=(
    -o "Dir::Etc::SourceList=$apt_dir/sources.list"
    -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
    -o "Dir::Etc::PreferencesParts=$apt_dir/preferences.d"
    -o "Dir::State::Lists=$apt_dir/lists"
    -o "Dir::Cache=$apt_dir/cache"
    -o "APT::Sandbox::User=root"
    -o "Acquire::Languages=none"
  )
  run_logged apt-get "${apt_priv[@]}" update -q
  mkdir -p "$srcroot"
  (cd "$srcroot" && run_logged apt-get "${apt_priv[@]}" source -q pgvector)
  rm -rf "$apt_dir"
  trap - EXIT
}

find_source_dir() { # newest extracted pgvector-* tree under $1, or nothing
  [[ -d $1 ]] || return 0
  find "$1" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | sort -V | tail -n 1
}

step_pgvector() {
  if vector_available; then
    log "[3/5] pgvector: extension 'vector' available - skipped"
    return 0
  fi
  log "[3/5] pgvector: not available - building Debian's $PGVECTOR_SUITE source package (log: $LOG)"
  ((EUID == 0)) || die "building pgvector needs root (make install into $($PG_CONFIG --sharedir 2>/dev/null || echo /usr/share/postgresql/$PG_VERSION))"

  local build_pkgs=("postgresql-server-dev-$PG_VERSION" dpkg-dev)
  command -v make >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1 || build_pkgs+=(build-essential)
  apt_install "${build_pkgs[@]}"
  [[ -x $PG_CONFIG ]] || die "$PG_CONFIG missing after installing postgresql-server-dev-$PG_VERSION"

  local srcroot=$PGVECTOR_CACHE/src srcdir
  srcdir=$(find_source_dir "$srcroot")
  if [[ -n $srcdir && -f $srcdir/Makefile ]]; then
    log "      using cached source $srcdir"
  else
    rm -rf "$srcroot"
    fetch_pgvector_source "$srcroot"
    srcdir=$(find_source_dir "$srcroot")
    [[ -n $srcdir && -f $srcdir/Makefile ]] || die "apt-get source pgvector produced no source tree in $srcroot"
    log "      fetched $(basename "$srcdir") from $PGVECTOR_SUITE"
  fi

  # Debian's "no-native" patch already drops upstream's -march=native;
  # OPTFLAGS= keeps it portable even with a source tree lacking that patch.
  local make_args=(-C "$srcdir" "PG_CONFIG=$PG_CONFIG" OPTFLAGS=)
  run_logged make "${make_args[@]}" clean
  run_logged make "${make_args[@]}" -j"$(nproc 2>/dev/null || echo 2)"
  run_logged make "${make_args[@]}" install
  vector_available || die "pgvector installed but 'vector' still not in pg_available_extensions"
  log "      installed pgvector $(psql_su postgres -c "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'") into $($PG_CONFIG --pkglibdir)"
}

# ----------------------------------------------------------------- databases
step_databases() {
  local db existing created=() changed=() row have want
  existing=$(psql_su postgres -c "SELECT datname FROM pg_database")
  for db in "${DATABASES[@]}"; do
    if ! grep -qxF "$db" <<<"$existing"; then
      psql_su postgres -c "CREATE DATABASE \"$db\"" >/dev/null
      created+=("$db")
    fi
    row=$(psql_su "$db" -F ' ' -c "SELECT coalesce((SELECT extversion FROM pg_extension WHERE extname = 'vector'), '-'),
                                          (SELECT default_version FROM pg_available_extensions WHERE name = 'vector')")
    read -r have want <<<"$row"
    if [[ $have == - ]]; then
      psql_su "$db" -c 'CREATE EXTENSION IF NOT EXISTS vector' >/dev/null
      changed+=("$db:created")
    elif [[ $have != "$want" ]]; then
      psql_su "$db" -c 'ALTER EXTENSION vector UPDATE' >/dev/null
      changed+=("$db:updated $have->$want")
    fi
  done
  if ((${#created[@]} + ${#changed[@]})); then
    log "[4/5] databases: ${created[*]:+created ${created[*]}; }extension vector ${changed[*]:-already present}"
  else
    log "[4/5] databases: ${DATABASES[*]} exist with extension vector - skipped"
  fi
}

main() {
  step_install
  step_start
  step_pgvector
  step_databases
  local version
  version=$(psql_su "$TEST_DB" -c "SELECT extversion FROM pg_extension WHERE extname = 'vector'")
  log "[5/5] done"
  echo "postgres ready: postgresql://$PG_SUPERUSER@$PG_HOST:$PG_PORT/$TEST_DB (pgvector $version)"
}

main "$@"
