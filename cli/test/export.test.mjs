// `lpm export` against a server that pages wrongly: the same full page for every `start` (the
// export used to grow without end), and pages that overlap (records exported twice).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { emulatorForTests, goodRows, lpm, sheet, tempDir } from './helpers.mjs';

const ctx = emulatorForTests(['--seed', 'empty', '--create-interval-secs', '0']);
/** Accounts on the server: more than two full pages. */
const ACCOUNTS = 250;

test('setup: accounts on the server', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'a.csv');
  writeFileSync(file, sheet(['name', 'username', 'email', 'password'], goodRows(ACCOUNTS, 'pager')));
  const r = await lpm(['import', file, '--journal', path.join(dir, 'j'), '--interval-ms', '0'], { env: ctx.env });
  assert.equal(r.code, 0, r.stderr);
});

/** Every list call from now on gets `fault` (until the emulator's faults are cleared). */
const fault = (f) => ctx.emu.control('POST', 'faults', { endpoint: 'get-multi-user', count: 1_000_000, ...f });

for (const format of ['jsonl', 'csv']) {
  test(`export (${format}): a server that answers the same full page for every start is stopped, said, exit 4`, async () => {
    await fault({ kind: 'samepage' });
    try {
      const out = path.join(tempDir(), `u.${format}`);
      // Before the pager, this ran until killed (1.1–1.7 GiB held for a CSV).
      const r = await lpm(['export', 'users', '--out', out], { env: ctx.env, timeoutMs: 60_000 });
      assert.equal(r.code, 4, r.stderr);
      assert.match(r.stderr, /^stopped after 100 users read: .* not written$/m);
      assert.match(r.stderr, /a full page adds no new record \(the server repeats its pages\)/);
      assert.ok(!existsSync(out), 'no partial file');
    } finally {
      await ctx.emu.control('DELETE', 'faults');
    }
  });
}

test('export: overlapping pages export each record once, and say how many repeats were left out', async () => {
  await fault({ kind: 'overlap', back: 30 });
  try {
    const out = path.join(tempDir(), 'u.jsonl');
    const r = await lpm(['export', 'users', '--out', out], { env: ctx.env, timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stderr);
    const ids = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l)._id);
    const state = (await ctx.emu.state()).records.users.map((u) => u._id);
    assert.ok(state.length > ACCOUNTS && state.length < 300, 'three pages');
    // Before the pager: 30 more lines, each a record already written.
    assert.deepEqual(ids, state);
    assert.match(r.stderr, new RegExp(`^${state.length} users written to .* \\(30 repeated records of overlapping pages left out\\)$`, 'm'));
  } finally {
    await ctx.emu.control('DELETE', 'faults');
  }
});
