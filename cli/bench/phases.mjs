// Where an `lpm import`'s time goes between its calls: one import of N rows against the
// benchmark's server (server.mjs) with phase-hook.mjs loaded, then, for each step from one event
// to the next (a request to its answer's head, the answer's end to the next journal write, the
// write to its sync, ...), how many times it happened, its total and its median; and the time
// before the first call and after the last answer. Unprofiled, so the times are the process's own.
// Usage: node cli/bench/phases.mjs [ROWS=10000]
import path from 'node:path';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLI } from '../test/helpers.mjs';
import { benchServer } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rows = Number(process.argv[2] ?? 10_000);
const server = await benchServer();
try {
  const file = server.sheetOf(rows);
  server.env.LPM_PHASE = path.join(server.dir, 'phases.json');
  const journal = path.join(server.dir, 'journal');
  rmSync(journal, { force: true });
  const run = await server.run([CLI, 'import', file, '--journal', journal, '--interval-ms', '0', '--report', path.join(server.dir, 'report.csv')],
    ['--import', path.join(here, 'phase-hook.mjs')]);
  const events = JSON.parse(readFileSync(server.env.LPM_PHASE, 'utf8'));
  const steps = new Map();
  for (let i = 1; i < events.length; i++) {
    const key = `${events[i - 1][0]} -> ${events[i][0]}`;
    if (!steps.has(key)) steps.set(key, []);
    steps.get(key).push(events[i][1] - events[i - 1][1]);
  }
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const first = events.find(([n]) => n === 'request');
  const last = events.filter(([n]) => n === 'end').at(-1);
  console.log(`lpm import, ${rows} rows: ${run.ms.toFixed(0)} ms (process), ${run.cpuMs.toFixed(0)} ms CPU`);
  console.log(`  first call sent at ${first[1].toFixed(0)} ms (start-up, the sheet; get-me goes first), the last answer's end at ${last[1].toFixed(0)} ms, exit at ${events.at(-1)[1].toFixed(0)} ms`);
  console.log(`  ${'step'.padEnd(28)} ${'times'.padStart(6)} ${'total ms'.padStart(9)} ${'median ms'.padStart(10)}`);
  for (const [key, xs] of [...steps].sort((a, b) => sum(b[1]) - sum(a[1]))) {
    console.log(`  ${key.padEnd(28)} ${String(xs.length).padStart(6)} ${sum(xs).toFixed(1).padStart(9)} ${median(xs).toFixed(3).padStart(10)}`);
  }
} finally {
  server.close();
}
