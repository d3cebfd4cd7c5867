// The journal's lines carry checksums (fileJournal): a flipped byte or a forged line is refused
// with how to recover, nothing sent; a journal from before checksums is still read; following the
// advice (cutting the file at the line) resumes the job with every row created once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { emulatorForTests, readReport, goodRows, lpm, sheet, tempDir } from './helpers.mjs';

const HEAD = ['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'];
const ctx = emulatorForTests(['--seed', 'empty', '--create-interval-secs', '0']);

const lines = (file) => readFileSync(file, 'utf8').split('\n').slice(0, -1);

/** A finished import of 10 rows in 2 chunks: { dir, file, journal, args }. */
async function finished(tag) {
  await ctx.emu.reset('empty');
  const dir = tempDir();
  const file = path.join(dir, 's.csv');
  writeFileSync(file, sheet(HEAD, goodRows(10, tag)));
  const journal = path.join(dir, 'j.jsonl');
  const args = ['import', file, '--journal', journal, '--chunk', '5', '--interval-ms', '0', '--resume'];
  const r = await lpm(args.slice(0, -1), { env: ctx.env });
  assert.equal(r.code, 0, r.stderr);
  return { dir, file, journal, args };
}

test('every journal line carries the checksum of its event', async () => {
  const { journal } = await finished('sum');
  for (const line of lines(journal)) assert.match(line, /^\{"event":.*,"sum":"[0-9a-f]{16}"\}$/);
});

test('a flipped byte in an account id is refused (exit 2) with how to recover; nothing sent; cutting the file there resumes it', async () => {
  const { dir, journal, args } = await finished('flip');
  const all = lines(journal);
  const at = all.findLastIndex((l) => l.includes('"chunkOutcomes"'));
  const id = /"userId":"([^"]+)"/.exec(all[at])[1];
  const flipped = `${id.slice(0, -1)}${id.at(-1) === 'x' ? 'y' : 'x'}`;
  all[at] = all[at].replace(id, flipped);
  writeFileSync(journal, `${all.join('\n')}\n`);
  const calls = (await ctx.emu.control('GET', 'create-calls')).calls.length;
  const r = await lpm(args, { env: ctx.env });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, new RegExp(`j\\.jsonl line ${at + 1} fails its checksum: it is not as the job wrote it \\(damaged or edited\\); restore the journal from a copy, or delete line ${at + 1} and every line after it and run again with --resume`));
  assert.equal((await ctx.emu.control('GET', 'create-calls')).calls.length, calls, 'nothing sent');
  // As the message says: the lines from there cut; the rows in doubt are looked up, not resent.
  writeFileSync(journal, `${all.slice(0, at).join('\n')}\n`);
  const done = await lpm(args, { env: ctx.env });
  assert.equal(done.code, 0, done.stderr);
  assert.equal((await ctx.emu.control('GET', 'create-calls')).calls.length, calls, 'no create sent again');
  const report = readReport(path.join(dir, 's.report.csv'));
  assert.equal(report.filter((l) => l.result === 'created').length, 10);
  assert.ok(!report.some((l) => l.detail === flipped));
});

test('a well-formed forged line without a checksum is refused; so is one whose checksum is of another event', async () => {
  const { journal, args } = await finished('forge');
  const all = lines(journal);
  const forged = JSON.stringify({ event: 'chunkOutcomes', chunk: 0, rows: [0], outcomes: [{ kind: 'created', userId: 'forged' }] });
  writeFileSync(journal, `${[...all, forged].join('\n')}\n`);
  const r = await lpm(args, { env: ctx.env });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, new RegExp(`line ${all.length + 1} has no checksum`));
  const sum = /,"sum":"[0-9a-f]{16}"\}$/.exec(all[0])[0];
  writeFileSync(journal, `${[...all, `${forged.slice(0, -1)}${sum}`].join('\n')}\n`);
  const again = await lpm(args, { env: ctx.env });
  assert.equal(again.code, 2, again.stderr);
  assert.match(again.stderr, new RegExp(`line ${all.length + 1} fails its checksum`));
});

test('a journal written before checksums (no line has one) is still read: the job resumes from it', async () => {
  const { dir, journal, args } = await finished('legacy');
  const all = lines(journal).map((l) => l.replace(/,"sum":"[0-9a-f]{16}"\}$/, '}'));
  const cut = all.findLastIndex((l) => l.includes('"chunkOutcomes"'));
  writeFileSync(journal, `${all.slice(0, cut).join('\n')}\n`);
  const calls = (await ctx.emu.control('GET', 'create-calls')).calls.length;
  const r = await lpm(args, { env: ctx.env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal((await ctx.emu.control('GET', 'create-calls')).calls.length, calls);
  assert.equal(readReport(path.join(dir, 's.report.csv')).filter((l) => l.result === 'created').length, 10);
  // Its new lines have checksums; the old ones are still read.
  const after = lines(journal);
  assert.ok(!/"sum"/.test(after[0]) && /"sum"/.test(after.at(-1)));
  const again = await lpm(args, { env: ctx.env });
  assert.equal(again.code, 0, again.stderr);
});
