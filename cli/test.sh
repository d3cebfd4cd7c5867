#!/usr/bin/env bash
# The command line's tests (node:test in cli/test/) against the emulator. Needs the package built
# into pkg/ (scripts/build-pkg.sh) and the emulator (cargo build -p lpm-emulator); installs the
# CLI's npm dependencies from its lock file when they are missing.
set -euo pipefail
cli=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$cli/.." && pwd)
cd "$cli"
[ -d node_modules/csv-parse ] && [ -e node_modules/lpm-client ] || npm ci --no-audit --no-fund --loglevel=error
[ -x "${LPM_EMULATOR_BIN:-$root/target/debug/lpm-emulator}" ] || (cd "$root" && cargo build --quiet -p lpm-emulator)
node --test --test-concurrency=1 test/
