// Two builds of the package side by side in one process, interleaved, for measuring one change at
// a time on a shared (loaded) machine: what the ratio between the builds says survives the load,
// absolute times do not. Figures only; nothing fails.
//
//   cp -r pkg /tmp/pkg-before; (change, then) bash scripts/build-pkg.sh
//   node bench/ab.mjs /tmp/pkg-before pkg
//
// Rows: the gate alone (`Pending.decode` of a 100-record page, through the boundary), a whole
// call through a fetch stub (100 users, 100 courses, and one account: the fixed cost of a call),
// and validate 100 new accounts; each with its floor (JSON.parse of the text, JSON.stringify of
// the batch). Medians of BENCH_ROUNDS (25) rounds, each round in its own order (bench/order.mjs);
// BENCH_GC=1 (with --expose-gc) collects before each sample, which inflates the small calls;
// BENCH_GATE_ONLY=1 measures the gate rows alone.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { coursePage, userPage, newUsers } from './inputs.mjs';
import { roundOrder } from './order.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dirs = process.argv.slice(2, 4).map((d) => path.resolve(d));
if (dirs.length !== 2) {
  console.error('usage: node bench/ab.mjs <pkg dir A> <pkg dir B>');
  process.exit(2);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS || 25);
const gc = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};

const libs = [];
const planners = [];
for (const d of dirs) {
  libs.push(await import(pathToFileURL(path.join(d, 'node.js')).href));
  // The wasm of the same build, instantiated on its own, for the gate alone: a lib.js of its own
  // (?ab) whose default export instantiates it (`start.sync`) and carries the generated `Core`;
  // in the builds of the hand boundary (before wasm-bindgen's glue came back) its raw exports;
  // before those, wasm-bindgen's glue in wasm/.
  const bytes = readFileSync(path.join(d, 'wasm/lpm_client_bg.wasm'));
  const has = (f) => existsSync(path.join(d, f));
  const glue = has('instance.js') ? 'instance.js' : has('wasm/lpm_client.js') ? 'wasm/lpm_client.js' : 'lib.js';
  const m = await import(`${pathToFileURL(path.join(d, glue)).href}?ab`);
  if (glue === 'lib.js' && typeof m.default === 'object') {
    m.default.sync(bytes);
    planners.push((opts) => new m.default.Core(opts, undefined));
    continue;
  }
  const w = glue === 'lib.js' ? m.default(new WebAssembly.Instance(new WebAssembly.Module(bytes), {})) : m.initSync({ module: bytes });
  planners.push(glue !== 'wasm/lpm_client.js' ? handPlanner(w) : (opts) => new m.Core(opts, undefined));
}

/** `new Core(opts).plan(...)` with `decode` as the hand boundary's glue called its exports:
 * arguments written into the wasm's buffer (`lpm_args`) and passed as lengths. */
function handPlanner(w) {
  const enc = new TextEncoder();
  const put = (...parts) => {
    const bytes = parts.map((p) => (typeof p === 'string' ? enc.encode(p) : p));
    let at = w.lpm_args(bytes.reduce((n, b) => n + (b ? b.length : 0), 0));
    return bytes.map((b) => {
      if (b === undefined) return -1;
      new Uint8Array(w.memory.buffer).set(b, at);
      at += b.length;
      return b.length;
    });
  };
  return (opts) => ({
    plan(method, a, b, options) {
      const h = w.lpm_plan(w.lpm_core_new(...put(opts, undefined)), ...put(method, a, b, options));
      // The body's ASCII form first (`lpm_ascii`), as the glue did: the new `decode` makes it too.
      return { decode: (status, body) => { const [n] = put(body); return w.lpm_pending_decode(h, status, n, w.lpm_ascii(n) + 1); } };
    },
  });
}

