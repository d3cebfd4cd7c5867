// How should values cross the JS↔wasm boundary: JSON text parsed on one side, or
// serde-wasm-bindgen objects? Times both ways on the work the issue names (decode a 100-course
// page, validate 100 creation items) against a bench build of the package (crate feature
// `bench-exports`, see wasm/src/bench.rs). Figures only: nothing here passes or fails on speed.
//
//   node bench/boundary.mjs <dir of a bench build>      (bench/run.sh builds one and runs this)
//
// Env: BENCH_ROUNDS (default 15), BENCH_BATCH_MS (target time of one timed batch, default 40).
import { coursePage, newUsers } from './inputs.mjs';
import { roundOrder } from './order.mjs';
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node bench/boundary.mjs <bench package dir>');
  process.exit(2);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS || 15);
const BATCH_MS = Number(process.env.BENCH_BATCH_MS || 40);

// The bench exports are wasm-bindgen's: a bench build keeps its glue (wasm/bindgen.js), which
// instantiates the build's wasm on its own.
const wasm = await import(pathToFileURL(path.join(dir, 'wasm/bindgen.js')).href);
wasm.initSync({ module: readFileSync(path.join(dir, 'wasm/lpm_client_bg.wasm')) });
for (const name of ['benchDecodeOnly', 'benchDecodeReceived', 'benchDecodeJson', 'benchDecodeSwb', 'benchDecodeSwbObjects',
  'benchValidateJson', 'benchValidateSwb', 'benchValidateText', 'benchReadText']) {
  if (typeof wasm[name] !== 'function') {
    console.error(`${dir} has no ${name}: build it with LPM_FEATURES=bench-exports`);
    process.exit(2);
  }
}

// ---- inputs ------------------------------------------------------------------------------------

const { courses } = coursePage();
const bodyText = JSON.stringify({ respCode: '00', courses, msg: 'Success' });
const body = new TextEncoder().encode(bodyText);

const items = newUsers();

// ---- variants ------------------------------------------------------------------------------------

const decodeVariants = [
  ['received', 'decode checks, then JSON.parse(body) (the client now)', () => wasm.benchDecodeReceived(body)],
  ['json', 'typed reply → JSON text → JSON.parse', () => wasm.benchDecodeJson(body)],
  ['swb', 'serde-wasm-bindgen json_compatible', () => wasm.benchDecodeSwb(body)],
  ['swb-obj', 'serde-wasm-bindgen maps_as_objects', () => wasm.benchDecodeSwbObjects(body)],
  ['core', 'decode only, nothing returned', () => wasm.benchDecodeOnly(body)],
  ['js', 'pure JS: JSON.parse(body) alone', () => JSON.parse(bodyText)],
];
const validateVariants = [
  ['json', 'JS value → JSON.stringify in wasm → serde_json (convert::from_js, today)', () => wasm.benchValidateJson(items)],
  ['swb', 'JS value → serde_wasm_bindgen::from_value', () => wasm.benchValidateSwb(items)],
  ['text', 'JSON.stringify on the JS side → &str', () => wasm.benchValidateText(JSON.stringify(items))],
  ['read', 'JSON.stringify in JS → &str → serde_json, not validated', () => wasm.benchReadText(JSON.stringify(items))],
  ['js', 'pure JS: JSON.stringify(items) alone', () => JSON.stringify(items)],
];

// ---- same results? ---------------------------------------------------------------------------------

const checks = [];
const check = (what, ok, note = '', expectedDiff = '') => checks.push([what, ok, note, expectedDiff]);

