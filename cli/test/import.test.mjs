// `lpm import` end to end against the emulator: 1,000 rows with bad ones, Ctrl-C, a journal of
// another file, and the CLI killed with SIGKILL at 24 points of one import, resumed each time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { TOKEN, emulator, goodRows, journalEvents, killAtEach, lpm, outcomeRows, readReport, sheet, tempDir } from './helpers.mjs';

const HEAD = ['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu', 'SĐT', 'Tỉnh/Thành phố'];
let emu;
let env;
before(async () => {
  emu = await emulator(['--seed', 'empty', '--create-interval-secs', '0']);
  env = { LPM_BASE_URL: emu.url, LPM_TOKEN: TOKEN };
});
after(async () => { await emu?.stop(); });

const events = journalEvents;

/** Accounts of the emulator by e-mail. */
async function accountsByEmail() {
  const by = new Map();
  for (const u of (await emu.state()).records.users) {
    for (const e of u.emails) by.set(e.address, [...(by.get(e.address) ?? []), u]);
  }
  return by;
}

/** Every good row exists exactly once, with its data, and the report names its id. */
async function assertCreatedOnce(rows, report) {
  const by = await accountsByEmail();
  rows.forEach((row, i) => {
    const found = by.get(row[2]) ?? [];
    assert.equal(found.length, 1, `${row[2]}: ${found.length} accounts`);
    assert.equal(found[0].username, row[1]);
    assert.equal(found[0].profile.name, row[0]);
    const line = report.find((r) => r.email === row[2]);
    assert.equal(line.result, 'created', `${row[2]}: ${line.result} ${line.detail}`);
    assert.equal(line.detail, found[0]._id);
  });
}