const encode = (v) => new TextEncoder().encode(JSON.stringify(v));
const bodies = {
  users: encode(userPage()),
  courses: encode(coursePage()),
  one: readFileSync(path.join(root, 'tests/fixtures/get-single-user/success.json')),
};
const items = newUsers();
const baseUrl = 'https://school.example.com';
const token = 'benchToken0123456789abcdef';
const decoder = new TextDecoder();
/** A fetch answering `bytes`, shaped like a Response (as bench/peers/run.mjs's stub). */
const stub = (bytes) => async () => {
  const b = Uint8Array.prototype.slice.call(bytes);
  return { status: 200, ok: true, headers: { get: () => null }, arrayBuffer: async () => b.buffer, text: async () => decoder.decode(b) };
};

/** Median µs per op of each variant: `n` ops per sample, each round in its own order (bench/order.mjs). */
async function measure(variants, n) {
  const fns = Object.values(variants);
  for (const f of fns) for (let i = 0; i < 3 * n; i++) await f();
  const samples = fns.map(() => []);
  const idx = fns.map((_, i) => i);
  for (let r = 0; r < ROUNDS; r++) {
    for (const k of roundOrder(idx, r)) {
      if (process.env.BENCH_GC) gc();
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await fns[k]();
      samples[k].push(((performance.now() - t0) / n) * 1000);
    }
  }
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  return Object.fromEntries(Object.keys(variants).map((k, i) => [k, median(samples[i])]));
}

const opts = JSON.stringify({ baseUrl, token });
const rows = [];
for (const [name, method, part, n] of [['users', 'getUsers', 'get-multi-user', 40], ['courses', 'getCourses', 'get-multi-course', 12]]) {
  const pendings = planners.map((core) => core(opts).plan(method, '{"start":0,"limit":100}', undefined, 'null'));
  const body = bodies[name];
  const t = await measure({ floor: () => JSON.parse(decoder.decode(body)), a: () => pendings[0].decode(200, body, true), b: () => pendings[1].decode(200, body, true) }, n);
  rows.push([`gate: Pending.decode of 100 ${name} (${part})`, t]);
}
// BENCH_GATE_ONLY=1: the gate rows only (a third of the time, for a change to src/check.rs).
const gateOnly = Boolean(process.env.BENCH_GATE_ONLY);
for (const [name, call, n] of gateOnly ? [] : [
  ['users', (c) => c.getUsers({ start: 0, limit: 100 }), 40],
  ['courses', (c) => c.getCourses({ start: 0, limit: 100 }), 12],
  ['one', (c) => c.getUser('X7mKq2RBtWdHn4sPz'), 300],
]) {
  const fetch = stub(bodies[name]);
  const clients = libs.map((l) => new l.Client({ baseUrl, token, fetch }));
  const t = await measure({ floor: async () => JSON.parse(await (await fetch()).text()), a: () => call(clients[0]), b: () => call(clients[1]) }, n);
  rows.push([`call through a fetch stub: ${name === 'one' ? 'one account (fixed cost)' : `100 ${name}`}`, t]);
}
if (!gateOnly) rows.push(['validate 100 new accounts', await measure({
  floor: () => JSON.stringify(items),
  a: () => libs[0].validateCreateUsers(items),
  b: () => libs[1].validateCreateUsers(items),
}, 150)]);

const [a, b] = dirs.map((d) => path.relative(process.cwd(), d) || '.');
console.log(`A = ${a}, B = ${b}; medians of ${ROUNDS} interleaved rounds (µs per op)\n`);
const w = Math.max(...rows.map(([label]) => label.length));
console.log(`  ${'figure'.padEnd(w)}  ${'floor'.padStart(8)}  ${'A'.padStart(8)}  ${'B'.padStart(8)}  ${'B/A'.padStart(6)}  ${'A/floor'.padStart(7)}  ${'B/floor'.padStart(7)}`);
for (const [label, t] of rows) {
  const f = (x) => x.toFixed(1).padStart(8);
  const r = (x) => `${x.toFixed(2)}×`.padStart(7);
  console.log(`  ${label.padEnd(w)}  ${f(t.floor)}  ${f(t.a)}  ${f(t.b)}  ${r(t.b / t.a).slice(1).padStart(6)}  ${r(t.a / t.floor)}  ${r(t.b / t.floor)}`);
}
