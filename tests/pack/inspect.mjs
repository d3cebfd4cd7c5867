// Checks the unpacked tarball (`node inspect.mjs <dir of the unpacked package>`): zero runtime
// dependencies, the wasm present, every file the exports map (and main/types/sideEffects) points
// to present, and every relative import of every shipped .js/.d.ts (static imports, re-exports,
// `new URL('./x', import.meta.url)`, `/// <reference path>`) and every source-map source
// resolvable inside the tarball.
// Prints the file list; exits 1 on a finding.
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';

const dir = path.resolve(process.argv[2]);
const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
const problems = new Set();
const fail = (msg) => problems.add(msg);
let dependencies = 'none';

// Zero runtime dependencies (of any kind a consumer's install would follow).
for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies']) {
  const v = pkg[field];
  if (v && (Array.isArray(v) ? v.length : Object.keys(v).length)) {
    fail(`package.json has ${field}: ${JSON.stringify(v)}`);
    dependencies = 'SOME';
  }
}
if (pkg.type !== 'module') fail(`package.json "type" is ${JSON.stringify(pkg.type)}, expected "module" (ESM-only)`);

const files = [];
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else files.push(path.relative(dir, p).split(path.sep).join('/'));
  }
};
walk(dir);
files.sort();
const has = (rel) => existsSync(path.join(dir, rel)) && statSync(path.join(dir, rel)).isFile();

const wasm = files.filter((f) => f.endsWith('.wasm'));
if (wasm.length === 0) fail('no .wasm file in the tarball');

// Every target of the exports map, with the conditions that lead to it.
const targets = [];
const collect = (node, where) => {
  if (typeof node === 'string') targets.push([where, node]);
  else if (Array.isArray(node)) node.forEach((n, i) => collect(n, `${where}[${i}]`));
  else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) collect(v, `${where} → ${k}`);
};
if (!pkg.exports) fail('package.json has no "exports" map');
else collect(pkg.exports, 'exports');
for (const field of ['main', 'module', 'types', 'typings', 'browser']) {
  if (typeof pkg[field] === 'string') targets.push([field, pkg[field]]);
}
if (Array.isArray(pkg.sideEffects)) pkg.sideEffects.forEach((s, i) => targets.push([`sideEffects[${i}]`, s]));
for (const [where, target] of targets) {
  if (target.includes('*')) fail(`${where}: pattern ${target} (not expected in this package)`);
  else if (!has(path.posix.normalize(target))) fail(`${where}: ${target} is not in the tarball`);
}
// The "." entry must offer types, node and default.
const dot = pkg.exports?.['.'];
for (const cond of ['types', 'node', 'default']) {
  if (!dot || typeof dot !== 'object' || !(cond in dot)) fail(`exports["."] has no "${cond}" condition`);
}
if (dot && typeof dot === 'object' && Object.keys(dot)[0] !== 'types') fail('exports["."]: "types" must come first');

// Relative specifiers in shipped code resolve to shipped files.
const patterns = [
  /\b(?:import|export)\s[^'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  /\bimport\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
  /new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
  /\/\/\/\s*<reference\s+path=['"]([^'"]+)['"]/g,
];
let checked = 0;
for (const f of files.filter((f) => /\.(m?js|d\.m?ts)$/.test(f))) {
  const text = readFileSync(path.join(dir, f), 'utf8');
  for (const re of patterns) {
    for (const m of text.matchAll(re)) {
      const spec = m[1];
      // A query (edge.js's `?module`, "precompiled" to Next.js and Vercel) names the same file.
      const rel = path.posix.normalize(path.posix.join(path.posix.dirname(f), spec.replace(/\?[^/]*$/, '')));
      // A .d.ts may import "./x.js" for "./x.d.ts".
      const ok = has(rel) || (f.endsWith('.d.ts') && rel.endsWith('.js') && has(rel.replace(/\.js$/, '.d.ts')));
      checked += 1;
      if (!ok) fail(`${f}: "${spec}" does not resolve to a file in the tarball`);
    }
  }
}

// Every source a source map names is shipped: bundlers that read a dependency's map (Parcel)
// resolve its sources' paths and fail on one that is not there.
let sources = 0;
for (const f of files.filter((f) => f.endsWith('.map'))) {
  const map = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
  for (const s of map.sources) {
    sources += 1;
    if (!has(path.posix.normalize(path.posix.join(path.posix.dirname(f), map.sourceRoot || '', s)))) fail(`${f}: source "${s}" is not in the tarball`);
  }
}

const size = (f) => statSync(path.join(dir, f)).size;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`files (${files.length}, ${kb(files.reduce((a, f) => a + size(f), 0))} unpacked):`);
for (const f of files) console.log(`  ${kb(size(f)).padStart(9)}  ${f}`);
console.log(`exports targets: ${targets.length} checked; relative imports: ${checked} checked; source-map sources: ${sources} checked; runtime dependencies: ${dependencies}`);

// Every source a source map names is a file of the tarball (a stack trace under
// `node --enable-source-maps` names it).
for (const map of files.filter((f) => f.endsWith('.js.map'))) {
  for (const source of JSON.parse(readFileSync(path.join(dir, map), 'utf8')).sources) {
    const rel = path.posix.join(path.posix.dirname(map), source);
    if (!has(rel)) fail(`${map} names ${source}, which is not in the tarball`);
  }
}

if (problems.size) {
  console.error(`\npackage contents: ${problems.size} problem(s)`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}