test('1,000 rows with a few bad ones: the good created once each, the bad set aside, exit 1, a report of every row', async () => {
  await emu.reset('empty');
  const seeded = (await emu.state()).records.users.length;
  const dir = tempDir();
  const good = goodRows(1000, 'thousand').map((r, i) => [...r, `090${String(i).padStart(7, '0')}`, i % 2 ? 'Hà Nội' : 'Huế']);
  const bad = [
    ['Không Email', 'noemail1', '', 'secret-01', '', ''],
    ['Trùng Email', 'dupmail1', good[3][2], 'secret-02', '', ''],
    ['Trùng Tên', good[7][1], 'dupname@x.io', 'secret-03', '', ''],
    ['', 'noname01', 'noname@x.io', 'secret-04', '', ''],
  ];
  const all = [...good.slice(0, 500), ...bad, ...good.slice(500)];
  const file = path.join(dir, 'students.csv');
  writeFileSync(file, sheet(HEAD, all, { sep: ';', bom: true }));
  const journal = path.join(dir, 'j.jsonl');
  const r = await lpm(['import', file, '--journal', journal, '--interval-ms', '0', '--lang', 'vi'], { env });
  assert.equal(r.code, 1, r.stderr);
  // The issues the import lists (the engine's) are the lines `validate` prints (the validator's).
  const listed = (out) => out.split('\n').filter((l) => /^row \d+ \(line|rows ready/.test(l));
  const checked = await lpm(['validate', file, '--lang', 'vi']);
  assert.equal(listed(r.stdout).length, 5);
  assert.deepEqual(listed(r.stdout), listed(checked.stdout));
  assert.match(r.stdout, /1004 rows: created 1000, failed 0, set aside 4, conflicts 0, in doubt 0, not sent 0; report: .*students\.report\.csv/);
  const report = readReport(path.join(dir, 'students.report.csv'));
  assert.equal(report.length, 1004);
  assert.deepEqual(report.map((l) => Number(l.row)), all.map((_, i) => i + 1));
  assert.deepEqual(report.slice(500, 504).map((l) => l.result), ['setAside', 'setAside', 'setAside', 'setAside']);
  assert.match(report[501].detail, /email: .*4/, 'the repeat names the row it repeats');
  assert.equal(report[0].line, '2');
  await assertCreatedOnce(good, report);
  const users = (await emu.state()).records.users;
  assert.equal(users.length, seeded + 1000);
  const u = users.find((x) => x.username === good[1][1]);
  assert.equal(u.profile.phone, good[1][4]);
  const calls = (await emu.control('GET', 'create-calls')).calls;
  assert.equal(calls.length, 10);
  assert.ok(!r.stdout.includes(TOKEN) && !r.stderr.includes(TOKEN));
  // The journal never holds a password.
  assert.ok(!readFileSync(journal, 'utf8').includes('secret-'));
  assert.ok(!readFileSync(journal, 'utf8').includes('pass-1-word'));
});

test('Ctrl-C stops cleanly: report written, exit 130; --resume finishes; a used journal without --resume, or another file, is refused', async () => {
  await emu.reset('empty');
  const dir = tempDir();
  const rows = goodRows(30, 'ctrlc');
  const file = path.join(dir, 'a.csv');
  writeFileSync(file, sheet(HEAD.slice(0, 4), rows));
  const journal = path.join(dir, 'j.jsonl');
  const args = ['import', file, '--journal', journal, '--chunk', '10', '--interval-ms', '60000'];
  // The second chunk waits a minute: interrupt it there.
  const run = lpm(args, { env, onStderr: (text, child) => { if (/created 10,/.test(text)) child.kill('SIGINT'); } });
  const r = await run;
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /interrupted: run the same command with --resume/);
  const partial = readReport(path.join(dir, 'a.report.csv'));
  assert.equal(partial.length, 30);
  assert.equal(partial.filter((l) => l.result === 'created').length, 10);
  const again = await lpm(args, { env });
  assert.equal(again.code, 2);
  assert.match(again.stderr, /already holds a job: pass --resume/);
  // Another file with the same journal: the engine's message.
  const other = path.join(dir, 'b.csv');
  writeFileSync(other, sheet(HEAD.slice(0, 4), goodRows(30, 'other')));
  const wrong = await lpm(['import', other, '--journal', journal, '--resume', '--interval-ms', '0'], { env });
  assert.equal(wrong.code, 2, wrong.stderr);
  assert.match(wrong.stderr, /^lpm import: ConfigError: the journal was refused: .*row 1 holds another e-mail, username or account than the journal records: another file\?; a journal resumes only the job it was started with, on the sheet as it was then: to send rows fixed since, import them with a new --journal \(--failed FILE writes the rows not created\)$/m);
  const done = await lpm([...args.slice(0, -1), '0', '--resume'], { env });
  assert.equal(done.code, 0, done.stderr);
  await assertCreatedOnce(rows, readReport(path.join(dir, 'a.report.csv')));
});

test('a journal with the rowOutcome lines of an earlier format is refused (exit 2, another version), nothing sent', async () => {
  await emu.reset('empty');
  const seeded = (await emu.state()).records.users.length;
  const dir = tempDir();
  const file = path.join(dir, 'old.csv');
  writeFileSync(file, sheet(HEAD.slice(0, 4), goodRows(2, 'oldfmt')));
  const journal = path.join(dir, 'old.jsonl');
  const lines = [
    { event: 'started', job: 'import', rows: 2 },
    { event: 'chunkPlanned', chunk: 0, rows: [0, 1].map((row) => ({ row, email: `oldfmt${row}@school.test`, username: `oldfmt${row}` })) },
    { event: 'chunkSending', chunk: 0, at: 1 },
    { event: 'rowOutcome', row: 0, outcome: { kind: 'created', userId: 'u1' } },
  ];
  writeFileSync(journal, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  const r = await lpm(['import', file, '--journal', journal, '--resume', '--interval-ms', '0'], { env });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^lpm import: ConfigError: the journal was refused: event 4 cannot be read \(another version, or damaged\)$/m);
  assert.equal((await emu.state()).records.users.length, seeded);
});

