// lpm-client (Rust → wasm) versus the client a careful TypeScript team would write by hand with zod
// (zod-client.mjs), side by side in one process: speed of the public API from response bytes to
// typed, checked JS objects; speed of validating a creation batch; size of each client bundled for
// the browser; and whether both accept and reject the same bodies. Figures only: nothing here passes
// or fails on speed or size (a disagreement in the checks exits 1).
//
//   bash bench/vs-zod/run.sh            (installs zod + esbuild here, builds pkg/ if missing)
//   node --expose-gc bench/vs-zod/run.mjs [pkg dir]
//
// Env: BENCH_ROUNDS (default 15), BENCH_BATCH_MS (target time of one timed batch, default 40).
import { coursePage, newUsers } from '../inputs.mjs';
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import * as zodClient from './zod-client.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const pkgDir = path.resolve(process.argv[2] || path.join(root, 'pkg'));
const ROUNDS = Number(process.env.BENCH_ROUNDS || 15);
const BATCH_MS = Number(process.env.BENCH_BATCH_MS || 40);

const lpm = await import(pathToFileURL(path.join(pkgDir, 'node.js')).href);
const zodVersion = JSON.parse(readFileSync(path.join(here, 'node_modules/zod/package.json'), 'utf8')).version;
const { ZodClient, NewUsers } = zodClient;

// ---- inputs ---------------------------------------------------------------------------------------

// The same 100-course page as bench/boundary.mjs.
const courseBody = coursePage();
const { courses } = courseBody;


// A 100-user page from the fixture's three accounts (one with enrolments, lesson status, cart and
// transactions; one bare; one with avatar), ids / usernames / e-mails varied; a fifth carry an
// unlisted key.
const userFixture = JSON.parse(readFileSync(path.join(root, 'tests/fixtures/get-multi-user/success.json'), 'utf8'));
const users = [];
for (let i = 0; i < 100; i++) {
  const u = structuredClone(userFixture.users[i % userFixture.users.length]);
  const n = String(i + 1).padStart(3, '0');
  u._id = `${u._id.slice(0, 10)}${String(i).padStart(7, '0')}`;
  u.username = `${u.username}${n}`;
  u.emails = u.emails.map((e) => ({ ...e, address: e.address.replace('@', `+${n}@`) }));
  u.profile = { ...u.profile, name: `${u.profile.name} ${n}` };
  if (i % 5 === 0) u.services = { resume: { loginTokens: [] } };
  users.push(u);
}
const userBody = { respCode: '00', users, msg: 'Success' };

const encode = (value) => new TextEncoder().encode(JSON.stringify(value));
const courseBytes = encode(courseBody);
const userBytes = encode(userBody);

const items = newUsers();

// ---- the fake network ---------------------------------------------------------------------------

// A fetch that answers every call with prepared bytes, shaped like a Response: a fresh ArrayBuffer
// per call (lpm-client reads `arrayBuffer()`), a fresh UTF-8 decode for `text()` (what a Response
// does; the zod client reads `text()`). The URL is checked so both clients call the right endpoint.
const decoder = new TextDecoder();
function fakeFetch(routes) {
  return async (url) => {
    const route = routes.find(([part]) => url.includes(part));
    if (!route) throw new TypeError(`no route for ${url}`);
    const bytes = route[1];
    return {
      status: 200,
      ok: true,
      headers: { get: () => null },
      arrayBuffer: async () => bytes.slice().buffer,
      text: async () => decoder.decode(bytes),
    };
  };
}
const fetch = fakeFetch([['get-multi-course', courseBytes], ['get-multi-user', userBytes]]);
const baseUrl = 'https://school.example.com';
const token = 'benchToken0123456789abcdef';

const lpmClient = new lpm.Client({ baseUrl, token, fetch });
const lpmNoTimer = new lpm.Client({ baseUrl, token, fetch, timeoutMs: 0 });
const zod = new ZodClient({ baseUrl, token, fetch });
const page = { start: 0, limit: 100 };

