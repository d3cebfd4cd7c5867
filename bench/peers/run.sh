#!/usr/bin/env bash
# lpm-client versus the same client written by hand with zod and with valibot: size, speed through
# a fetch stub, loopback to the emulator, cold start, and agreement (see run.mjs). Installs this
# folder's pinned devDependencies (zod, valibot, esbuild) with npm ci when needed, builds pkg/ when
# missing and the release emulator, then prints one table and writes target/bench-peers.json. Never fails
# on speed or size; exits 1 only when the clients disagree on what they accept.
# Env knobs: BENCH_ROUNDS, BENCH_BATCH_MS, BENCH_LOOPBACK_ROUNDS, BENCH_COLD_RUNS, LPM_EMULATOR_BIN.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ ! -d "$here/node_modules/valibot" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  (cd "$here" && npm ci --no-audit --no-fund >/dev/null)
fi
if [ ! -f "$root/pkg/node.js" ] || [ ! -f "$root/pkg/index.js" ] || [ ! -f "$root/pkg/wasm/lpm_client_bg.wasm" ]; then
  bash "$root/scripts/build-pkg.sh" >/dev/null
fi
# The loopback figures need a release emulator: a debug build's own time (~2x) dilutes the ratio
# toward 1. A no-op when it is up to date; LPM_EMULATOR_BIN=target/debug/lpm-emulator skips it.
if [ -z "${LPM_EMULATOR_BIN:-}" ]; then
  (cd "$root" && cargo build --quiet --release -p lpm-emulator)
fi
node --expose-gc "$here/run.mjs" "$root/pkg"
