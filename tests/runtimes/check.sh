#!/usr/bin/env bash
# The package in every runtime it claims (README "Requirements"), as a user installs it: packs
# pkg/ (or $1), installs the tarball into a throwaway project, and runs tests/runtimes/check.mjs:
# Node at the oldest versions `engines` allows and the LTS (import and require), Deno, Bun,
# Cloudflare's workerd (the "workerd" entry), Vite (build and dev server) and esbuild in headless
# Chromium, and the oldest TypeScript the types support. One line each, then "N passed, N failed".
# Installs the runtimes and tools from the npm registry into tests/runtimes/node_modules
# (package-lock.json pins them; skipped when already installed). Needs the package built
# (scripts/build-pkg.sh), target/debug/lpm-emulator (cargo build -p lpm-emulator), the root
# devDependencies (playwright-core) and /usr/bin/chromium (scripts/setup.sh --browser).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/tests/runtimes"
pkg=$(cd "${1:-$root/pkg}" && pwd)
[ -f "$pkg/package.json" ] || { echo "no package in $pkg: run scripts/build-pkg.sh first" >&2; exit 1; }

# The platform packages carry the binaries (linux x64, as CI), so no install script is needed.
if [ ! -f "$here/node_modules/.package-lock.json" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  echo "installing the runtimes (tests/runtimes/package-lock.json)"
  (cd "$here" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
fi

# shellcheck source=../pack/install-tarball.sh
source "$root/tests/pack/install-tarball.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tarball=$(cd "$pkg" && npm pack --silent --pack-destination "$tmp" | tail -n 1)
proj="$tmp/project"
install_tarball "$tmp/$tarball" "$proj"
node "$here/check.mjs" "$proj"
