// How a job stops on a full disk and on SIGHUP: the journal's disk full mid-job still writes the
// report (exit 4); a disk full at the start exits 4 and leaves no temporary lock file; SIGHUP (the
// terminal closed) stops as SIGINT does: report written, lock released, exit 130.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, emulatorForTests, goodRows, journalEvents, lpm, readReport, sheet, tempDir } from './helpers.mjs';

const HEAD = ['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'];
const ctx = emulatorForTests(['--seed', 'empty', '--create-interval-secs', '0']);

/** Runs `lpm ...args` with no file growing past `kib` KiB (`ulimit -f`; Node ignores SIGXFSZ, so
 * the write fails with EFBIG, as on a full disk). Resolves { code, stderr }. */
function limited(kib, args, env) {
  const child = spawn('bash', ['-c', `ulimit -f ${kib}; exec "$0" "$@"`, process.execPath, CLI, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
  return new Promise((resolve) => { child.on('close', (code) => resolve({ code, stderr })); });
}

test('the journal\'s disk full mid-job: exit 4, and the report is written where it can be', async () => {
  await ctx.emu.reset('empty');
  const dir = tempDir();
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, goodRows(12, 'fullmid')));
  const journal = path.join(dir, 'j');
  const args = ['import', file, '--journal', journal, '--chunk', '3', '--interval-ms', '0'];
  // The journal outgrows 2 KiB after a few chunks; the report of 12 rows does not.
  const r = await limited(2, args, { ...ctx.env, HOME: dir });
  assert.equal(r.code, 4, r.stderr);
  assert.ok(journalEvents(journal).some((e) => e.event === 'chunkOutcomes'), 'chunks went before the disk filled');
  assert.equal(readReport(path.join(dir, 's.report.csv')).length, 12, 'the report is written');
  const done = await lpm([...args, '--resume'], { env: { ...ctx.env, HOME: dir } });
  assert.equal(done.code, 0, done.stderr);
});

test('a disk full at the start: exit 4 with what to do, no temporary lock file left', async () => {
  await ctx.emu.reset('empty');
  const dir = tempDir();
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, goodRows(2, 'fullstart')));
  const r = await limited(0, ['import', file, '--journal', path.join(dir, 'j'), '--interval-ms', '0'], { ...ctx.env, HOME: dir });
  assert.equal(r.code, 4, r.stderr);
  assert.match(r.stderr, /cannot create its lock file .*free the space/);
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
});

test('SIGHUP stops a job as SIGINT does: report written, lock released, exit 130', async () => {
  await ctx.emu.reset('empty');
  const dir = tempDir();
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, goodRows(6, 'hup')));
  const journal = path.join(dir, 'j');
  const run = lpm(['import', file, '--journal', journal, '--chunk', '2', '--interval-ms', '60000'], { env: ctx.env });
  while (!journalEvents(journal).some((e) => e.event === 'chunkOutcomes')) await new Promise((r) => setTimeout(r, 20));
  run.child.kill('SIGHUP');
  const r = await run;
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /SIGHUP: stopping/);
  assert.equal(readReport(path.join(dir, 's.report.csv')).length, 6);
  assert.ok(!existsSync(`${journal}.lock`), 'the lock is released');
});
