// Exit codes as the README's table says, for the ways a job stops that are not the rows' fault:
// a token refused mid-job or without permission (3), a server that closes on a large create
// (4, report written), a journal the disk cannot take (4, not usage).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, DEMO, emulatorForTests, readReport, goodRows, journalEvents, lpm, sheet, tempDir } from './helpers.mjs';

const HEAD = ['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'];
const ctx = emulatorForTests(['--seed', 'demo', '--create-interval-secs', '0']);


test('a token refused mid-job (expired) exits 3, report written, and --resume finishes once it is accepted', async () => {
  await ctx.emu.reset('empty');
  const dir = tempDir();
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, goodRows(6, 'expire')));
  const args = ['import', file, '--journal', path.join(dir, 'j'), '--chunk', '3', '--interval-ms', '0'];
  // getMe passes; the first create is answered as the platform answers an expired token (08).
  await ctx.emu.control('POST', 'faults', { endpoint: 'create-multi-user', kind: 'respcode', respCode: '08', msg: 'Invalid token or Token has expired', status: 401, count: 1 });
  const r = await lpm(args, { env: ctx.env });
  await ctx.emu.control('DELETE', 'faults');
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /stopped before the end: .*fix the token .*--resume/);
  assert.equal(readReport(path.join(dir, 's.report.csv')).length, 6);
  const done = await lpm([...args, '--resume'], { env: ctx.env });
  assert.equal(done.code, 0, done.stderr);
});

// (On --resume: sync-runner.test.mjs, where the journal holds a chunk sent with another token.)
test('a token without permission to create exits 3 on a run, not 4, before the journal holds anything', async () => {
  await ctx.emu.reset('demo');
  const dir = tempDir();
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, goodRows(2, 'noperm')));
  const args = ['import', file, '--journal', path.join(dir, 'j'), '--interval-ms', '0'];
  const user = { ...ctx.env, LPM_TOKEN: DEMO.userToken };
  const r = await lpm(args, { env: user });
  assert.equal(r.code, 3, r.stderr);
  assert.ok(!r.stderr.includes(DEMO.userToken));
  // Found before anything was sent: nothing to resume, the same command is run again.
  const again = await lpm(args, { env: user });
  assert.equal(again.code, 3, again.stderr);
});

test('a create the server answers before reading it and then closes (over 8 MiB): no crash; exit 4, report written; --resume the same', async () => {
  await ctx.emu.reset('empty');
  const dir = tempDir();
  const file = path.join(dir, 'big.csv');
  // 100 rows of ~90 KB each: one create of ~9 MiB, above the emulator's 8 MiB.
  const street = 'Số 1 đường Rất Dài '.repeat(4800);
  const rows = goodRows(100, 'big').map((r) => [...r, street]);
  writeFileSync(file, sheet([...HEAD, 'Địa chỉ'], rows));
  const args = ['import', file, '--journal', path.join(dir, 'j'), '--interval-ms', '0', '--retry-delay-ms', '0'];
  for (const resume of [[], ['--resume']]) {
    const r = await lpm([...args, ...resume], { env: ctx.env });
    assert.equal(r.code, 4, `exit ${r.code}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /Unhandled|ECONNRESET\n\s+at /);
    assert.match(r.stderr, /stopped before the end: .*--resume/);
    assert.equal(readReport(path.join(dir, 'big.report.csv')).length, 100);
  }
  // A failure like any other, journaled: the answer read (the emulator's "No request body", a
  // refusal: nothing created, nothing to look up), or the connection broken before it (rows in
  // doubt, looked up before anything is sent again).
  const events = journalEvents(path.join(dir, 'j'));
  assert.ok(events.some((e) => e.event === 'chunkRefused' || e.event === 'rowsInDoubt'), JSON.stringify(events.map((e) => e.event)));
});

test('a journal the disk cannot take (a file size limit: EFBIG, as ENOSPC) exits 4 with what to do, not 2; --resume finishes', async () => {
  await ctx.emu.reset('empty');
  const dir = tempDir();
  const file = path.join(dir, 's.csv');
  const rows = goodRows(40, 'fulldisk');
  writeFileSync(file, sheet(HEAD, rows));
  const journal = path.join(dir, 'j');
  const args = ['import', file, '--journal', journal, '--chunk', '5', '--interval-ms', '0'];
  // `ulimit -f 2`: no file of the process grows past 2 KiB (Node ignores SIGXFSZ: the write fails).
  const child = spawn('bash', ['-c', 'ulimit -f 2; exec "$0" "$@"', process.execPath, CLI, ...args], {
    env: { PATH: process.env.PATH, HOME: dir, ...ctx.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 4, stderr);
  assert.match(stderr, /journal.*EFBIG.*free the space or fix the file, then run the same command with --resume/);
  assert.ok(existsSync(journal));
  const done = await lpm([...args, '--resume'], { env: { ...ctx.env, HOME: dir } });
  assert.equal(done.code, 0, done.stderr);
  assert.equal(readReport(path.join(dir, 's.report.csv')).filter((l) => l.result === 'created').length, 40);
});
