#!/usr/bin/env bash
# lpm-client versus a hand-written zod client: speed, bundle size, same results (see run.mjs).
# Installs this folder's devDependencies (zod, esbuild) when node_modules is absent, builds pkg/
# when it is missing, then prints figures. Never fails on speed or size; exits 1 only when the two
# clients disagree on what they accept. BENCH_ROUNDS / BENCH_BATCH_MS tune the run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ ! -d "$here/node_modules" ]; then
  (cd "$here" && npm ci --no-audit --no-fund >/dev/null)
fi
if [ ! -f "$root/pkg/node.js" ] || [ ! -f "$root/pkg/index.js" ] || [ ! -f "$root/pkg/wasm/lpm_client_bg.wasm" ]; then
  bash "$root/scripts/build-pkg.sh" >/dev/null
fi
node --expose-gc "$here/run.mjs" "$root/pkg"
