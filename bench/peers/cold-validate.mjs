// The validators-only entry's start-up, alone and quick: new processes of cold.mjs (import, then
// the first validateCreateUsers of 100 accounts) for lpm-client, lpm-client/validate and the
// valibot client, interleaved; prints each one's median and the ratios (goal, issue 37:
// lpm-client/validate ≤ 0.6× lpm-client). run.mjs measures the same among all its figures.
//   node bench/peers/cold-validate.mjs [pkg dir] (runs: BENCH_COLD_RUNS, default 21)
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(process.argv[2] ?? path.join(here, '../../pkg'));
const runs = Number(process.env.BENCH_COLD_RUNS ?? 21);
const which = ['lpm', 'validate', 'valibot'];
const times = Object.fromEntries(which.map((w) => [w, []]));
for (let r = 0; r < runs; r++) {
  for (const w of r % 2 ? [...which].reverse() : which) {
    const p = spawnSync(process.execPath, [path.join(here, 'cold.mjs'), w, pkgDir], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`${w}: ${p.stderr}`);
    times[w].push(JSON.parse(p.stdout).totalMs);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const ratio = (a, b) => median(times[a].map((v, i) => v / times[b][i]));
for (const w of which) console.log(`${w.padEnd(9)} import + 1st validate: ${median(times[w]).toFixed(2)} ms (median of ${runs})`);
console.log(`validate / lpm:     ${ratio('validate', 'lpm').toFixed(2)}× (goal ≤ 0.60)`);
console.log(`validate / valibot: ${ratio('validate', 'valibot').toFixed(2)}×`);
