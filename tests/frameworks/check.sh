#!/usr/bin/env bash
# The package in the frameworks and bundlers web apps are built with, as a front-end team meets
# it: packs pkg/ (or $1, e.g. pkg-bulk), installs the tarball into a throwaway project, and runs
# tests/frameworks/check.mjs: an app that validates a bad account in Vietnamese and lists five
# courses from the emulator, built for production by webpack 5, Parcel 2, Rollup 4 (with the
# plugin the README names), Vite (browser build; SSR, the package external and with
# `ssr.noExternal: true`), esbuild, a plain import map, and Next.js 15's App Router (a client
# component pre-rendered in Node, Node and Edge route handlers; webpack and Turbopack, served by
# `next start`), each page checked in headless Chromium. One line per tool with its time, then
# "N passed, N failed". The whole matrix takes about 2 minutes here, Next.js most of it, so no
# flag holds it back; LPM_FRAMEWORKS=next,vite (prefixes of the tools' names) runs only those.
# Installs the tools from the npm registry into tests/frameworks/node_modules (package-lock.json
# pins them; skipped when already installed). Needs the package built (scripts/build-pkg.sh),
# target/debug/lpm-emulator (cargo build -p lpm-emulator), the root devDependencies
# (playwright-core) and /usr/bin/chromium (scripts/setup.sh --browser).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/tests/frameworks"
pkg=$(cd "${1:-$root/pkg}" && pwd)
[ -f "$pkg/package.json" ] || { echo "no package in $pkg: run scripts/build-pkg.sh first" >&2; exit 1; }

# Install scripts are not needed: the native parts (Next's SWC, Parcel's, Rollup's, esbuild's)
# come as platform packages.
if [ ! -f "$here/node_modules/.package-lock.json" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  echo "installing the frameworks (tests/frameworks/package-lock.json)"
  (cd "$here" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
fi

# shellcheck source=../pack/install-tarball.sh
source "$root/tests/pack/install-tarball.sh"
tmp=$(mktemp -d)
# The project sits under tests/frameworks/ so that the apps resolve the tools (react, next) from
# its node_modules; the package from the project's own.
proj=$(mktemp -d "$here/.work-XXXXXX")
trap 'rm -rf "$tmp" "$proj"' EXIT
tarball=$(cd "$pkg" && npm pack --silent --pack-destination "$tmp" | tail -n 1)
rmdir "$proj"
# Under its own name (lpm-client-bulk too), as a user installs and imports it.
install_tarball "$tmp/$tarball" "$proj" "$(node -p 'require(process.argv[1]).name' "$pkg/package.json")"
node "$here/check.mjs" "$proj"
