#!/usr/bin/env bash
# The package as published: packs pkg/ (or $1) with npm, then
#   - publint --strict on the tarball: fails on errors and warnings, prints suggestions;
#   - @arethetypeswrong/cli on the tarball, profile esm-only (see below);
#   - the tarball's contents (inspect.mjs): zero runtime dependencies, the wasm, every file the
#     exports map / main / types / sideEffects point to, every relative import of shipped code;
#   - installs the tarball into a throwaway ESM project and loads it: `import('lpm-client')` (the
#     "node" condition, sync instantiation; also `require()` where Node supports require(esm),
#     which fails on a top-level await) and the "default" entry (fetch-based instantiation, as in
#     a browser), and checks both entries export the same names;
#   - prints the tarball size.
# Needs the package built (scripts/build-pkg.sh) and the root devDependencies; no network.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/tests/pack"
pkg=$(cd "${1:-$root/pkg}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin="$root/node_modules/.bin"
# shellcheck source=install-tarball.sh
source "$here/install-tarball.sh"

[ -f "$pkg/package.json" ] || { echo "no package in $pkg: run scripts/build-pkg.sh first" >&2; exit 1; }
[ -x "$bin/publint" ] && [ -x "$bin/attw" ] || { echo "publint/attw missing: npm ci at the repo root" >&2; exit 1; }

tarball=$(cd "$pkg" && npm pack --silent --pack-destination "$tmp" | tail -n 1)
tgz="$tmp/$tarball"
echo "packed $tarball"

echo
echo "--- publint (strict: warnings fail too; suggestions are printed)"
"$bin/publint" run --strict --level suggestion "$tgz"

echo
echo "--- arethetypeswrong (profile esm-only)"
# The package is ESM-only by design ("type": "module", no "require" condition). Node's own
# require(esm) loads it in every version `engines` allows (tests/runtimes), but TypeScript's
# node16-from-CJS resolution, like node10, still reports the expected `cjs-resolves-to-esm`; the
# esm-only profile skips those two, and every other rule still fails the check for the ESM and
# bundler resolutions.
"$bin/attw" --profile esm-only --no-color "$tgz"

echo
echo "--- contents"
mkdir "$tmp/unpacked"
tar -xzf "$tgz" -C "$tmp/unpacked"
node "$here/inspect.mjs" "$tmp/unpacked/package"

echo
echo "--- installed and loaded"
proj="$tmp/project"
install_tarball "$tgz" "$proj"
installed_deps=$(cd "$proj" && find node_modules -mindepth 1 -maxdepth 1 ! -name lpm-client ! -name '.*' | wc -l)
[ "$installed_deps" -eq 0 ] || { echo "installing the tarball pulled in other packages:" >&2; ls "$proj/node_modules" >&2; exit 1; }
cp "$here/entry.mjs" "$proj/"
(cd "$proj" && node -e "import('lpm-client').then((m) => { if (typeof m.Client !== 'function') process.exit(1); })")
echo "node -e \"import('lpm-client')\": ok"
node_names=$(cd "$proj" && node entry.mjs node | tail -n 1)
default_names=$(cd "$proj" && node entry.mjs default | tail -n 1)
echo "node entry exports:    $node_names"
if [ "$node_names" != "$default_names" ]; then
  echo "the entries export different names:" >&2
  echo "  default: $default_names" >&2
  exit 1
fi
echo "default entry exports the same names (and instantiates through fetch)"
if node -e 'process.exit(process.features.require_module ? 0 : 1)'; then
  require_names=$(cd "$proj" && node entry.mjs require 2>&1 | tail -n 1) || {
    echo "require('lpm-client') failed: the node entry does not load synchronously" >&2
    echo "$require_names" >&2
    exit 1
  }
  [ "$require_names" = "$node_names" ] || { echo "require('lpm-client') exports differ: $require_names" >&2; exit 1; }
  echo "require('lpm-client') works too (no top-level await: the node entry instantiates synchronously)"
else
  echo "require(esm) not available in Node $(node -v): synchronous-load check skipped"
fi

echo
node -e '
const fs = require("fs"), zlib = require("zlib");
const t = fs.statSync(process.argv[1]).size;
const wasm = fs.readFileSync(process.argv[2]);
const kb = (n) => (n / 1024).toFixed(1) + " KB";
console.log(`tarball: ${kb(t)} (${process.argv[3]}); wasm ${kb(wasm.length)} raw / ${kb(zlib.gzipSync(wasm, { level: 9 }).length)} gzip`);
' "$tgz" "$tmp/unpacked/package/wasm/lpm_client_bg.wasm" "$tarball"
echo "pack: ok"
