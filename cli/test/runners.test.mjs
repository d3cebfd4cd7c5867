// One runner per job (the journal's lock) and the create interval across `lpm` processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { TOKEN, emulator, emulatorForTests, readReport, goodRows, journalEvents, lpm, sheet, tempDir } from './helpers.mjs';

const HEAD = ['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'];
const ctx = emulatorForTests(['--seed', 'empty', '--create-interval-secs', '0']);


/** How many accounts hold each e-mail. */
async function countsByEmail() {
  const by = new Map();
  for (const u of (await ctx.emu.state()).records.users) for (const e of u.emails) by.set(e.address, (by.get(e.address) ?? 0) + 1);
  return by;
}

/** Resolves once `test(events)` holds for the journal's events (polled). */
async function until(journal, check, ms = 20_000) {
  const end = Date.now() + ms;
  while (!check(journalEvents(journal))) {
    if (Date.now() > end) throw new Error(`journal never reached the state: ${JSON.stringify(journalEvents(journal))}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('one runner per job: a second run of the journal is refused naming the holder (pid, host, since); a killed holder\'s stale lock is taken over; every row once', async () => {
  await ctx.emu.reset('empty');
  const dir = tempDir();
  const rows = goodRows(12, 'lock');
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, rows));
  const journal = path.join(dir, 'j.jsonl');
  const args = ['import', file, '--journal', journal, '--chunk', '4', '--interval-ms', '1500'];
  const first = lpm(args, { env: ctx.env });
  // The first chunk is out: the job waits for the next.
  await until(journal, (evs) => evs.some((e) => e.event === 'chunkOutcomes'));
  const second = await lpm([...args, '--resume'], { env: ctx.env });
  assert.equal(second.code, 2, second.stderr);
  const holder = new RegExp(`the journal .*j\\.jsonl is in use by process ${first.child.pid} on ${hostname()}, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z: one job has one runner`);
  assert.match(second.stderr, holder);
  assert.match(second.stderr, /delete .*j\.jsonl\.lock/);
  // A fresh start on the same journal (without --resume) is refused by the lock too, not by
  // "already holds a job" (which would be checked without it).
  const fresh = await lpm(args, { env: ctx.env });
  assert.equal(fresh.code, 2);
  assert.match(fresh.stderr, holder);
  // The holder dies without a word: its lock stays, stale; the next --resume takes it over.
  first.child.kill('SIGKILL');
  assert.equal((await first).signal, 'SIGKILL');
  assert.ok(existsSync(`${journal}.lock`), 'a killed runner leaves its lock');
  const done = await lpm([...args.slice(0, -1), '0', '--resume'], { env: ctx.env });
  assert.equal(done.code, 0, done.stderr);
  assert.ok(!existsSync(`${journal}.lock`), 'the lock is removed when the command ends');
  const counts = await countsByEmail();
  for (const r of rows) assert.equal(counts.get(r[2]), 1, r[2]);
  assert.equal(readReport(path.join(dir, 's.report.csv')).filter((l) => l.result === 'created').length, 12);
});

test('two runners started at once on one journal: one runs, the other is refused; nothing is sent twice', async () => {
  await ctx.emu.reset('empty');
  const dir = tempDir();
  const rows = goodRows(6, 'race');
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, rows));
  const journal = path.join(dir, 'j.jsonl');
  const args = ['import', file, '--journal', journal, '--chunk', '3', '--interval-ms', '0'];
  const [a, b] = await Promise.all([lpm(args, { env: ctx.env }), lpm(args, { env: ctx.env })]);
  const codes = [a.code, b.code].sort();
  assert.deepEqual(codes, [0, 2], `${a.stderr}\n${b.stderr}`);
  // Refused by the lock while the other runs, or, where the other had already ended on a loaded
  // machine, by the journal it left: either way nothing is sent twice.
  assert.match((a.code === 2 ? a : b).stderr, /is in use by process \d+ on |already holds a job/);
  assert.equal((await ctx.emu.control('GET', 'create-calls')).calls.length, 2);
});

test('a lock held on another host, or one that names no runner, is refused with the file to delete; nothing is sent', async () => {
  await ctx.emu.reset('empty');
  const dir = tempDir();
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, goodRows(2, 'far')));
  const journal = path.join(dir, 'j.jsonl');
  const args = ['import', file, '--journal', journal, '--interval-ms', '0'];
  const seeded = (await ctx.emu.state()).records.users.length;
  // Another host's process cannot be checked from here, whatever its pid.
  writeFileSync(`${journal}.lock`, JSON.stringify({ pid: 999999, host: 'elsewhere.example', since: '2026-01-02T03:04:05.000Z' }));
  const far = await lpm(args, { env: ctx.env });
  assert.equal(far.code, 2);
  assert.match(far.stderr, /in use by process 999999 on elsewhere\.example, since 2026-01-02T03:04:05\.000Z/);
  writeFileSync(`${journal}.lock`, 'garbage');
  const junk = await lpm(args, { env: ctx.env });
  assert.equal(junk.code, 2);
  assert.match(junk.stderr, /in use by a lock file that names no runner.*delete .*j\.jsonl\.lock/);
  assert.equal((await ctx.emu.state()).records.users.length, seeded);
  assert.equal(readFileSync(`${journal}.lock`, 'utf8'), 'garbage', 'another\'s lock is left as it is');
});

test('two imports against one platform and token, with two journals, at once: their creates keep the interval between them', async () => {
  const spaced = await emulator(['--seed', 'empty', '--create-interval-secs', '1']);
  try {
    const dir = tempDir();
    // One user: one HOME, so one store of intervals (as two terminals of one account share it).
    const shared = { LPM_BASE_URL: spaced.url, LPM_TOKEN: TOKEN, HOME: dir };
    const run = (name) => {
      const file = path.join(dir, `${name}.csv`);
      writeFileSync(file, sheet(HEAD, goodRows(6, name)));
      return lpm(['import', file, '--journal', path.join(dir, `${name}.jsonl`), '--chunk', '2', '--interval-ms', '1000'], { env: shared });
    };
    const [a, b] = await Promise.all([run('alpha'), run('beta')]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const log = await spaced.control('GET', 'create-calls');
    assert.equal(log.calls.length, 6);
    assert.deepEqual(log.violations, [], 'no two creates closer than the interval');
    assert.ok(existsSync(path.join(dir, '.local/state/lpm/intervals.json')));
    assert.ok(!readFileSync(path.join(dir, '.local/state/lpm/intervals.json'), 'utf8').includes(TOKEN));
  } finally {
    await spaced.stop();
  }
});

test('the shared store: the read that lets a create go reserves the slot; another process waits; a create counts from when it left, plus a margin', async () => {
  const { sharedIntervalStore, marginMs } = await import('../src/intervals.js');
  const file = path.join(tempDir(), 'state', 'intervals.json');
  let t = 1_000_000;
  const now = () => t;
  const a = sharedIntervalStore(file, 1000, { now });
  const b = sharedIntervalStore(file, 1000, { now });
  const margin = marginMs(1000);
  assert.equal(margin, 20);
  assert.equal(await a.get('k'), undefined, 'nothing yet: a may send, and holds the slot');
  assert.equal(await a.get('k'), undefined, 'its own reservation does not hold a back');
  assert.equal(await b.get('k'), 1_000_000, 'b sees a\'s reservation: it waits an interval from it');
  await a.set('k', 1_000_010);
  a.left(1_000_400); // the request's last byte left 390 ms after the record
  t = 1_001_100;
  assert.equal(await b.get('k'), 1_000_400 + margin, 'counted from when it left, plus the margin');
  assert.equal(await a.get('k'), 1_000_400 + margin, 'for a too');
  t = 1_001_500;
  assert.equal(await b.get('k'), 1_000_400 + margin, 'the interval passed: b may send (and reserves)');
  assert.equal(await a.get('k'), 1_001_500, 'a now waits for b\'s reservation');
  assert.equal(await b.get('k'), undefined);
  // Other keys (another platform or token) are apart.
  assert.equal(await b.get('other'), undefined);
  // A file that is not ours is not trusted: every key counts as sent now.
  writeFileSync(file, 'not json');
  assert.equal(await a.get('k'), t + margin);
  assert.equal(marginMs(600_000), 5000);
});

test('without an interval, the shared store holds no create back: no margin either', async () => {
  const { sharedIntervalStore, marginMs } = await import('../src/intervals.js');
  assert.equal(marginMs(0), 0);
  let t = 1_000_000;
  const store = sharedIntervalStore(path.join(tempDir(), 'state', 'intervals.json'), 0, { now: () => t });
  assert.equal(await store.get('k'), undefined);
  await store.set('k', t);
  store.left(t);
  // The next chunk, at once: the time it is answered lets it go now (the client waits for none).
  assert.ok((await store.get('k')) <= t, 'a create with no interval waits for nothing');
});

test('the transport tells when a request has left: after its last byte is written, not when it was handed over', async () => {
  const { createServer } = await import('node:http');
  const { httpFetch } = await import('../src/transport.js');
  // A server that starts reading the body 400 ms late: a large body leaves only then.
  const server = createServer((req, res) => {
    req.pause();
    setTimeout(() => { req.resume(); req.on('end', () => res.end('{}')); }, 400);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const started = Date.now();
    let sent;
    const res = await httpFetch(`http://127.0.0.1:${server.address().port}/x`, { method: 'POST', body: 'x'.repeat(32 * 1024 * 1024), onSent: (at) => { sent = at; } });
    assert.equal(res.status, 200);
    assert.ok(sent - started >= 350, `left ${sent - started} ms after the call`);
  } finally {
    await new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); });
  }
});
