#!/usr/bin/env bash
# Builds the npm package into pkg/ (or $1): its crate (wasm/, lpm-client-wasm, over the core)
# compiled to wasm32 by the pinned nightly (scripts/toolchain.sh) with std rebuilt for size and
# the immediate-abort panic strategy, so no panic or formatting machinery is linked;
# wasm-bindgen-cli (the version pinned in Cargo.lock) for the JS glue and the TypeScript
# declarations; wasm-opt -Oz (from the npm `binaryen` package); then the package's TypeScript
# from pkg-templates/ (type-checked against the generated declarations and glue), bundled by
# esbuild and compressed further by terser (both npm devDependencies). Prints the package's
# sizes.
# Needs what scripts/setup.sh installs. Extra cargo features: LPM_FEATURES="bench-exports".
# LPM_FLAVOUR=bulk builds lpm-client-bulk into pkg-bulk/: the same package with the bulk engines
# (importUsers, grantCourses, syncAccounts) in its wasm and their driver, under its own budget.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
flavour=${LPM_FLAVOUR:-lean}
if [ "$flavour" = bulk ]; then
  out=${1:-"$root/pkg-bulk"}
  name=lpm-client-bulk
  LPM_FEATURES="bulk${LPM_FEATURES:+,$LPM_FEATURES}"
else
  out=${1:-"$root/pkg"}
  name=lpm-client
fi
cd "$root"
stage_bindgen="$root/target/pkg-bindgen/$flavour"
rm -rf "$stage_bindgen"
mkdir -p "$stage_bindgen"

features=()
[ -n "${LPM_FEATURES:-}" ] && features=(--features "$LPM_FEATURES")
source "$root/scripts/toolchain.sh"
# std rebuilt with the crate (build-std) so that immediate-abort reaches it too: a panic is a trap
# with nothing to format; location details and Debug formatting are not compiled in. Without
# the multivalue feature (on by default for wasm32), wasm-bindgen returns results through memory
# rather than as several values: V8's baseline compiler handles those functions, and a new Node
# process compiles the wasm in a third of the time (docs/performance.md). Without
# reference-types (also on by default), wasm-bindgen keeps the few JS values it hands over (a
# thrown failure's data) in the glue's own array instead of a wasm table that the instance
# grows and fills when it starts: 0.3 KB less. Its own target directory: these flags rebuild
# everything, and stable's builds keep theirs.
wasm_target="$root/target/wasm-release"
RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zfmt-debug=none -Ctarget-feature=-multivalue,-reference-types" \
  cargo "+$LPM_NIGHTLY" build --quiet --release --target wasm32-unknown-unknown \
  -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size \
  --target-dir "$wasm_target" -p lpm-client-wasm "${features[@]}"

rm -rf "$out"
mkdir -p "$out/wasm"
cp "$wasm_target/wasm32-unknown-unknown/release/lpm_client_wasm.wasm" "$out/wasm/core.wasm"
# The wasm-bindgen CLI: the JS glue of the exports (wasm/lpm_client.js, bundled into lib.js) and
# the TypeScript declarations (the exports', the models' from tsify, the options' and the
# endpoints' from custom sections: wasm/lpm_client.d.ts, shipped for the models' types).
wasm-bindgen "$out/wasm/core.wasm" \
  --target web --omit-default-module-path --encode-into always --out-dir "$stage_bindgen" --out-name lpm_client
rm "$out/wasm/core.wasm"
mv "$stage_bindgen/lpm_client_bg.wasm" "$out/wasm/lpm_client_bg.wasm"
# The shipped declarations are the models' and options' only: the glue's classes, functions and
# init (all after the first class) and the boundary's own types (the driver's, with their docs)
# are the package's insides, declared for its own type-check below.
node -e '
const fs = require("fs");
const text = fs.readFileSync(process.argv[1], "utf8");
const doc = "(?:\\/\\*\\*(?:(?!\\*\\/)[\\s\\S])*\\*\\/\\s*)?";
const inside = new RegExp(doc + "export (?:type (?:Step|JobStep|HostFailure) = [^;]*;|interface PlannedRequest \\{[\\s\\S]*?\\n\\})\\n", "g");
fs.writeFileSync(process.argv[2], text.slice(0, text.search(/^export class /m)).replace(inside, ""));
' "$stage_bindgen/lpm_client.d.ts" "$out/wasm/lpm_client.d.ts"
# A build with the boundary benchmark's exports (wasm/src/bench.rs) keeps the whole glue beside
# the package for bench/boundary.mjs (lib.js bundles only what the package calls).
[[ "${LPM_FEATURES:-}" == *bench-exports* ]] && cp "$stage_bindgen/lpm_client.js" "$out/wasm/bindgen.js"
features_opt=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
  --enable-mutable-globals)
