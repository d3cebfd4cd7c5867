// The import benchmark (not part of the tests' timing): 10,000 rows through `lpm import` with the
// interval off, against a hand loop of raw fetch calls doing the same chunks of 100
// (hand-loop.mjs), side by side in one run, each a fresh process on an emptied emulator; and the
// CLI's peak RSS at 1,000 and 10,000 rows (memory should stay flat). Prints the figures and
// the ratio (goal: lpm <= 1.1x the hand loop).
// Usage: node cli/bench/import.mjs [ROUNDS=3]
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, TOKEN, emulator, goodRows, sheet, tempDir } from '../test/helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rounds = Number(process.argv[2] ?? 3);
const dir = tempDir();
const emu = await emulator(['--seed', 'empty', '--create-interval-secs', '0', '--capacity', '100000']);
const env = { ...process.env, LPM_BASE_URL: emu.url, LPM_TOKEN: TOKEN };

function csv(n) {
  const file = path.join(dir, `rows-${n}.csv`);
  writeFileSync(file, sheet(['name', 'username', 'email', 'password'], goodRows(n, `bench${n}x`)));
  return file;
}

/** Runs a node script on an emptied emulator; { ms, rssKiB }. */
async function run(args) {
  await emu.reset('empty');
  const rss = path.join(dir, 'rss');
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', path.join(here, 'rss.mjs'), ...args], {
    env: { ...env, LPM_BENCH_RSS: rss }, encoding: 'utf8',
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  const users = (await emu.control('GET', 'state')).accounts;
  return { ms, rssKiB: Number(readFileSync(rss, 'utf8')), users };
}

const lpmRun = (file) => {
  const journal = path.join(dir, 'journal');
  rmSync(journal, { force: true });
  return run([CLI, 'import', file, '--journal', journal, '--interval-ms', '0', '--report', path.join(dir, 'report.csv')]);
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  const big = csv(10_000);
  const small = csv(1_000);
  const lpmMs = [];
  const handMs = [];
  const rss = [];
  for (let i = 0; i < rounds; i++) {
    const a = await lpmRun(big);
    const b = await run([path.join(here, 'hand-loop.mjs'), big, emu.url]);
    if (a.users !== 10_000 || b.users !== 10_000) throw new Error(`created ${a.users} / ${b.users}, not 10000`);
    lpmMs.push(a.ms);
    handMs.push(b.ms);
    rss.push(a.rssKiB);
  }
  const smallRss = (await lpmRun(small)).rssKiB;
  const [l, h] = [median(lpmMs), median(handMs)];
  console.log(`lpm import, 10,000 rows, 100 calls, interval off: ${l.toFixed(0)} ms (median of ${rounds}; process start included)`);
  console.log(`hand loop of raw fetch, same chunks:            ${h.toFixed(0)} ms`);
  console.log(`ratio lpm / hand loop: ${(l / h).toFixed(2)}x (goal <= 1.1x)`);
  console.log(`lpm peak RSS: ${(smallRss / 1024).toFixed(0)} MiB at 1,000 rows, ${(median(rss) / 1024).toFixed(0)} MiB at 10,000 rows (${(median(rss) / smallRss).toFixed(2)}x for 10x the rows)`);
} finally {
  await emu.stop();
}
