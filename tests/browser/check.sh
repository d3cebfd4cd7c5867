#!/usr/bin/env bash
# Headless Chromium smoke test of the built package against the emulator (see run.mjs).
# Needs pkg/ (scripts/build-pkg.sh) and target/debug/lpm-emulator (cargo build -p lpm-emulator).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
node tests/browser/run.mjs