// The floor both sides stand on: the fake fetch, reading the text, JSON.parse, no checks.
const floor = (part) => async () => JSON.parse(await (await fetch(`${baseUrl}/manage/api/${part}?token=${token}`)).text());

// ---- same results? ----------------------------------------------------------------------------------

const checks = [];
const check = (what, ok, note = '') => checks.push([what, ok, note]);
const outcome = async (fn) => {
  try {
    return { value: await fn() };
  } catch (e) {
    return { error: e };
  }
};
const errName = (r) => (r.error ? `${r.error.name}` : 'accepted');

{
  const a = await lpmClient.getCourses(page), b = await zod.getCourses(page);
  check('courses: 100 records both ways', a.courses.length === 100 && b.courses.length === 100);
  check('courses: same objects (unlisted keys kept both ways)', isDeepStrictEqual(a, b) && b.courses[0].seo?.index === true);
  const u = await lpmClient.getUsers(page), v = await zod.getUsers(page);
  check('users: 100 records both ways', u.users.length === 100 && v.users.length === 100);
  check('users: same objects (unlisted keys kept both ways)', isDeepStrictEqual(u, v) && v.users[0].services !== undefined);
}

// Corrupted bodies: each side must reject what the other rejects (and accept what it accepts).
const corrupt = [
  ['course price.original is a string', 'courses', (b) => { b.courses[4].price.original = '599000'; }],
  ['course price is a string', 'courses', (b) => { b.courses[5].price = '599000'; }],
  ['course without _id', 'courses', (b) => { delete b.courses[7]._id; }],
  ['course image size negative', 'courses', (b) => {
    const c = b.courses.find((x) => x.image_detail?.original);
    if (c) c.image_detail.original.size = -1; else throw new Error('no course with image_detail.original');
  }],
  ['course purpose element {}, type "DRAFT" (both fine)', 'courses', (b) => { b.courses[1].purpose = [{}]; b.courses[1].type = 'DRAFT'; }],
  ['user without _id', 'users', (b) => { delete b.users[10]._id; }],
  ['user emails[].verified is "yes"', 'users', (b) => { b.users[3].emails[0].verified = 'yes'; }],
  ['respCode "04" (an API error)', 'users', (b) => { b.respCode = '04'; b.users = null; b.msg = 'Invalid token or Token has expired'; }],
];
for (const [what, key, mutate] of corrupt) {
  const body = structuredClone(key === 'courses' ? courseBody : userBody);
  mutate(body);
  const f = fakeFetch([[key === 'courses' ? 'get-multi-course' : 'get-multi-user', encode(body)]]);
  const l = new lpm.Client({ baseUrl, token, fetch: f, maxRetries: 0 });
  const z = new ZodClient({ baseUrl, token, fetch: f });
  const call = key === 'courses' ? 'getCourses' : 'getUsers';
  const a = await outcome(() => l[call](page)), b = await outcome(() => z[call](page));
  check(`rejects alike: ${what}`, !!a.error === !!b.error, `lpm ${errName(a)}, zod ${errName(b)}`);
}

// Validation: the valid batch passes both; a batch with bad rows is flagged at the same paths.
const issuePaths = (issues) => [...new Set(issues.map((i) => i.path.join('.')))].sort();
const zodIssues = (value) => {
  const r = NewUsers.safeParse(value);
  return r.success ? [] : r.error.issues;
};
{
  const a = lpm.validateCreateUsers(items), b = zodIssues(items);
  check('validate: 100 valid items pass both', a.length === 0 && b.length === 0, `lpm ${a.length}, zod ${b.length} issues`);
  const bad = structuredClone(items);
  bad[3].email = 'not-an-email';
  bad[7].username = bad[2].username;
  delete bad[9].password;
  bad[11].phone = 912345678;
  bad[13].name = 'An';
  bad[15].username = 'hoc vien';
  bad[17].password = '12345';
  bad[19].email = bad[18].email.toUpperCase();
  const pa = issuePaths(lpm.validateCreateUsers(bad)), pb = issuePaths(zodIssues(bad));
  check('validate: 8 bad rows flagged at the same paths', isDeepStrictEqual(pa, pb), `lpm [${pa.join(' ')}]; zod [${pb.join(' ')}]`);
}

