#!/usr/bin/env bash
# The npm README's TypeScript examples (a Node script, a React form, a bulk import with Ctrl-C
# and resume, a Cloudflare Worker), type-checked with tsc --strict --exactOptionalPropertyTypes
# and each run against the emulator (check.mjs). Installs the examples' dependencies from the
# npm registry (package-lock.json pins them; skipped when installed); workerd comes from
# tests/runtimes' install (installed here too when missing). Needs both packages built
# (scripts/build-pkg.sh, LPM_FLAVOUR=bulk), target/debug/lpm-emulator, the root devDependencies
# (esbuild, playwright-core) and /usr/bin/chromium (scripts/setup.sh --browser).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/examples/typescript"
for p in pkg pkg-bulk; do
  [ -f "$root/$p/package.json" ] || { echo "no package in $root/$p: run scripts/build-pkg.sh (LPM_FLAVOUR=bulk for pkg-bulk) first" >&2; exit 1; }
done
install() { # DIR: npm ci there when its node_modules is missing or older than its lock file
  if [ ! -f "$1/node_modules/.package-lock.json" ] || [ "$1/package-lock.json" -nt "$1/node_modules/.package-lock.json" ]; then
    echo "installing $(basename "$1")'s dependencies ($1/package-lock.json)"
    (cd "$1" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
  fi
}
install "$here"
install "$root/tests/runtimes"
node "$here/check.mjs"
