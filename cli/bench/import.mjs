// The import benchmark (not part of the tests' timing): 10,000 rows through `lpm import` with the
// interval off, against the hand loop a careful user would otherwise write (hand-loop.mjs: the
// same CSV library, the same chunks of 100 with raw fetch), bare and with a journal line fsync'ed
// a chunk as lpm's journal does; side by side in one run, each a fresh process, the ratios in one
// table (goal: lpm <= 1.1x the journaled loop); and the CLI's peak RSS at 1,000 and 10,000 rows
// (memory should stay flat). A fourth program, for context: the journaled loop sending through
// node:http as lpm's own transport does (src/transport.js), where the loop the goal names uses
// fetch: how much of the gap is the transport's.
//
// Both talk to a loopback server in this process that answers at once (server.mjs).
// Usage: node cli/bench/import.mjs [ROUNDS=3] [OTHER_LPM]: OTHER_LPM another bin/lpm.js (e.g. a
// checkout of an earlier commit, built) timed in the same rounds, for a before/after.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from '../test/helpers.mjs';
import { benchServer } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rounds = Number(process.argv[2] ?? 3);
const other = process.argv[3];
const server = await benchServer();
const { base, dir, run } = server;
const csv = server.sheetOf;

const lpmRun = (file, cli = CLI) => {
  const journal = path.join(dir, 'journal');
  rmSync(journal, { force: true });
  return run([cli, 'import', file, '--journal', journal, '--interval-ms', '0', '--report', path.join(dir, 'report.csv')]);
};
const handJournal = path.join(dir, 'hand-journal');
const handRun = (file, ...more) => {
  rmSync(handJournal, { force: true });
  return run([path.join(here, 'hand-loop.mjs'), file, base, handJournal, ...more]);
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  const big = csv(10_000);
  const small = csv(1_000);
  // Each program's runs, in the order of the table; `other` only when given.
  const programs = [
    { name: 'lpm import (journal: 1 fsync a chunk, report)', run: () => lpmRun(big) },
    { name: 'hand loop, raw fetch, same CSV library and chunks', note: ' no journal', run: () => run([path.join(here, 'hand-loop.mjs'), big, base]) },
    { name: 'hand loop + a journal line a chunk, fsync (as lpm)', note: ' goal <= 1.1x', run: () => handRun(big) },
    { name: 'the same, node:http keep-alive (lpm\'s transport)', note: ' context', run: () => handRun(big, '--http') },
    ...(other ? [{ name: `other lpm: ${other}`.slice(0, 52), run: () => lpmRun(big, path.resolve(other)) }] : []),
  ].map((p) => ({ ...p, ms: [], cpu: [], rss: [] }));
  const [lpm, , durable] = programs;
  for (let i = 0; i < rounds; i++) {
    for (const p of programs) {
      const x = await p.run();
      if (x.created !== 10_000) throw new Error(`${p.name}: created ${x.created}, not 10000`);
      p.ms.push(x.ms);
      p.cpu.push(x.cpuMs);
      p.rss.push(x.rssKiB);
    }
  }
  const smallRss = (await lpmRun(small)).rssKiB;
  const handSmallRss = (await handRun(small)).rssKiB;
  const [l, lc] = [median(lpm.ms), median(lpm.cpu)];
  // CPU time (user + system of the process) beside the time: on a shared machine the time
  // varies with the load, the CPU time much less.
  const row = (name, ms, cpuMs, note = '') => `| ${name.padEnd(52)} | ${`${ms.toFixed(0)} ms`.padStart(8)} | ${`${(l / ms).toFixed(2)}x`.padStart(9)} | ${`${cpuMs.toFixed(0)} ms`.padStart(8)} | ${`${(lc / cpuMs).toFixed(2)}x`.padStart(9)} |${note}`;
  console.log(`10,000 rows, 100 calls, interval off, a loopback server answering at once (median of ${rounds}; each a fresh process)`);
  console.log(`| ${'program'.padEnd(52)} | ${'time'.padStart(8)} | ${'lpm / it'.padStart(9)} | ${'CPU'.padStart(8)} | ${'lpm / it'.padStart(9)} |`);
  console.log(`|${'-'.repeat(54)}|${'-'.repeat(10)}|${'-'.repeat(11)}|${'-'.repeat(10)}|${'-'.repeat(11)}|`);
  for (const p of programs) console.log(row(p.name, median(p.ms), median(p.cpu), p.note));
  const mib = (kib) => `${(kib / 1024).toFixed(0)} MiB`;
  const growth = (at1k, at10k) => `${mib(at1k)} at 1,000 rows, ${mib(at10k)} at 10,000 (${(at10k / at1k).toFixed(2)}x for 10x the rows)`;
  console.log(`peak RSS: lpm ${growth(smallRss, median(lpm.rss))}; the journaled hand loop ${growth(handSmallRss, median(durable.rss))}`);
} finally {
  server.close();
}
