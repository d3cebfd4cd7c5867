// The import benchmark (not part of the tests' timing): 10,000 rows through `lpm import` with the
// interval off, against the hand loop a careful user would otherwise write (hand-loop.mjs: the
// same CSV library, the same chunks of 100 with raw fetch), bare and with a journal line fsync'ed
// a chunk as lpm's journal does; side by side in one run, each a fresh process, the ratios in one
// table (goal: lpm <= 1.1x the journaled loop); and the CLI's peak RSS at 1,000 and 10,000 rows
// (memory should stay flat).
//
// Both talk to a loopback server in this process that answers at once: get-me with the
// emulator's own answer, create-multi-user as the emulator does (each item echoed, `success`,
// an id). Not the emulator itself: it checks each new account against every existing one, so
// 10,000 rows take it about 60 s (release build), which would hide the client's cost.
// Usage: node cli/bench/import.mjs [ROUNDS=3] [OTHER_LPM]: OTHER_LPM another bin/lpm.js (e.g. a
// checkout of an earlier commit, built) timed in the same rounds, for a before/after.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, TOKEN, emulator, goodRows, sheet, tempDir } from '../test/helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rounds = Number(process.argv[2] ?? 3);
const other = process.argv[3];
const dir = tempDir();

// The emulator's get-me answer, replayed.
const emu = await emulator(['--seed', 'demo']);
const getMe = await (await fetch(`${emu.url}/manage/api/users/get-me?token=${TOKEN}`)).text();
await emu.stop();

let created = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url, 'http://x');
    let body;
    if (url.searchParams.get('token') !== TOKEN) body = '{"respCode":"01","msg":"Invalid token"}';
    else if (url.pathname === '/manage/api/users/get-me') body = getMe;
    else if (url.pathname === '/manage/api/users/create-multi-user') {
      const { users } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const items = users.map((u) => ({ ...u, status: 'Success created', success: true, userId: `u${String(created++).padStart(16, '0')}` }));
      body = JSON.stringify({ msg: `${items.length} success, 0 error`, respCode: '00', users: items });
    } else body = '{"respCode":"99","msg":"not served here"}';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;
const env = { ...process.env, LPM_BASE_URL: base, LPM_TOKEN: TOKEN };

function csv(n) {
  const file = path.join(dir, `rows-${n}.csv`);
  writeFileSync(file, sheet(['name', 'username', 'email', 'password'], goodRows(n, `bench${n}x`)));
  return file;
}

/** Runs a node script; { ms, rssKiB, cpuMs, created }. */
function run(args) {
  created = 0;
  const rss = path.join(dir, 'rss');
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    // Asynchronous: this process serves the requests meanwhile.
    import('node:child_process').then(({ spawn }) => {
      const child = spawn(process.execPath, ['--import', path.join(here, 'rss.mjs'), ...args], { env: { ...env, LPM_BENCH_RSS: rss }, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => { err += d; });
      child.on('close', (code) => {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (code !== 0) return reject(new Error(`${args.join(' ')}: exit ${code}\n${err}`));
        const [rssKiB, cpuUs] = readFileSync(rss, 'utf8').split(' ').map(Number);
        resolve({ ms, rssKiB, cpuMs: cpuUs / 1000, created });
      });
    });
  });
}

const lpmRun = (file, cli = CLI) => {
  const journal = path.join(dir, 'journal');
  rmSync(journal, { force: true });
  return run([cli, 'import', file, '--journal', journal, '--interval-ms', '0', '--report', path.join(dir, 'report.csv')]);
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  const big = csv(10_000);
  const small = csv(1_000);
  const lpmMs = [];
  const handMs = [];
  const durableMs = [];
  const rss = [];
  const cpu = [[], [], [], []];
  const otherMs = [];
  const handJournal = path.join(dir, 'hand-journal');
  for (let i = 0; i < rounds; i++) {
    const a = await lpmRun(big);
    const b = await run([path.join(here, 'hand-loop.mjs'), big, base]);
    rmSync(handJournal, { force: true });
    const c = await run([path.join(here, 'hand-loop.mjs'), big, base, handJournal]);
    const o = other ? await lpmRun(big, path.resolve(other)) : undefined;
    for (const x of [a, b, c, o]) if (x && x.created !== 10_000) throw new Error(`created ${x.created}, not 10000`);
    if (o) {
      otherMs.push(o.ms);
      cpu[3].push(o.cpuMs);
    }
    [a, b, c].forEach((x, k) => cpu[k].push(x.cpuMs));
    lpmMs.push(a.ms);
    handMs.push(b.ms);
    durableMs.push(c.ms);
    rss.push(a.rssKiB);
  }
  const smallRss = (await lpmRun(small)).rssKiB;
  const [l, h, d] = [median(lpmMs), median(handMs), median(durableMs)];
  const [lc, hc, dc] = cpu.slice(0, 3).map(median);
  // CPU time (user + system of the process) beside the time: on a shared machine the time
  // varies with the load, the CPU time much less.
  const row = (name, ms, cpuMs, note = '') => `| ${name.padEnd(52)} | ${`${ms.toFixed(0)} ms`.padStart(8)} | ${`${(l / ms).toFixed(2)}x`.padStart(9)} | ${`${cpuMs.toFixed(0)} ms`.padStart(8)} | ${`${(lc / cpuMs).toFixed(2)}x`.padStart(9)} |${note}`;
  console.log(`10,000 rows, 100 calls, interval off, a loopback server answering at once (median of ${rounds}; each a fresh process)`);
  console.log(`| ${'program'.padEnd(52)} | ${'time'.padStart(8)} | ${'lpm / it'.padStart(9)} | ${'CPU'.padStart(8)} | ${'lpm / it'.padStart(9)} |`);
  console.log(`|${'-'.repeat(54)}|${'-'.repeat(10)}|${'-'.repeat(11)}|${'-'.repeat(10)}|${'-'.repeat(11)}|`);
  console.log(row('lpm import (journal: 1 fsync a chunk, report)', l, lc));
  console.log(row('hand loop, raw fetch, same CSV library and chunks', h, hc, ' no journal'));
  console.log(row('hand loop + a journal line a chunk, fsync (as lpm)', d, dc, ' goal <= 1.1x'));
  if (other) console.log(row(`other lpm: ${other}`.slice(0, 52), median(otherMs), median(cpu[3])));
  console.log(`lpm peak RSS: ${(smallRss / 1024).toFixed(0)} MiB at 1,000 rows, ${(median(rss) / 1024).toFixed(0)} MiB at 10,000 rows (${(median(rss) / smallRss).toFixed(2)}x for 10x the rows)`);
} finally {
  server.close();
}
