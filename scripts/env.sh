# Environment shared by the project's scripts (sourced, not run).
# node-gyp must build native addons (better-sqlite3) against the local Node headers: the
# headers download from nodejs.org is not reachable on offline machines.
if [ -z "${npm_config_nodedir:-}" ] && [ -d /usr/include/node ]; then export npm_config_nodedir=/usr; fi
export TURBO_TELEMETRY_DISABLED=1
export COREPACK_INTEGRITY_KEYS=0 # the npm mirror has no corepack signatures
export ONNXRUNTIME_NODE_INSTALL=skip # its postinstall would fetch a CUDA add-on from nuget
PNPM_VERSION=10.34.9