test('killed with SIGKILL at 24 points of an import (each kind of journal event, lost answers, look-ups, waits), resumed each time: every good row created exactly once', async (t) => {
  await emu.reset('empty');
  const seeded = (await emu.state()).records.users.length;
  const dir = tempDir();
  const good = goodRows(60, 'kill');
  const bad = [['Thiếu Mật Khẩu', 'killnopass', 'killnopass@x.io', ''], ['X', 'killdup', good[0][2], 'secret-1']];
  const all = [...good.slice(0, 20), bad[0], ...good.slice(20, 40), bad[1], ...good.slice(40)];
  const file = path.join(dir, 'k.csv');
  writeFileSync(file, sheet(HEAD.slice(0, 4), all));
  const journal = path.join(dir, 'k.jsonl');
  const base = ['import', file, '--journal', journal, '--chunk', '5', '--interval-ms', '150', '--retry-delay-ms', '300'];
  const n = (fresh, kind) => fresh.filter((e) => e.event === kind).length;
  const fault = (endpoint, kind, extra = {}) => ({ endpoint, kind, count: 1, ...extra });
  // Each point: a fault to install for the run (or none), and when to kill (on the events this
  // run appended, and its age in ms).
  const kinds = [
    { name: 'after the first event', when: (f) => f.length >= 1 },
    // chunkPlanned and chunkSending are appended together: a kill in the middle of that write
    // leaves chunkPlanned whole and chunkSending torn.
    { name: 'after chunkPlanned, chunkSending torn', when: (f) => n(f, 'chunkSending') >= 1, tear: true },
    { name: 'after chunkSending, the create held by the server', fault: fault('create-multi-user', 'delay', { delayMs: 3000 }), when: (f) => n(f, 'chunkSending') >= 1 },
    { name: 'create committed, its answer stalled mid-body', fault: fault('create-multi-user', 'stallbody', { delayMs: 3000 }), when: (f, ms, seen) => seen.chunkSending !== undefined && ms - seen.chunkSending > 400 },
    { name: 'create committed, its answer dropped: in the wait before look-ups', fault: fault('create-multi-user', 'drop'), when: (f) => n(f, 'rowsInDoubt') >= 1 },
    { name: 'during a held look-up', fault: fault('search-user', 'delay', { delayMs: 3000 }), when: (f, ms) => ms > 900 },
    { name: 'after a look-up', when: (f) => n(f, 'lookupResult') >= 1 },
    { name: 'after a chunk\'s outcomes', when: (f) => outcomeRows(f) >= 2 },
    { name: 'in the interval wait', when: (f) => outcomeRows(f) >= 5 },
    { name: 'after a second chunkSending', when: (f) => n(f, 'chunkSending') >= 2 },
    { name: 'an outcome line torn', when: (f) => outcomeRows(f) >= 3, tear: true },
    { name: 'a create cut mid-body (close)', fault: fault('create-multi-user', 'close'), when: (f) => n(f, 'rowsInDoubt') >= 1 },
  ];
  const points = [...kinds, ...kinds];
  const kills = await killAtEach(emu, { base, journal, env, points, codes: [1, 4] });
  const final = await lpm([...base, '--resume'], { env });
  assert.equal(final.code, 1, final.stderr); // the two bad rows are set aside
  assert.match(final.stdout, /62 rows: created 60, failed 0, set aside 2, conflicts 0, in doubt 0, not sent 0/);
  const report = readReport(path.join(dir, 'k.report.csv'));
  await assertCreatedOnce(good, report);
  assert.equal((await emu.state()).records.users.length, seeded + 60);
  // A point: where the journal stood and what was under way (a held look-up and a retry wait
  // can follow the same event).
  const distinct = new Set(kills.map((k) => `${k.events} ${k.point}`));
  assert.ok(kills.length >= 20, `${kills.length} kills: ${JSON.stringify(kills)}`);
  assert.ok(distinct.size >= 20, `${distinct.size} distinct points: ${JSON.stringify(kills)}`);
  const lasts = new Set(kills.map((k) => k.last));
  t.diagnostic(`${kills.length} kills at ${distinct.size} distinct points; last event on disk: ${[...lasts].join(', ')}`);
  for (const kind of ['chunkPlanned', 'chunkSending', 'rowsInDoubt', 'lookupResult', 'chunkOutcomes']) assert.ok(lasts.has(kind), `no kill right after ${kind}: ${[...lasts]}`);
  const evs = events(journal);
  assert.ok(evs.some((e) => e.event === 'lookupResult' && e.result.kind === 'created'), 'a dropped create was found by a look-up');
});

