#!/usr/bin/env bash
# Boundary benchmark: builds a bench variant of the package (crate feature `bench-exports`) into a
# temp dir, leaving pkg/ alone, and runs bench/boundary.mjs on it. Prints figures; never fails on
# speed. BENCH_ROUNDS / BENCH_BATCH_MS tune the run (see boundary.mjs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

LPM_FEATURES=bench-exports bash "$root/scripts/build-pkg.sh" "$tmp/pkg" >/dev/null
node --expose-gc "$root/bench/boundary.mjs" "$tmp/pkg"
