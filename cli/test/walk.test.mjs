// A day's work with `lpm` as a school's staff does it, and the faults that walk found: each test
// is a command a staff member runs and what they expect of it (a clear message, the right exit
// code, nothing sent that should not be).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { emulatorForTests, lpm, tempDir } from './helpers.mjs';

const ctx = emulatorForTests(['--seed', 'demo', '--create-interval-secs', '0']);

/** No stack trace, no `[object Object]`, no `undefined` in what a user reads. */
function clean(text) {
  assert.doesNotMatch(text, /\n\s+at |node:internal|Unhandled 'error'|\[object Object\]|undefined/);
}

test('export --out into a missing directory or onto a directory: exit 2, said plainly, nothing left behind', async () => {
  const dir = tempDir();
  const missing = path.join(dir, 'no-such-dir', 'users.csv');
  const r = await lpm(['export', 'users', '--out', missing], { env: ctx.env });
  clean(r.stderr);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^lpm export: --out .*users\.csv: cannot write it: no such file or directory\n$/);
  const sub = path.join(dir, 'sub');
  mkdirSync(sub);
  const d = await lpm(['export', 'users', '--out', sub], { env: ctx.env });
  assert.equal(d.code, 2, d.stderr);
  assert.match(d.stderr, /^lpm export: --out .*sub: a directory; name a file in it\n$/);
  assert.ok(statSync(sub).isDirectory());
});

test('export to a reader that stops early (`| head`): exit 0, no EPIPE trace', async () => {
  let closed = false;
  const r = await lpm(['export', 'users', '--format', 'jsonl'], {
    env: ctx.env,
    onStdout: (_, child) => { if (!closed) { closed = true; child.stdout.destroy(); } },
  });
  clean(r.stderr);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /EPIPE/);
});

test('export --out a named pipe: written through it, never replaced by a file', async () => {
  const dir = tempDir();
  const fifo = path.join(dir, 'users.pipe');
  execFileSync('mkfifo', [fifo]);
  // A reader of the pipe, as `lpm export users --out >(gzip > users.csv.gz)` has.
  const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
  let got = '';
  reader.stdout.setEncoding('utf8').on('data', (d) => { got += d; });
  const read = new Promise((resolve) => reader.on('close', resolve));
  const r = await lpm(['export', 'users', '--out', fifo], { env: ctx.env });
  // (A pipe replaced by a file never gets a writer: its reader is stopped.)
  const stray = setTimeout(() => reader.kill(), 3000);
  await read;
  clearTimeout(stray);
  clean(r.stderr);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(statSync(fifo).isFIFO(), 'the pipe is still a pipe');
  assert.match(got, /^\uFEFF_id,/);
});