const dj = wasm.benchDecodeJson(body);
const ds = wasm.benchDecodeSwb(body);
const dso = wasm.benchDecodeSwbObjects(body);
check('decode: 100 courses', dj.courses.length === 100 && wasm.benchDecodeOnly(body) === 100);
check('decode: json ≡ swb json_compatible', isDeepStrictEqual(dj, ds));
{
  // As received, minus `respCode` (the typed reply drops it), equals the typed reply re-serialized.
  const { respCode, ...received } = wasm.benchDecodeReceived(body);
  check('decode: received (minus respCode) ≡ json', respCode === '00' && isDeepStrictEqual(received, dj));
}
{
  const same = isDeepStrictEqual(dj, dso);
  let note = '';
  if (!same) {
    // Where do they differ? (expected: None is null in JSON text, undefined without json_compatible)
    const diffs = [];
    const walk = (a, b, p) => {
      if (diffs.length >= 3) return;
      if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
        for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], `${p}.${k}`);
      } else if (!Object.is(a, b)) diffs.push(`${p}: ${JSON.stringify(a)} vs ${b === undefined ? 'undefined' : JSON.stringify(b)}`);
    };
    walk(dj, dso, '');
    note = diffs.join('; ');
  }
  // Expected to differ: without json_compatible a None the JSON text writes as null is undefined.
  check('decode: json ≡ swb maps_as_objects', same, note, 'differs (expected: None → undefined)');
}
check('decode: extra keys and maps are plain objects (json, swb)',
  dj.courses[0].seo?.index === true && ds.courses[0].seo?.index === true &&
  Object.getPrototypeOf(ds.courses[0].affiliates.basic_payout_value) === Object.prototype &&
  Object.getPrototypeOf(dj.courses[0].affiliates.basic_payout_value) === Object.prototype);

const vj = wasm.benchValidateJson(items);
check('validate: 100 valid items give no issue', Array.isArray(vj) && vj.length === 0 && wasm.benchReadText(JSON.stringify(items)) === 100);
check('validate: json ≡ swb ≡ text (valid batch)',
  isDeepStrictEqual(vj, wasm.benchValidateSwb(items)) && isDeepStrictEqual(vj, wasm.benchValidateText(JSON.stringify(items))));
const bad = structuredClone(items);
bad[3].email = 'not-an-email';
bad[7].username = bad[2].username;
delete bad[9].password;
bad[11].phone = 912345678;
{
  const a = wasm.benchValidateJson(bad);
  check('validate: json ≡ swb ≡ text (batch with 4 bad rows)', a.length >= 4 &&
    isDeepStrictEqual(a, wasm.benchValidateSwb(bad)) && isDeepStrictEqual(a, wasm.benchValidateText(JSON.stringify(bad))),
  `${a.length} issues`);
}
{
  // A key present with the value undefined: JSON.stringify drops it, serde-wasm-bindgen reads null.
  const u = structuredClone(items.slice(0, 2));
  u[1].phone = undefined;
  const a = wasm.benchValidateJson(u), b = wasm.benchValidateSwb(u);
  check('validate: `phone: undefined` judged alike', isDeepStrictEqual(a, b),
    `json: ${a.map((i) => i.code).join(',') || 'no issue'}; swb: ${b.map((i) => i.code).join(',') || 'no issue'}`);
}

// ---- timing ------------------------------------------------------------------------------------------

const gc = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};
const now = process.hrtime.bigint;

function timeBatch(fn, n) {
  let sink;
  const t0 = now();
  for (let i = 0; i < n; i++) sink = fn();
  const t1 = now();
  if (sink === Symbol.for('never')) console.log(sink);
  return Number(t1 - t0) / n;
}

function measure(variants) {
  // Warm up, and size each variant's batch to about BATCH_MS.
  const n = variants.map(([, , fn]) => {
    for (let i = 0; i < 50; i++) fn();
    const per = timeBatch(fn, 50);
    return Math.max(5, Math.round((BATCH_MS * 1e6) / per));
  });
  const samples = variants.map(() => []);
  const idx = variants.map((_, i) => i);
  for (let r = 0; r < ROUNDS; r++) {
    // Each round in its own order, so that drift, GC pressure and what the variant before left
    // do not favour one variant.
    for (const i of roundOrder(idx, r)) {
      gc();
      samples[i].push(timeBatch(variants[i][2], n[i]));
    }
  }
  return samples.map((s) => {
    const sorted = [...s].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    return { median, min: sorted[0], max: sorted[sorted.length - 1] };
  });
}