# -ocimfs=20: a function with one caller is inlined into it only when tiny (binaryen's default
# inlines any size): raw bytes grow but gzip shrinks, as a function of its own keeps its locals
# numbered from 0 and its code repeats what the others' does (docs/performance.md).
# --low-memory-unused: nothing is at an address below 1024 (the data sits above 1 MiB; the stack
# grows down from 1 MiB and would reach its last KB only by overflowing, a defect either way), so
# constant addresses fold into loads' offsets.
"$root/node_modules/.bin/wasm-opt" -Oz --converge -ocimfs=20 --low-memory-unused --strip-producers --strip-debug \
  --strip-target-features "${features_opt[@]}" \
  "$out/wasm/lpm_client_bg.wasm" -o "$out/wasm/lpm_client_bg.wasm"

# The validators entry's wasm (lpm-client/validate): the same core built with only the validators
# exported (`validate-only`), its glue staged under the package's glue name so that the same
# TypeScript bundles over it (below).
stage_validate="$root/target/pkg-bindgen/validate"
rm -rf "$stage_validate"
mkdir -p "$stage_validate"
RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zfmt-debug=none -Ctarget-feature=-multivalue,-reference-types" \
  cargo "+$LPM_NIGHTLY" build --quiet --release --target wasm32-unknown-unknown \
  -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size \
  --target-dir "$wasm_target" -p lpm-client-wasm --features validate-only
wasm-bindgen "$wasm_target/wasm32-unknown-unknown/release/lpm_client_wasm.wasm" \
  --target web --omit-default-module-path --encode-into always --out-dir "$stage_validate" --out-name lpm_client
"$root/node_modules/.bin/wasm-opt" -Oz --converge -ocimfs=20 --low-memory-unused --strip-producers --strip-debug \
  --strip-target-features "${features_opt[@]}" \
  "$stage_validate/lpm_client_bg.wasm" -o "$out/wasm/lpm_validate_bg.wasm"

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
sed -e "s/__VERSION__/$version/" -e "s/\"name\": \"lpm-client\"/\"name\": \"$name\"/" \
  pkg-templates/package.json > "$out/package.json"
cp LICENSE CHANGELOG.md "$out/"
if [ "$flavour" = bulk ]; then
  cp pkg-templates/README-bulk.md "$out/README.md"
  # Its own description: what it adds to lpm-client.
  node -e '
const f = process.argv[1], p = JSON.parse(require("fs").readFileSync(f, "utf8"));
p.description = "lpm-client with the resumable bulk engines: importUsers, grantCourses and syncAccounts for any number of rows, journaled so an interrupted job resumes without creating an account twice.";
p.keywords = [...p.keywords, "bulk-import"];
require("fs").writeFileSync(f, JSON.stringify(p, null, 2) + "\n");' "$out/package.json"
else
  cp pkg-templates/README.md "$out/"
fi

