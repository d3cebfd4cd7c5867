#!/usr/bin/env bash
# The command line's type check (tsc over its JSDoc) and tests (node:test in cli/test/) against
# the emulator. Needs lpm-client-bulk built into pkg-bulk/ (LPM_FLAVOUR=bulk bash
# scripts/build-pkg.sh); builds the emulator if it is missing, and installs the CLI's npm
# dependencies from its lock file when they are missing.
set -euo pipefail
cli=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$cli/.." && pwd)
cd "$cli"
[ -d node_modules/csv-parse ] && [ -e node_modules/lpm-client-bulk ] && [ -e node_modules/lpm-sheets ] || npm ci --no-audit --no-fund --loglevel=error
[ -x "${LPM_EMULATOR_BIN:-$root/target/debug/lpm-emulator}" ] || (cd "$root" && cargo build --quiet -p lpm-emulator)
# The type check of the command line's JavaScript: each file's JSDoc under `// @ts-check`
# (cli/tsconfig.json), against the declarations of lpm-client-bulk and lpm-sheets.
tsc="$root/node_modules/.bin/tsc"
[ -x "$tsc" ] || { echo "typescript missing: npm ci at the repo root" >&2; exit 1; }
"$tsc" -p "$cli/tsconfig.json" --pretty false
node --test --test-concurrency=1 test/
