#!/usr/bin/env bash
# The command line's tests (node:test in cli/test/) against the emulator. Needs lpm-client-bulk
# built into pkg-bulk/ (LPM_FLAVOUR=bulk bash scripts/build-pkg.sh); builds the emulator if it is
# missing, and installs the CLI's npm dependencies from its lock file when they are missing.
set -euo pipefail
cli=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$cli/.." && pwd)
cd "$cli"
[ -d node_modules/csv-parse ] && [ -e node_modules/lpm-client-bulk ] && [ -e node_modules/lpm-sheets ] || npm ci --no-audit --no-fund --loglevel=error
[ -x "${LPM_EMULATOR_BIN:-$root/target/debug/lpm-emulator}" ] || (cd "$root" && cargo build --quiet -p lpm-emulator)
node --test --test-concurrency=1 test/