# The package's TypeScript (pkg-templates/*.ts), staged beside this flavour's generated bindings
# and type-checked against them (strict): a binding renamed or an error kind added in Rust fails
# the build here. tsc emits the public declarations (their documentation is the sources' doc
# comments; `@internal` is stripped); esbuild strips the types and minifies each module on its
# own (error classes name themselves; Client has a static name): comments are for the
# repository, not for every user's bundle.
stage="$root/target/pkg-ts/$flavour"
rm -rf "$stage" "$stage.d"
mkdir -p "$stage/wasm"
cp pkg-templates/*.ts pkg-templates/tsconfig.json "$stage/"
cp "$stage_bindgen/lpm_client.js" "$stage_bindgen/lpm_client.d.ts" "$stage/wasm/"
# The node entry carries the wasm as base64 (node.ts says why): the staged wasm-bytes.ts gets it.
node -e 'const fs = require("fs");
fs.writeFileSync(process.argv[2], `export default "${fs.readFileSync(process.argv[1]).toString("base64")}";\n`);' \
  "$out/wasm/lpm_client_bg.wasm" "$stage/wasm-bytes.ts"
# The bulk driver where the engines are; a stub that says where they are in lpm-client.
if [ "$flavour" = bulk ]; then rm "$stage/bulk-lean.ts"; else mv "$stage/bulk-lean.ts" "$stage/bulk.ts"; fi
"$root/node_modules/.bin/tsc" -p "$stage" --outDir "$stage.d"
# The public types: the entry's, and the modules it re-exports (the driver's, the transport's and
# the wasm glue's adapter are not shipped; the entries share index.d.ts). bulk.d.ts is the flavour's: the
# bulk jobs' methods, options and abort errors, or in lpm-client an empty `BulkMethods`.
cp "$stage.d/"{index,lazy,lib,errors,reasons,journal,client,schema,columns,stores,limits,bulk,validate,validate-lib}.d.ts "$out/"
# The shared module (lib.js: the client, errors, journals, validators, the bulk driver, the
# wasm-bindgen glue) bundled on its own with its public names, and the entries beside it, each
# importing it: each entry instantiates the wasm its own way through lib.js's default export
# (which the entry's `export *` leaves out), then is `export *` rather
# than a list of every name renamed (code splitting's minified chunk names: ~0.9 KB gzip more).
# Source maps beside each file (with the sources in them, and in src/), so a stack trace or a
# debugger shows the TypeScript: the runtime loads them only when asked (devtools, `node
# --enable-source-maps`), and the size budget counts no .map and nothing in src/.
common=(--bundle --minify --sourcemap --sources-content=true --format=esm --target=es2022
  --platform=neutral --log-level=warning)
"$root/node_modules/.bin/esbuild" "$stage/lib.ts" "${common[@]}" --outfile="$out/lib.js"
"$root/node_modules/.bin/esbuild" "$stage/index.ts" "$stage/lazy.ts" "$stage/node.ts" "$stage/workerd.ts" "$stage/edge.ts" \
  "${common[@]}" '--external:node:*' '--external:*.wasm' '--external:*.wasm?module' '--external:./lib.js' --outdir="$out"
# The validators entry: each of its entries bundled whole with validate-lib.ts over the
# validators' glue (staged as the package's glue: the same modules, fewer exports).
vstage="$root/target/pkg-ts/validate"
rm -rf "$vstage"
mkdir -p "$vstage/wasm"
cp "$stage/"*.ts "$vstage/"
cp "$stage_validate/lpm_client.js" "$vstage/wasm/"
"$root/node_modules/.bin/esbuild" "$vstage/validate.ts" "$vstage/validate-node.ts" "$vstage/validate-workerd.ts" \
  "${common[@]}" '--external:node:*' '--external:*.wasm' --outdir="$out"
entries=(lib index lazy node workerd edge validate validate-node validate-workerd)
maps=()
for e in "${entries[@]}"; do maps+=("$out/$e.js.map"); done
# Then terser over esbuild's output: its compressor folds more (0.2 KB gzip less).
for e in "${entries[@]}"; do
  f="$out/$e.js"
  "$root/node_modules/.bin/terser" "$f" --module --compress passes=2 --mangle -o "$f" \
    --source-map "content='$f.map',url='$(basename "$f").map',includeSources"
done
# The sources shipped in src/ (from the maps' own contents) and the maps' paths to them, so that a
# stack trace (`node --enable-source-maps`) and bundlers that read a dependency's map (Parcel)
# name files that exist. node.js's map and src/ hold wasm-bytes.ts as the repository has it, not
# the wasm again.
node -e '
const fs = require("fs"), path = require("path");
const placeholder = fs.readFileSync("pkg-templates/wasm-bytes.ts", "utf8");
for (const f of process.argv.slice(1)) {
  const m = JSON.parse(fs.readFileSync(f, "utf8"));
  m.sources = m.sources.map((s, i) => {
    // The validators entry has its own glue.
    const glue = path.basename(f).startsWith("validate") && s.endsWith("/wasm/lpm_client.js");
    const name = "src/" + (glue ? "lpm_validate.js" : path.basename(s));
    if (name === "src/wasm-bytes.ts") m.sourcesContent[i] = placeholder;
    fs.mkdirSync(path.join(path.dirname(f), "src"), { recursive: true });
    fs.writeFileSync(path.join(path.dirname(f), name), m.sourcesContent[i]);
    return name;
  });
  fs.writeFileSync(f, JSON.stringify(m));
}' "${maps[@]}"

# The size budgets: what a browser loads (the .wasm and every .js file but the server entries
# node.js, which carries the wasm again as base64, workerd.js and edge.js), gzip -9 each, summed;
# the one place they are written, and the build fails above them. Issue 25 set them: 47 KB for lpm-client (its
# goal stays 45 KB, aim 40, reached by design), and lpm-client-bulk's figure then + 2 KB. How
# the sizes moved is in CHANGELOG.md and docs/performance.md.
budget_kb=47.0
# lpm-client-bulk holds what a browser loads of the sync engine too (issue 34: the judge, the
# interval from the answer and honest progress +3.2 KB; the sync engine +10.7 KB, its own code
# and the engines it calls no longer inlined; then what lpm-client gained, +0.9 KB): the budget is
# the measured 86.0 KB + 0.2. Issue 34 stays open for it (CHANGELOG.md has the steps).
bulk_budget_kb=86.2
# A build with extra features (the boundary benchmark's exports) is not the package: no budget.
if [ "$flavour" = bulk ]; then
  budget_kb=$bulk_budget_kb
  [ "$LPM_FEATURES" != bulk ] && budget_kb=0
else
  [ -n "${LPM_FEATURES:-}" ] && budget_kb=0
fi

node -e '
const fs = require("fs"), zlib = require("zlib"), path = require("path");
// lpm-client/validate: its goal is 15 KB (issue 37); this budget holds what it reached.
const [dir, budgetKb, validateKb] = [process.argv[1], Number(process.argv[2]), 16.8];
const sizes = { wasm: [0, 0], js: [0, 0], server: [0, 0] };
const walk = d => { for (const f of fs.readdirSync(d, { withFileTypes: true })) {
  const p = path.join(d, f.name);
  // src/: the sources the source maps name, loaded only by a debugger.
  if (f.isDirectory()) { if (p !== path.join(dir, "src")) walk(p); continue; }
  // The validators entry is measured on its own (below): no page loads it with the client.
  if (/^(validate|lpm_validate)/.test(f.name)) continue;
  const kind = p.endsWith(".wasm") ? "wasm" : /^(node|workerd|edge)\.js$/.test(f.name) && d === dir ? "server" : p.endsWith(".js") ? "js" : null;
  if (!kind) continue;
  const b = fs.readFileSync(p);
  sizes[kind][0] += b.length; sizes[kind][1] += zlib.gzipSync(b, { level: 9 }).length;
} };
walk(dir);
const kb = n => (n / 1024).toFixed(1) + " KB";
const total = sizes.wasm[1] + sizes.js[1];
console.log(`package size (what a browser loads): wasm ${kb(sizes.wasm[0])} raw / ${kb(sizes.wasm[1])} gzip; js ${kb(sizes.js[0])} raw / ${kb(sizes.js[1])} gzip; total ${kb(total)} gzip (${budgetKb > 0 ? `budget ${budgetKb} KB` : "no budget: extra features"}); server entries ${kb(sizes.server[0])} raw / ${kb(sizes.server[1])} gzip`);
if (budgetKb > 0 && total > budgetKb * 1024) {
  console.error(`package size: ${kb(total)} gzip is over the budget of ${budgetKb} KB (scripts/build-pkg.sh)`);
  process.exit(1);
}
// The validators entry as a page loads it: its browser entry and its wasm.
const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(dir, f)), { level: 9 }).length;
const [vjs, vwasm] = [gz("validate.js"), gz("wasm/lpm_validate_bg.wasm")];
console.log(`lpm-client/validate: wasm ${kb(vwasm)} gzip; js ${kb(vjs)} gzip; total ${kb(vjs + vwasm)} gzip (budget ${validateKb} KB)`);
if (budgetKb > 0 && vjs + vwasm > validateKb * 1024) {
  console.error(`lpm-client/validate: ${kb(vjs + vwasm)} gzip is over its budget of ${validateKb} KB (scripts/build-pkg.sh)`);
  process.exit(1);
}
' "$out" "$budget_kb"