// ---- timing ---------------------------------------------------------------------------------------

const gc = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};
const now = process.hrtime.bigint;

async function timeBatch(fn, n) {
  let sink;
  const t0 = now();
  for (let i = 0; i < n; i++) sink = await fn();
  const t1 = now();
  if (sink === Symbol.for('never')) console.log(sink);
  return Number(t1 - t0) / n;
}

/** Median per op of each variant: warmed up, batches of ~BATCH_MS, order rotated every round. */
async function measure(variants) {
  const n = [];
  for (const [, fn] of variants) {
    for (let i = 0; i < 100; i++) await fn();
    const per = await timeBatch(fn, 50);
    n.push(Math.max(5, Math.round((BATCH_MS * 1e6) / per)));
  }
  const samples = variants.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    const order = variants.map((_, i) => i);
    if (r % 2) order.reverse();
    const rot = r % variants.length;
    for (const i of [...order.slice(rot), ...order.slice(0, rot)]) {
      gc();
      samples[i].push(await timeBatch(variants[i][1], n[i]));
    }
  }
  return samples.map((s) => {
    const sorted = [...s].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  });
}

const speed = [
  ['courses', 'get 100 courses', [
    ['lpm', () => lpmClient.getCourses(page)],
    ['lpm0', () => lpmNoTimer.getCourses(page)],
    ['zod', () => zod.getCourses(page)],
    ['floor', floor('courses/get-multi-course')],
  ]],
  ['users', 'get 100 users', [
    ['lpm', () => lpmClient.getUsers(page)],
    ['lpm0', () => lpmNoTimer.getUsers(page)],
    ['zod', () => zod.getUsers(page)],
    ['floor', floor('users/get-multi-user')],
  ]],
  ['validate', 'validate 100 new users', [
    ['lpm', () => lpm.validateCreateUsers(items)],
    ['zod', () => NewUsers.safeParse(items)],
  ]],
];
const timings = {};
for (const [key, , variants] of speed) {
  const medians = await measure(variants);
  timings[key] = Object.fromEntries(variants.map(([k], i) => [k, medians[i]]));
}

// ---- size -------------------------------------------------------------------------------------------