const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`);

function table(title, variants, results) {
  const base = results[variants.findIndex(([k]) => k === 'swb')].median;
  console.log(`\n${title}`);
  console.log(`  ${'variant'.padEnd(9)}${'median/op'.padStart(11)}${'min'.padStart(11)}${'max'.padStart(11)}  ${'÷ swb'.padStart(6)}  what`);
  variants.forEach(([key, what], i) => {
    const r = results[i];
    console.log(`  ${key.padEnd(9)}${fmt(r.median).padStart(11)}${fmt(r.min).padStart(11)}${fmt(r.max).padStart(11)}  ${(r.median / base).toFixed(2).padStart(6)}  ${what}`);
  });
}

console.log(`node ${process.version}, ${ROUNDS} rounds, ~${BATCH_MS} ms per timed batch${typeof globalThis.gc === 'function' ? ', gc between batches' : ''}`);
console.log(`page body: ${(body.length / 1024).toFixed(1)} KB (100 courses); batch: ${(JSON.stringify(items).length / 1024).toFixed(1)} KB as JSON (100 items)`);

const decodeResults = measure(decodeVariants);
table('decode a 100-course page (bytes in, CourseList out)', decodeVariants, decodeResults);
const validateResults = measure(validateVariants);
table('validate 100 creation items (value in, Issue[] out)', validateVariants, validateResults);

const med = (vs, rs, k) => rs[vs.findIndex(([key]) => key === k)].median;
const dJson = med(decodeVariants, decodeResults, 'json'), dSwb = med(decodeVariants, decodeResults, 'swb');
const dCore = med(decodeVariants, decodeResults, 'core');
const vJson = med(validateVariants, validateResults, 'json'), vSwb = med(validateVariants, validateResults, 'swb');
const vText = med(validateVariants, validateResults, 'text');
const vRead = med(validateVariants, validateResults, 'read');
console.log('\nratios (median JSON ÷ median serde-wasm-bindgen; < 1 means JSON text is faster)');
const dReceived = med(decodeVariants, decodeResults, 'received');
console.log(`  decode:   ${(dJson / dSwb).toFixed(2)}  (boundary share over the decode alone: json ${fmt(dJson - dCore)}, swb ${fmt(dSwb - dCore)}, as received ${fmt(dReceived - dCore)}; as received ÷ swb ${(dReceived / dSwb).toFixed(2)})`);
console.log(`  validate: ${(vJson / vSwb).toFixed(2)}  (stringify in wasm); ${(vText / vSwb).toFixed(2)} (stringify in JS); the checks themselves ≈ ${fmt(vText - vRead)}`);

console.log('\nsame results');
for (const [what, ok, note, expectedDiff] of checks) {
  const mark = ok ? 'ok  ' : expectedDiff ? 'note' : 'DIFF';
  console.log(`  ${mark} ${what}${!ok && expectedDiff ? `: ${expectedDiff}` : ''}${note ? `  (${note})` : ''}`);
}

const sizes = (file) => {
  const b = readFileSync(file);
  return `${(b.length / 1024).toFixed(1)} KB raw / ${(gzipSync(b, { level: 9 }).length / 1024).toFixed(1)} KB gzip`;
};
const pkgWasm = path.join(root, 'pkg/wasm/lpm_client_bg.wasm');
console.log('\nwasm size');
if (existsSync(pkgWasm)) console.log(`  package (pkg/):         ${sizes(pkgWasm)}`);
else console.log('  package (pkg/):         not built (bash scripts/build-pkg.sh)');
console.log(`  bench build (both ways): ${sizes(path.join(dir, 'wasm/lpm_client_bg.wasm'))}`);
