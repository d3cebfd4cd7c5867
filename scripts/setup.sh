#!/usr/bin/env bash
# Installs what building and testing need, idempotently: the toolchain rust-toolchain.toml pins
# (with rustfmt, clippy and the wasm32 target), wasm-bindgen-cli at exactly the version in
# Cargo.lock, the npm tooling (package-lock.json); with --browser Debian's chromium +
# chromium-driver; with --deny cargo-deny (the test command passes both). Safe to run again:
# each step is skipped when done.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

want_browser=false
want_deny=false
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=true ;;
    --deny) want_deny=true ;;
    *) echo "usage: $0 [--browser] [--deny]" >&2; exit 2 ;;
  esac
done

# The toolchain rust-toolchain.toml pins, with the file's components and target: installed when
# missing (also where RUSTUP_AUTO_INSTALL=0); a toolchain already there may lack a piece, so each
# is checked and added (no network when all is present).
if ! rustc --version >/dev/null 2>&1; then
  rustup toolchain install # no argument (rustup 1.28+): the toolchain the file names
fi
installed=$(rustup component list --installed)
for component in rustfmt clippy; do
  grep -q "^$component-" <<<"$installed" || rustup component add "$component"
done
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi

# The pinned nightly the release wasm is built with (scripts/toolchain.sh), with std's sources for
# build-std and the wasm32 target.
source "$root/scripts/toolchain.sh"
if ! rustup run "$LPM_NIGHTLY" rustc --version >/dev/null 2>&1 ||
  ! rustup component list --toolchain "$LPM_NIGHTLY" --installed | grep -q '^rust-src'; then
  rustup toolchain install "$LPM_NIGHTLY" --profile minimal --component rust-src --target wasm32-unknown-unknown
fi

# cargo-deny, for the test command's license, duplicate-version and source checks (deny.toml).
# Built once from crates.io (about 5 minutes on 2 cores); skipped when this version is there.
deny_version=0.20.2
if $want_deny && [ "$(cargo deny --version 2>/dev/null | awk '{print $2}')" != "$deny_version" ]; then
  cargo install --locked cargo-deny --version "$deny_version"
fi

# The CLI must match the wasm-bindgen library in Cargo.lock exactly.
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wb_version" ]; then
  # Not --locked: the CLI's own lock file wants a webpki-roots the registry mirror lacks.
  cargo install wasm-bindgen-cli --version "$wb_version" --no-default-features
fi

if [ ! -x node_modules/.bin/wasm-opt ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

if $want_browser && ! command -v chromium >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi
