// `lpm sync` under the runner import and grant have: one runner per journal, the create interval
// shared with every lpm process of the user (an import and a sync, or two syncs, on one site),
// a token refused by its look-ups exits 3, a token without permission is found before any create
// of an import's resume, and a conflict counts as one (a second sync then has nothing to send).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { DEMO, TOKEN, emulator, emulatorForTests, goodRows, lpm, readReport, sheet, tempDir } from './helpers.mjs';

const HEAD = ['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'];
const ctx = emulatorForTests(['--seed', 'demo', '--create-interval-secs', '0']);

/** A course id of the platform. */
async function courseOf(emu) {
  return (await emu.state()).records.courses[0]._id;
}

test('two syncs on one journal: the second is refused naming the runner; nothing is created twice', async () => {
  await ctx.emu.reset('demo');
  const dir = tempDir();
  const rows = goodRows(6, 'twosync');
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, rows));
  const journal = path.join(dir, 's.sync');
  const args = ['sync', file, '--courses', await courseOf(ctx.emu), '--journal', journal, '--chunk', '2', '--interval-ms', '1500'];
  const first = lpm(args, { env: ctx.env });
  // The first chunk is created: the sync waits for the next.
  const calls0 = (await ctx.emu.control('GET', 'create-calls')).calls.length;
  for (let t = 0; (await ctx.emu.control('GET', 'create-calls')).calls.length === calls0; t++) {
    assert.ok(t < 2000, 'the first sync never created');
    await new Promise((r) => setTimeout(r, 10));
  }
  for (const again of [args, [...args, '--resume']]) {
    const second = await lpm(again, { env: ctx.env });
    assert.equal(second.code, 2, second.stderr);
    assert.match(second.stderr, new RegExp(`is in use by process ${first.child.pid} on .*: one job has one runner`));
  }
  const r = await first;
  assert.equal(r.code, 0, r.stderr);
  const users = (await ctx.emu.state()).records.users;
  for (const [, , email] of rows) assert.equal(users.filter((u) => u.emails.some((e) => e.address === email)).length, 1, email);
});

test('an import and a sync, and two syncs, on one site at once: their creates keep the interval between them', async () => {
  const spaced = await emulator(['--seed', 'demo', '--create-interval-secs', '1']);
  try {
    const dir = tempDir();
    // One user: one HOME, so one store of intervals.
    const shared = { LPM_BASE_URL: spaced.url, LPM_TOKEN: TOKEN, HOME: dir };
    const course = await courseOf(spaced);
    const run = (cmd, name) => {
      const file = path.join(dir, `${name}.csv`);
      writeFileSync(file, sheet(HEAD, goodRows(4, name)));
      const extra = cmd === 'sync' ? ['--courses', course] : [];
      return lpm([cmd, file, ...extra, '--journal', path.join(dir, `${name}.j`), '--chunk', '2', '--interval-ms', '1000'], { env: shared });
    };
    const results = await Promise.all([run('import', 'imp'), run('sync', 'syn'), run('sync', 'other')]);
    for (const r of results) assert.equal(r.code, 0, r.stdout + r.stderr);
    const log = await spaced.control('GET', 'create-calls');
    assert.equal(log.calls.length, 6);
    assert.deepEqual(log.violations, [], 'no two creates closer than the interval');
  } finally {
    await spaced.stop();
  }
});

test('a dry run whose look-ups are refused says so and exits 3, not a TypeError', async () => {
  await ctx.emu.reset('demo');
  const dir = tempDir();
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, goodRows(2, 'drysync')));
  const args = ['sync', file, '--courses', await courseOf(ctx.emu), '--dry-run'];
  await ctx.emu.control('POST', 'faults', { endpoint: 'search-user', kind: 'respcode', respCode: '08', msg: 'Invalid token or Token has expired', status: 401, count: 1 });
  const r = await lpm(args, { env: ctx.env });
  await ctx.emu.control('DELETE', 'faults');
  assert.equal(r.code, 3, r.stdout + r.stderr);
  assert.match(r.stderr, /stopped before the plan: .*nothing was sent: fix the token/);
  assert.doesNotMatch(r.stderr, /TypeError|Cannot read/);
});

test('a token refused by the look-ups of a sync exits 3, report written; run again once it is accepted', async () => {
  await ctx.emu.reset('demo');
  const dir = tempDir();
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, goodRows(4, 'expiresync')));
  const args = ['sync', file, '--courses', await courseOf(ctx.emu), '--journal', path.join(dir, 'j'), '--interval-ms', '0'];
  await ctx.emu.control('POST', 'faults', { endpoint: 'search-user', kind: 'respcode', respCode: '08', msg: 'Invalid token or Token has expired', status: 401, count: 1 });
  const r = await lpm(args, { env: ctx.env });
  await ctx.emu.control('DELETE', 'faults');
  assert.equal(r.code, 3, r.stdout + r.stderr);
  // Refused before the plan: nothing was sent, the same command runs it again.
  assert.match(r.stderr, /stopped before the end: .*fix the token .*nothing was sent: run the same command again/);
  assert.equal(readReport(path.join(dir, 's.sync.csv')).length, 4);
  const done = await lpm(args, { env: ctx.env });
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.match(done.stdout, /^4 rows: 0 existed, 4 created, 4 granted courses/m);
});

test('an import resumed with a token without permission exits 3 before any create reaches the platform', async () => {
  await ctx.emu.reset('demo');
  // A proxy in front of the platform counts the create calls that reach it, refused ones too.
  let creates = 0;
  const proxy = http.createServer((req, res) => {
    if (req.url.includes('create-multi-user')) creates += 1;
    const target = new URL(req.url, ctx.env.LPM_BASE_URL);
    const out = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise((resolve) => { proxy.listen(0, '127.0.0.1', resolve); });
  try {
    const base = new URL(ctx.env.LPM_BASE_URL);
    const env = { ...ctx.env, LPM_BASE_URL: `http://127.0.0.1:${proxy.address().port}${base.pathname}` };
    const dir = tempDir();
    const file = path.join(dir, 's.csv');
    writeFileSync(file, sheet(HEAD, goodRows(4, 'permresume')));
    const args = ['import', file, '--journal', path.join(dir, 'j'), '--chunk', '2', '--interval-ms', '0'];
    // Half the job, then it is stopped: the journal holds a finished chunk.
    await ctx.emu.control('POST', 'capacity', { capacity: (await ctx.emu.control('GET', 'state')).accounts + 2 });
    const half = await lpm(args, { env });
    await ctx.emu.control('POST', 'capacity', { capacity: 1_000_000 });
    assert.notEqual(half.code, 0, half.stderr);
    const sent = creates;
    const r = await lpm([...args, '--resume'], { env: { ...env, LPM_TOKEN: DEMO.userToken } });
    assert.equal(r.code, 3, r.stderr);
    assert.equal(creates, sent, 'no create was sent with the token without permission');
  } finally {
    proxy.close();
  }
});

test('an import whose look-ups of rows in doubt find the token refused exits 3, not 4', async () => {
  await ctx.emu.reset('demo');
  const dir = tempDir();
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, goodRows(2, 'lookupexpired')));
  const args = ['import', file, '--journal', path.join(dir, 'j'), '--interval-ms', '0', '--retry-delay-ms', '0'];
  // The create's answer is lost: its rows are looked up, and the platform refuses the token.
  await ctx.emu.control('POST', 'faults', { endpoint: 'create-multi-user', kind: 'drop', count: 1 });
  await ctx.emu.control('POST', 'faults', { endpoint: 'search-user', kind: 'respcode', respCode: '08', msg: 'Invalid token or Token has expired', status: 401, count: 10 });
  const r = await lpm(args, { env: ctx.env });
  await ctx.emu.control('DELETE', 'faults');
  assert.equal(r.code, 3, r.stdout + r.stderr);
  assert.match(r.stderr, /stopped before the end: .*fix the token .*--resume/);
  const done = await lpm([...args, '--resume'], { env: ctx.env });
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.equal(readReport(path.join(dir, 's.report.csv')).filter((l) => l.result === 'created').length, 2);
});

test('a sync counts a row whose username is another person\'s as a conflict, and a second sync says nothing to send', async () => {
  await ctx.emu.reset('demo');
  const { records } = await ctx.emu.state();
  const other = records.users.find((u) => u.emails?.length && u.username);
  const dir = tempDir();
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, [...goodRows(2, 'conflictsync'), ['Người Khác', other.username, 'not-them@school.test', 'mat-khau-1']]));
  const args = ['sync', file, '--courses', await courseOf(ctx.emu), '--journal', path.join(dir, 'j'), '--interval-ms', '0'];
  const first = await lpm(args, { env: ctx.env });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  assert.match(first.stdout, /^3 rows: 0 existed, 2 created, 2 granted courses, \d+ hold other courses, 0 set aside, 1 conflicts, 0 failed; /m);
  const second = await lpm(args, { env: ctx.env });
  assert.equal(second.code, 1, second.stdout + second.stderr);
  assert.match(second.stdout, /^nothing to send: every account exists and holds the courses, but for the 1 row whose e-mail or username is another person's$/m);
});