const tmp = mkdtempSync(path.join(tmpdir(), 'lpm-vs-zod-'));
const rel = (p) => `./${path.relative(tmp, p).split(path.sep).join('/')}`;
const entries = {
  lpm: `import { Client, validateCreateUsers } from ${JSON.stringify(rel(path.join(pkgDir, 'index.js')))};
export async function load(fetch, newUsers) {
  const issues = validateCreateUsers(newUsers);
  const client = new Client({ baseUrl: 'https://school.example.com', token: 't0ken', fetch });
  return { issues, courses: await client.getCourses({ start: 0, limit: 100 }), users: await client.getUsers({ start: 0, limit: 100 }) };
}
`,
  zod: `import { ZodClient, NewUsers } from ${JSON.stringify(rel(path.join(here, 'zod-client.mjs')))};
export async function load(fetch, newUsers) {
  const r = NewUsers.safeParse(newUsers);
  const issues = r.success ? [] : r.error.issues;
  const client = new ZodClient({ baseUrl: 'https://school.example.com', token: 't0ken', fetch });
  return { issues, courses: await client.getCourses({ start: 0, limit: 100 }), users: await client.getUsers({ start: 0, limit: 100 }) };
}
`,
};
const sizes = {};
try {
  for (const [key, source] of Object.entries(entries)) {
    const entry = path.join(tmp, `${key}.mjs`);
    writeFileSync(entry, source);
    const out = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      outdir: path.join(tmp, 'out'),
      nodePaths: [path.join(here, 'node_modules')], // zod for zod-client.mjs wherever it is bundled from
      loader: { '.wasm': 'file' }, // the wasm stays a separate asset (the package fetches it by URL)
      logLevel: 'error',
    });
    const js = out.outputFiles.filter((f) => f.path.endsWith('.js'));
    if (js.length !== 1) throw new Error(`${key}: expected one JS output, got ${out.outputFiles.map((f) => f.path).join(', ')}`);
    const text = js[0].contents;
    sizes[key] = { js: text.length, jsGz: gzipSync(text, { level: 9 }).length };
  }
  const wasm = readFileSync(path.join(pkgDir, 'wasm/lpm_client_bg.wasm'));
  Object.assign(sizes.lpm, { wasm: wasm.length, wasmGz: gzipSync(wasm, { level: 9 }).length });
  check('size: lpm bundle does not inline the wasm', sizes.lpm.js < wasm.length / 2, `${sizes.lpm.js} B of JS`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// ---- report -----------------------------------------------------------------------------------------

const us = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`);
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
const x = (r) => `${r.toFixed(2)}×`;

console.log(`lpm-client vs zod ${zodVersion} · node ${process.version} · ${ROUNDS} rounds of ~${BATCH_MS} ms batches, median per op${typeof globalThis.gc === 'function' ? ', gc between batches' : ''}`);
console.log(`bodies: 100 courses ${kb(courseBytes.length)}, 100 users ${kb(userBytes.length)}; batch: 100 new users (${kb(JSON.stringify(items).length)} as JSON)`);

console.log('\nspeed (response bytes → typed, checked objects, through each public API)');
console.log(`  ${'op'.padEnd(24)}${'lpm'.padStart(10)}${'zod'.padStart(10)}${'lpm ÷ zod'.padStart(11)}   ${'lpm, timeoutMs 0'.padStart(16)}${'parse only'.padStart(12)}`);
for (const [key, label] of speed) {
  const t = timings[key];
  const extra = t.lpm0 === undefined ? '' : `   ${us(t.lpm0).padStart(16)}${us(t.floor).padStart(12)}`;
  console.log(`  ${label.padEnd(24)}${us(t.lpm).padStart(10)}${us(t.zod).padStart(10)}${x(t.lpm / t.zod).padStart(11)}${extra}`);
}
console.log('  (lpm ÷ zod < 1: lpm-client faster. "lpm, timeoutMs 0": lpm without its per-call timer; "parse only": fake fetch + text + JSON.parse, no checks)');

console.log('\nsize (esbuild --bundle --minify --format=esm --platform=browser; gzip -9)');
const l = sizes.lpm, z = sizes.zod;
console.log(`  ${''.padEnd(24)}${'JS raw'.padStart(10)}${'JS gz'.padStart(10)}${'wasm raw'.padStart(10)}${'wasm gz'.padStart(10)}${'total gz'.padStart(10)}`);
console.log(`  ${'lpm-client'.padEnd(24)}${kb(l.js).padStart(10)}${kb(l.jsGz).padStart(10)}${kb(l.wasm).padStart(10)}${kb(l.wasmGz).padStart(10)}${kb(l.jsGz + l.wasmGz).padStart(10)}`);
console.log(`  ${'zod client'.padEnd(24)}${kb(z.js).padStart(10)}${kb(z.jsGz).padStart(10)}${'-'.padStart(10)}${'-'.padStart(10)}${kb(z.jsGz).padStart(10)}`);
console.log(`  ${'lpm ÷ zod'.padEnd(24)}${x(l.js / z.js).padStart(10)}${x(l.jsGz / z.jsGz).padStart(10)}${''.padStart(20)}${x((l.jsGz + l.wasmGz) / z.jsGz).padStart(10)}`);
console.log('  (lpm bundles every endpoint, retries, timeouts and the create-interval guard; the zod client has two GETs and one validator)');

console.log('\nsame results');
for (const [what, ok, note] of checks) console.log(`  ${ok ? 'ok  ' : 'DIFF'} ${what}${note ? `  (${note})` : ''}`);
if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
