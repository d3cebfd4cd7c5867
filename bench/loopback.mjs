// One call on loopback to the release emulator, for builds side by side: getCourses and getUsers
// of each package, interleaved call by call with the floor (`fetch(url).text()` then JSON.parse,
// as bench/peers/run.mjs's loopback rows), each round in its own order (bench/order.mjs). For measuring one change
// to the per-call path (the driver, planning, the gate) on a shared machine: the ratios
// between builds and to the floor survive the load, absolute times do not. Figures only.
//
//   cargo build --release -p lpm-emulator
//   cp -r pkg /tmp/pkg-before; (change, then) bash scripts/build-pkg.sh
//   node bench/loopback.mjs /tmp/pkg-before pkg
//
// Env: BENCH_LOOPBACK_ROUNDS (1000) rounds per endpoint; LPM_EMULATOR_BIN (default
// target/release/lpm-emulator). BENCH_PROFILE=<n>: only the last package (with BENCH_PROFILE_FLOOR=1
// the floor), n calls of each endpoint (for `node --cpu-prof`). BENCH_PHASES=1: each variant's
// call also split in three at the global fetch, medians beside the whole (see `PHASES`).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.LPM_EMULATOR_BIN ||= path.join(root, 'target/release/lpm-emulator');
const { startEmulator } = await import('../tests/js/emulator.mjs');
const { roundOrder } = await import('./order.mjs');

const dirs = process.argv.slice(2).map((d) => path.resolve(d));
if (dirs.length === 0) dirs.push(path.join(root, 'pkg'));
const ROUNDS = Number(process.env.BENCH_LOOPBACK_ROUNDS || 1000);
const PROFILE = Number(process.env.BENCH_PROFILE || 0);
// Where a call's time goes: before the request is handed to fetch (the planning, the driver), from
// there to the response's headers (the request's way and the server's work; what a client does in
// the same turn after calling fetch delays its request's leaving), and from the headers to the
// objects (the body's read, the check, JSON.parse). The global fetch is wrapped before the packages
// load, so each still takes it for the runtime's own (as transport.ts's PLATFORM_FETCH); the wrapper's
// reaction is the first on the response, so it is timed before the caller's continues. A call
// that did not make exactly one fetch with headers (a retry, a failure) gives no phases (counted as
// dropped). The wrapper's own reaction and clock reads are in every variant's whole time too: the
// medians of a BENCH_PHASES run are not those of a run without it.
const PHASES = process.env.BENCH_PHASES === '1';
const at = { sent: NaN, headers: NaN, fetches: 0 };
if (PHASES) {
  const platform = globalThis.fetch;
  globalThis.fetch = (url, init) => {
    at.sent = performance.now();
    at.fetches += 1;
    const p = platform(url, init);
    p.then(() => { at.headers = performance.now(); }, () => {});
    return p;
  };
}
const libs = [];
for (const d of dirs) libs.push(await import(pathToFileURL(path.join(d, 'node.js')).href));

const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const page = { start: 0, limit: 100 };
const emu = await startEmulator();
try {
  const token = emu.printed['admin-token'];
  const clients = libs.map((l) => new l.Client({ baseUrl: emu.url, token }));
  const names = dirs.map((d, i) => `${String.fromCharCode(65 + i)} ${path.relative(process.cwd(), d) || '.'}`);
  for (const [method, part] of [['getCourses', 'courses/get-multi-course'], ['getUsers', 'users/get-multi-user']]) {
    const url = `${emu.url}/manage/api/${part}?token=${token}&start=0&limit=100`;
    const variants = [async () => JSON.parse(await (await fetch(url)).text()), ...clients.map((c) => () => c[method](page))];
    if (PROFILE) {
      const only = variants[process.env.BENCH_PROFILE_FLOOR ? 0 : variants.length - 1];
      for (let i = 0; i < PROFILE; i++) await only();
      continue;
    }
    for (let w = 0; w < 50; w++) for (const v of variants) await v();
    const samples = variants.map(() => []);
    const phases = variants.map(() => ({ before: [], server: [], after: [] }));
    let dropped = 0;
    // Each round in its own order: each variant follows each of the others about as often (a call
    // leaves work behind that the next one pays; see bench/order.mjs).
    const idx = variants.map((_, i) => i);
    let last = idx.at(-1); // the warm-up's last
    for (let r = 0; r < ROUNDS; r++) {
      for (const k of roundOrder(idx, r, last)) {
        if (PHASES) Object.assign(at, { sent: NaN, headers: NaN, fetches: 0 });
        const t0 = performance.now();
        await variants[k]();
        const t1 = performance.now();
        samples[k].push(t1 - t0);
        if (PHASES) {
          if (at.fetches === 1 && at.headers >= at.sent) {
            phases[k].before.push(at.sent - t0);
            phases[k].server.push(at.headers - at.sent);
            phases[k].after.push(t1 - at.headers);
          } else dropped += 1;
        }
        last = k;
      }
    }
    const m = samples.map(median);
    console.log(`${method} on loopback, medians of ${ROUNDS} interleaved calls: floor ${(m[0] * 1000).toFixed(0)} µs`);
    for (let i = 1; i < m.length; i++) {
      const vsA = i > 1 ? `  ${(m[i] / m[1]).toFixed(3)}× A` : '';
      console.log(`  ${names[i - 1].padEnd(40)} ${(m[i] * 1000).toFixed(0).padStart(6)} µs  ${(m[i] / m[0]).toFixed(3)}× floor${vsA}`);
    }
    if (PHASES) {
      // Each phase's median and its difference from the floor's, in µs (medians of parts do not
      // add up to the whole's exactly).
      const us = (x) => (x * 1000).toFixed(1);
      const ph = phases.map((p) => Object.fromEntries(Object.entries(p).map(([n, xs]) => [n, median(xs)])));
      for (let i = 0; i < m.length; i++) {
        const cells = Object.entries(ph[i]).map(([n, v]) => `${n} ${us(v)}${i ? ` (${v >= ph[0][n] ? '+' : ''}${us(v - ph[0][n])})` : ''}`);
        console.log(`  phases of ${(i ? names[i - 1] : 'the floor').padEnd(30)} ${cells.join('  ')}`);
      }
      if (dropped) console.log(`  (${dropped} calls without exactly one fetch with headers: no phases)`);
    }
  }
} finally {
  await emu.stop();
}
