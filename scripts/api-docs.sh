#!/usr/bin/env bash
# The npm packages' API reference, docs/api/ (Markdown): TypeDoc and typedoc-plugin-markdown
# (pinned in scripts/api-docs/package-lock.json, installed there on first use) over the
# declarations the packages publish: lpm-client whole (pkg/index.d.ts) and what lpm-client-bulk
# adds (pkg-bulk/bulk.d.ts: the bulk jobs, their options and abort errors). Their doc comments
# come from pkg-templates/*.ts and, through tsify, from the Rust models.
#
# Decision: docs/api/ is committed, as docs/errors.md is: the npm README links it on GitHub,
# where Markdown reads without a build, and a change of the public API shows in review as a
# change of its reference. `--check` (the test command runs it from tests/types/check.sh)
# writes it to a temporary folder and fails when docs/api/ differs (run this script and commit
# the result), when a public symbol has no doc comment, a method of Client lacks @param,
# @returns, @throws or @example, or a doc names Rust internals (scripts/api-docs/check.mjs).
# Needs both packages built (scripts/build-pkg.sh, LPM_FLAVOUR=bulk).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
here="$root/scripts/api-docs"
mode=write
[ "${1:-}" = --check ] && mode=check
for p in pkg pkg-bulk; do
  [ -f "$root/$p/package.json" ] || { echo "no package in $root/$p: run scripts/build-pkg.sh (LPM_FLAVOUR=bulk for pkg-bulk) first" >&2; exit 1; }
done
if [ ! -f "$here/node_modules/.package-lock.json" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The published declarations, each package in a folder of its name (TypeDoc reads which package
# a symbol is of from the package.json beside it).
for p in pkg pkg-bulk; do
  name=$(node -p "require('$root/$p/package.json').name")
  mkdir -p "$tmp/$name/wasm"
  cp "$root/$p/"*.d.ts "$root/$p/package.json" "$tmp/$name/"
  cp "$root/$p/wasm/"*.d.ts "$tmp/$name/wasm/"
done
# lpm-client-bulk's module: its additions, under the package's name.
cat > "$tmp/lpm-client-bulk.d.ts" <<'EOF'
/**
 * What lpm-client-bulk adds to lpm-client (everything else is the same): the bulk jobs
 * `importUsers` and `grantCourses` of its `Client`, their options, and the abort errors that
 * carry each job's report.
 * @module lpm-client-bulk
 */
export * from './lpm-client-bulk/bulk.js';
EOF
cat > "$tmp/lpm-client.d.ts" <<'EOF'
/**
 * The typed client of the learning-platform management API: `Client`, its errors, validators,
 * interval stores, journals and the records' types.
 * @module lpm-client
 */
export * from './lpm-client/index.js';
EOF
cat > "$tmp/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "target": "es2022", "lib": ["es2022", "dom", "esnext.disposable"], "types": [],
    "module": "nodenext", "moduleResolution": "nodenext", "strict": true, "noEmit": true
  },
  "files": ["lpm-client.d.ts", "lpm-client-bulk.d.ts"]
}
EOF
cat > "$tmp/typedoc.json" <<EOF
{
  "name": "lpm-client API reference",
  "entryPoints": ["lpm-client.d.ts", "lpm-client-bulk.d.ts"],
  "tsconfig": "tsconfig.json",
  "plugin": ["$here/node_modules/typedoc-plugin-markdown/dist/index.js"],
  "readme": "none",
  "disableSources": true,
  "excludeExternals": true,
  "excludeInternal": true,
  "outputFileStrategy": "modules",
  "hidePageHeader": true,
  "useCodeBlocks": true,
  "parametersFormat": "table",
  "interfacePropertiesFormat": "table",
  "classPropertiesFormat": "table",
  "typeDeclarationFormat": "table",
  "validation": { "notExported": false, "invalidLink": true, "notDocumented": false },
  "treatWarningsAsErrors": true
}
EOF
(cd "$tmp" && "$here/node_modules/.bin/typedoc" --options typedoc.json --logLevel Warn --out "$tmp/api" --json "$tmp/api.json")
node "$here/check.mjs" "$tmp/api.json"

if [ "$mode" = check ]; then
  if ! diff -r "$tmp/api" "$root/docs/api" > "$tmp/diff.txt"; then
    head -n 40 "$tmp/diff.txt" >&2
    echo "docs/api/ is stale: run bash scripts/api-docs.sh and commit docs/api/" >&2
    exit 1
  fi
  echo "docs/api/: current"
else
  rm -rf "$root/docs/api"
  cp -r "$tmp/api" "$root/docs/api"
  echo "wrote docs/api/ ($(find "$root/docs/api" -type f | wc -l) files)"
fi
