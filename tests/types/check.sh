#!/usr/bin/env bash
# The typed example under `tsc --strict`, against the package as a user gets it: packs pkg/ (or
# $1) and pkg-bulk/ (or $2), installs the tarballs into a throwaway ESM project, and compiles
# tests/types/example.ts (lpm-client) with --strict --noEmit (nodenext, es2022 + dom) without
# skipLibCheck, so the package's own .d.ts files are checked too; then exact-optional.ts
# (lpm-client) and bulk.ts (lpm-client-bulk) with exactOptionalPropertyTypes as well. Their
# `@ts-expect-error` lines prove that wrong inputs do not compile (an unused one is an error).
# Then the API reference (scripts/api-docs.sh --check: docs/api/ current, every public symbol
# documented, no Rust internals in the docs). Exits non-zero on any error. Needs both packages built (scripts/build-pkg.sh, LPM_FLAVOUR=bulk)
# and the root devDependencies (typescript, @types/node): no network beyond the npm registry.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pkg=$(cd "${1:-$root/pkg}" && pwd)
pkg_bulk=$(cd "${2:-$root/pkg-bulk}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -f "$pkg/package.json" ] || { echo "no package in $pkg: run scripts/build-pkg.sh first" >&2; exit 1; }
[ -f "$pkg_bulk/package.json" ] || { echo "no package in $pkg_bulk: run LPM_FLAVOUR=bulk scripts/build-pkg.sh first" >&2; exit 1; }
[ -x "$root/node_modules/.bin/tsc" ] || { echo "typescript missing: npm ci at the repo root" >&2; exit 1; }

tarball=$(cd "$pkg" && npm pack --silent --pack-destination "$tmp" | tail -n 1)
tarball_bulk=$(cd "$pkg_bulk" && npm pack --silent --pack-destination "$tmp" | tail -n 1)

proj="$tmp/project"
mkdir -p "$proj/node_modules/@types"
cat > "$proj/package.json" <<EOF
{
  "name": "lpm-client-types-check",
  "private": true,
  "type": "module",
  "dependencies": { "lpm-client": "file:../$tarball", "lpm-client-bulk": "file:../$tarball_bulk" }
}
EOF
# The tarballs have no dependencies, so this installs offline; it unpacks them (not links to pkg/).
(cd "$proj" && npm install --silent --offline --no-audit --no-fund --no-package-lock)
# The compiler and Node's types from the repo's root devDependencies.
ln -s "$root/node_modules/typescript" "$proj/node_modules/typescript"
ln -s "$root/node_modules/@types/node" "$proj/node_modules/@types/node"

cp "$root/tests/types/example.ts" "$proj/example.ts"
cat > "$proj/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "strict": true,
    "noEmit": true,
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "target": "es2022",
    "lib": ["es2022", "dom"],
    "types": ["node"],
    "skipLibCheck": false,
    "exactOptionalPropertyTypes": false,
    "noUncheckedIndexedAccess": true,
    "noImplicitOverride": true,
    "noFallthroughCasesInSwitch": true,
    "forceConsistentCasingInFileNames": true
  },
  "files": ["example.ts"]
}
EOF

cd "$proj"
echo "tsc $(node_modules/typescript/bin/tsc --version | sed 's/Version //') --strict --noEmit: example.ts against $tarball"
node_modules/typescript/bin/tsc -p tsconfig.json --pretty false
echo "types: ok ($(grep -Ec '^\s*// @ts-expect-error' example.ts) @ts-expect-error lines, all used)"

# The same package under exactOptionalPropertyTypes: optional options take `undefined`.
cp "$root/tests/types/exact-optional.ts" "$proj/exact-optional.ts"
sed -e 's/"exactOptionalPropertyTypes": false/"exactOptionalPropertyTypes": true/' \
  -e 's/"files": \["example.ts"\]/"files": ["exact-optional.ts"]/' tsconfig.json > tsconfig.exact.json
node_modules/typescript/bin/tsc -p tsconfig.exact.json --pretty false
echo "types: ok under exactOptionalPropertyTypes (exact-optional.ts)"

# lpm-client-bulk: its bulk jobs, their options and abort errors, under the same flags.
cp "$root/tests/types/bulk.ts" "$proj/bulk.ts"
sed -e 's/"exact-optional.ts"/"bulk.ts"/' tsconfig.exact.json > tsconfig.bulk.json
node_modules/typescript/bin/tsc -p tsconfig.bulk.json --pretty false
echo "types: ok for lpm-client-bulk ($(grep -Ec '^\s*// @ts-expect-error' bulk.ts) @ts-expect-error lines, all used; bulk.ts)"

# The API reference: docs/api/ current, every public symbol documented, no Rust internals.
bash "$root/scripts/api-docs.sh" --check
