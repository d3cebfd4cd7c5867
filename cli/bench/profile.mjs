// Where an import's time goes: one `lpm import` of N rows (or the journaled hand loop, `--hand`)
// against the benchmark's server, under `node --cpu-prof`; prints the heaviest functions (self
// and inclusive time) and a timeline of what ran in each slice of the run. Sampling inflates the
// figures (~15%); compare shares, and time with import.mjs / engine.mjs. Names in the package's
// wasm show only for a build with names kept (wasm-opt -g, without --strip-debug).
// Usage: node cli/bench/profile.mjs [ROWS=10000] [--hand] [--keep DIR] (DIR: keep the .cpuprofile
// for Chrome's DevTools).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from '../test/helpers.mjs';
import { benchServer } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const rows = Number(args.find((a) => /^\d+$/.test(a)) ?? 10_000);
const hand = args.includes('--hand');
const keep = args.includes('--keep') ? args[args.indexOf('--keep') + 1] : undefined;
const profDir = keep ?? mkdtempSync(path.join(tmpdir(), 'lpm-prof-'));
// The functions the timeline names (the outermost one on the stack wins).
const MARKS = ['readSheet', 'getMe', 'importUsers', 'send', 'handleResponse', 'poll', 'appendLines', 'writeReport', 'parse', 'fetch', 'log'];

const server = await benchServer();
try {
  const file = server.sheetOf(rows);
  const journal = path.join(server.dir, 'journal');
  const program = hand
    ? [path.join(here, 'hand-loop.mjs'), file, server.base, journal]
    : [CLI, 'import', file, '--journal', journal, '--interval-ms', '0', '--report', path.join(server.dir, 'report.csv')];
  const run = await server.run(program, ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval', '100']);
  console.log(`${hand ? 'hand loop + journal' : 'lpm import'}, ${rows} rows: ${run.ms.toFixed(0)} ms, CPU ${run.cpuMs.toFixed(0)} ms (profiled: slower than unprofiled)`);
  const p = JSON.parse(readFileSync(path.join(profDir, readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'))), 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id) => byId.get(id).callFrame.functionName || '(anonymous)';
  const where = (id) => { const f = byId.get(id).callFrame; return `${name(id)} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`; };
  const self = new Map();
  const inclusive = new Map();
  const slices = [];
  const SLICE_US = 25_000;
  let t = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i];
    t += dt;
    const leaf = p.samples[i];
    self.set(where(leaf), (self.get(where(leaf)) ?? 0) + dt);
    const seen = new Set();
    let mark = name(leaf).startsWith('(') ? name(leaf) : 'other';
    for (let cur = leaf; cur !== undefined; cur = parent.get(cur)) {
      const k = where(cur);
      if (!seen.has(k)) { seen.add(k); inclusive.set(k, (inclusive.get(k) ?? 0) + dt); }
      if (MARKS.includes(name(cur))) mark = name(cur);
    }
    const slice = (slices[Math.floor(t / SLICE_US)] ??= new Map());
    slice.set(mark, (slice.get(mark) ?? 0) + dt);
  }
  const ms = (us) => (us / 1000).toFixed(1).padStart(7);
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${ms(v)} ${k}`).join('\n');
  console.log(`\nself time (ms), top 25:\n${top(self, 25)}\n\ninclusive time (ms), top 40:\n${top(inclusive, 40)}\n\ntimeline (${SLICE_US / 1000} ms slices: what ran, ms):`);
  slices.forEach((m, i) => console.log(`${String(i * SLICE_US / 1000).padStart(5)} ${[...(m ?? [])].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`).join(', ')}`));
} finally {
  server.close();
  if (!keep) rmSync(profDir, { recursive: true, force: true });
}