test('on a terminal: a progress bar with the counts and the countdown to the next chunk', async () => {
  await emu.reset('empty');
  const { spawn } = await import('node:child_process');
  const { CLI } = await import('./helpers.mjs');
  const dir = tempDir();
  const file = path.join(dir, 't.csv');
  writeFileSync(file, sheet(HEAD.slice(0, 4), goodRows(20, 'tty')));
  const command = `${process.execPath} ${CLI} import ${file} --journal ${path.join(dir, 'j')} --chunk 10 --interval-ms 2500`;
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...env, PATH: process.env.PATH, TERM: 'xterm' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 0, out);
  assert.match(out, /\u2588+\u2591* 10\/20 rows \| created 10, failed 0, set aside 0, remaining 10 next chunk in 0:0[1-3]/);
  assert.match(out, /\u2588{10,} 20\/20 rows \| created 20,/);
  assert.doesNotMatch(out, /^progress: /m, 'no plain lines on a terminal');
});

test('import lists each row\'s issues as validate does, in its order, from the engine', async () => {
  await emu.reset('empty');
  const dir = tempDir();
  const file = path.join(dir, 'o.csv');
  const rows = [
    ['Một Hai', 'order1', 'order1@x.io', 'secret-01'],
    ['Al', 'order2', 'order2@x.io', ''], // a short name (platform) before a missing password
    ['Al', 'order3', 'ORDER1@x.io', 'secret-03'], // a short name, then a repeated e-mail
    ['Ba Bốn', 'ORDER1', 'order4@x.io', 'secret-04'], // a username repeated in another case
    ['', 'order5', 'order5@x.io', 'secret-05'],
  ];
  writeFileSync(file, sheet(HEAD.slice(0, 4), rows));
  const listed = (out) => out.split('\n').filter((l) => /^row \d+ \(line|rows ready/.test(l));
  for (const extra of [[], ['--strict'], ['--lang', 'vi']]) {
    const checked = await lpm(['validate', file, ...extra]);
    const r = await lpm(['import', file, '--journal', path.join(dir, `j${extra.join('')}`), '--interval-ms', '0', ...extra], { env });
    assert.ok(listed(checked.stdout).length >= 6, checked.stdout);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(listed(r.stdout), listed(checked.stdout), extra.join(' '));
    await emu.reset('empty');
  }
});

test('a refused token exits 3 before the job starts; a server failing every create halts the run: exit 4, rows not sent, --resume finishes', async () => {
  await emu.reset('empty');
  const dir = tempDir();
  const file = path.join(dir, 'h.csv');
  const rows = goodRows(12, 'halt');
  writeFileSync(file, sheet(HEAD.slice(0, 4), rows));
  const journal = path.join(dir, 'j');
  const args = ['import', file, '--journal', journal, '--chunk', '5', '--interval-ms', '0', '--retry-delay-ms', '20'];
  const refused = await lpm(args, { env: { ...env, LPM_TOKEN: 'refused-token-0123456789' } });
  assert.equal(refused.code, 3, refused.stderr);
  assert.ok(!existsSync(journal) || readFileSync(journal, 'utf8') === '', 'nothing journaled');
  await emu.control('POST', 'faults', { endpoint: 'create-multi-user', kind: 'resourcefail', count: 50 });
  const halted = await lpm(args, { env });
  await emu.control('DELETE', 'faults');
  assert.equal(halted.code, 4, halted.stderr);
  assert.match(halted.stderr, /stopped before the end: .*; run the same command with --resume to continue/);
  assert.match(halted.stdout, /12 rows: created 0, .*not sent 12;/);
  const done = await lpm([...args, '--resume'], { env });
  assert.equal(done.code, 0, done.stderr);
  await assertCreatedOnce(rows, readReport(path.join(dir, 'h.report.csv')));
});
