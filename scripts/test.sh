#!/usr/bin/env bash
# Runs every test: Rust (fmt, clippy, unit, integration, property, emulator over HTTP), the npm
# package built from scratch (node:test suite against the emulator, headless Chromium, the
# typed example under tsc --strict, publint and arethetypeswrong on the packed tarball), and
# prints the package size and the boundary benchmark. Installs what it needs first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

step() { printf '\n=== %s\n' "$*"; }

step setup
bash scripts/setup.sh --browser --deny

step "commit subjects (at most 72 characters)"
bash scripts/check-commits.sh

step "rust: fmt, clippy (native and wasm32)"
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p lpm-client-wasm --target wasm32-unknown-unknown -- -D warnings
cargo clippy -p lpm-client-wasm --target wasm32-unknown-unknown --features bulk -- -D warnings
cargo clippy -p lpm-client-wasm --target wasm32-unknown-unknown --features bulk,bench-exports -- -D warnings

step "rust: licenses, duplicate versions, sources (deny.toml; advisories need GitHub: not here)"
cargo deny --workspace check licenses bans sources

step "rust: docs build without a warning"
RUSTDOCFLAGS="-D warnings" cargo doc --quiet --no-deps -p lpm-client -p lpm-derive -p lpm-emulator

step "rust: tests (core, emulator over HTTP)"
cargo test --workspace

step "fuzz: each target briefly, the same inputs every run (scripts/fuzz.sh SECONDS runs them long)"
CARGO_BUILD_JOBS=2 FUZZ_RUNS=40000 bash scripts/fuzz.sh

step "package: build"
bash scripts/build-pkg.sh
LPM_FLAVOUR=bulk bash scripts/build-pkg.sh
cargo build -p lpm-emulator

step "package: node:test suite against the emulator"
node --test --test-concurrency=2 tests/js/

step "package: lpm-client-bulk (importUsers, grantCourses, journals) against the emulator"
node --test tests/js-bulk/
bash tests/pack/check.sh pkg-bulk
bash tests/frameworks/check.sh pkg-bulk

step "lpm-sheets: the reader's cases and the corpus subset against LibreOffice's text"
node --test tests/sheets/

step "cli: the lpm command line against the emulator (sheets, exports, 1,000 rows, 24 SIGKILL points)"
bash cli/test.sh

for extra in tests/types/check.sh tests/pack/check.sh tests/browser/check.sh tests/runtimes/check.sh tests/frameworks/check.sh examples/typescript/check.sh tests/www/check.sh; do
  if [ -f "$extra" ]; then
    step "package: $extra"
    bash "$extra"
  fi
done

step "benchmarks (figures only; peers fails only if the clients disagree on what they accept)"
bash bench/run.sh
bash bench/peers/run.sh
node sheets/bench.mjs 3   # lpm-sheets: read time and peak RSS of 10,000 rows, .xlsx and CSV
node sheets/corpus.mjs    # lpm-sheets: agreement with LibreOffice on the corpus subset

step "all tests passed"
