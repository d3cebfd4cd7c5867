// `lpm sync` against the emulator: a sheet of existing and new accounts made to match (created
// once, granted what each lacks, other courses reported); a second run sends nothing and says
// so (the emulator's calls counted); --dry-run sends nothing; an interrupted sync resumes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { emulatorForTests, journalEvents, lpm, outcomeRows, sheet, tempDir } from './helpers.mjs';

const ctx = emulatorForTests(['--create-interval-secs', '0']);

const enrolled = (user, course) => (user.myCourses ?? []).some((c) => c.courseId === course);
/** The emulator's create and grant calls so far. */
const writes = async () => (await ctx.emu.control('GET', 'create-calls')).calls.length;

test('sync: creates the missing accounts once, grants what each lacks, reports other courses; a second run sends nothing', async () => {
  const { records } = await ctx.emu.state();
  const courses = records.courses.slice(0, 2).map((c) => c._id);
  const other = records.courses[2]._id;
  const [holder, plain] = records.users.filter((u) => u.emails?.length && !(u.myCourses ?? []).length).slice(0, 2);
  // One existing account already holds the first course and another one.
  const dir = tempDir();
  const ids = path.join(dir, 'ids.csv');
  writeFileSync(ids, `id\n${holder._id}\n`);
  const pre = await lpm(['grant', '--users', ids, '--courses', `${courses[0]},${other}`, '--journal', path.join(dir, 'pre.journal')], { env: ctx.env });
  assert.equal(pre.code, 0, pre.stderr);
  const stamp = Date.now().toString(36);
  const rows = [
    [holder.profile.name, holder.username, holder.emails[0].address, 'unused-1'],
    [plain.profile.name, plain.username, plain.emails[0].address, 'unused-2'],
    ...Array.from({ length: 5 }, (_, i) => [`Học Viên Mới ${i}`, `moi${stamp}${i}`, `moi${i}.${stamp}@school.test`, `mat-khau-${i}`]),
    ['', 'thieu', 'thieu@school.test', 'x'],
  ];
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], rows));
  const journal = path.join(dir, 'lop.sync');
  const args = ['sync', file, '--courses', courses.join(','), '--journal', journal, '--interval-ms', '0', '--chunk', '2'];

  const calls0 = await writes();
  const dry = await lpm([...args, '--dry-run'], { env: ctx.env });
  assert.equal(dry.code, 1, dry.stderr);
  assert.match(dry.stdout, /^plan: 2 accounts exist, 5 to create in 3 calls of up to 2 \(the last 0 min after the first\); courses to grant to 7 accounts \(2 existing, 5 new\); 1 account holds other courses too; 0 rows whose e-mail or username belongs to another person's account; 1 row set aside$/m);
  assert.equal(await writes(), calls0, 'a dry run sends nothing');

  const accounts0 = (await ctx.emu.control('GET', 'state')).accounts;
  const first = await lpm(args, { env: ctx.env });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  assert.match(first.stdout, /^8 rows: 2 existed, 5 created, 7 granted courses, 1 hold other courses, 1 set aside, 0 conflicts, 0 failed; report: /m);
  assert.equal((await ctx.emu.control('GET', 'state')).accounts, accounts0 + 5);
  const report = parse(readFileSync(path.join(dir, 'lop.sync.csv')), { bom: true, columns: true });
  assert.deepEqual(report.map((r) => r.result), ['exists', 'exists', 'created', 'created', 'created', 'created', 'created', 'setAside']);
  assert.equal(report[0].granted, courses[1], 'the holder lacked only the second course');
  assert.equal(report[0]['other courses held'], other);
  assert.match(report[0].detail, /cannot revoke/);
  assert.equal(report[1].granted, courses.join(' '));
  const users = (await ctx.emu.state()).records.users;
  for (const r of report.slice(0, 7)) {
    const u = users.find((x) => x._id === r.account);
    assert.ok(u, r.email);
    for (const c of courses) assert.ok(enrolled(u, c), `${r.email} ${c}`);
  }

  const calls1 = await writes();
  const state1 = await ctx.emu.state();
  const second = await lpm(args, { env: ctx.env });
  assert.equal(second.code, 1, second.stderr);
  assert.match(second.stdout, /^8 rows: 7 existed, 0 created, 0 granted courses, 1 hold other courses, 1 set aside, 0 conflicts, 0 failed; /m);
  assert.match(second.stdout, /^nothing to send: every account exists and holds the courses, but for the 1 row set aside$/m);
  assert.equal(await writes(), calls1, 'the second run sent no create');
  assert.doesNotMatch(second.stdout, /^(creating|granting) /m);
  assert.deepEqual(await ctx.emu.state(), state1, 'the second run changed nothing on the platform');
  assert.equal((await ctx.emu.control('GET', 'state')).accounts, accounts0 + 5);

  // The sheet grows by a row: the same journal, a third run creates that one account.
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], [...rows, ['Học Viên Thêm', `them${stamp}`, `them.${stamp}@school.test`, 'mat-khau-9']]));
  const third = await lpm(args, { env: ctx.env });
  assert.match(third.stdout, /^9 rows: 7 existed, 1 created, 1 granted courses, /m, third.stderr);
  assert.equal((await ctx.emu.control('GET', 'state')).accounts, accounts0 + 6);
});

test('sync: an interrupted sync resumes with the same plan; its journal refuses a run without --resume', async () => {
  const { records } = await ctx.emu.state();
  const course = records.courses[3]._id;
  const stamp = Date.now().toString(36);
  const dir = tempDir();
  const file = path.join(dir, 'k.xlsx');
  const { workbook } = await import('../../tests/sheets/table.mjs');
  writeFileSync(file, await workbook([{ rows: [['Name', 'Username', 'Email', 'Password'], ...Array.from({ length: 6 }, (_, i) => [`Học Viên ${i}`, `k${stamp}${i}`, `k${i}.${stamp}@school.test`, `mat-khau-${i}`])] }]));
  const journal = path.join(dir, 'k.sync');
  // A long interval: the first chunk goes, then the sync waits and is stopped with SIGTERM.
  const args = ['sync', file, '--courses', course, '--journal', journal, '--chunk', '3', '--interval-ms', '60000', '--format', 'xlsx'];
  const accounts0 = (await ctx.emu.control('GET', 'state')).accounts;
  const run = lpm(args, { env: ctx.env });
  let stopped = false;
  const timer = setInterval(async () => {
    if (!stopped && (await ctx.emu.control('GET', 'state')).accounts >= accounts0 + 3) { stopped = true; run.child.kill('SIGTERM'); }
  }, 100);
  const r = await run;
  clearInterval(timer);
  assert.equal(r.code, 130, r.stdout + r.stderr);
  const again = await lpm(args.map((a) => (a === '60000' ? '0' : a)), { env: ctx.env });
  assert.equal(again.code, 2);
  assert.match(again.stderr, /already holds a job: pass --resume/);
  const resumed = await lpm([...args.map((a) => (a === '60000' ? '0' : a)), '--resume'], { env: ctx.env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(resumed.stdout, /^6 rows: 0 existed, 6 created, 6 granted courses/m);
  assert.equal((await ctx.emu.control('GET', 'state')).accounts, accounts0 + 6);
  const { readTable } = await import('lpm-sheets');
  const table = await readTable(readFileSync(path.join(dir, 'k.sync.xlsx')));
  assert.deepEqual(table.records.slice(1).map((x) => x.cells[4]), Array(6).fill('created'));
});

test('sync killed with SIGKILL at 8 points (look-ups, creates in flight, a lost answer, grants), resumed each time: every account created once, every grant made', async () => {
  const { records } = await ctx.emu.state();
  const course = records.courses[4]._id;
  const stamp = Date.now().toString(36);
  const dir = tempDir();
  const file = path.join(dir, 'kill.csv');
  const emails = Array.from({ length: 12 }, (_, i) => `kill${i}.${stamp}@school.test`);
  writeFileSync(file, sheet(['Name', 'Username', 'Email', 'Password'], emails.map((e, i) => [`Học Viên ${i}`, `kill${stamp}${i}`, e, `mat-khau-${i}`])));
  const journal = path.join(dir, 'kill.sync');
  const base = ['sync', file, '--courses', course, '--journal', journal, '--chunk', '3', '--interval-ms', '150', '--retry-delay-ms', '300'];
  // One journal: the sync's look-ups, then the import's events, then the grants'.
  const events = () => journalEvents(journal);
  const unfinished = () => events().length > 0;
  const points = [
    { name: 'during the look-ups', when: (ms) => ms > 150 },
    { name: 'after the first chunk is announced', when: () => events().some((e) => e.event === 'chunkSending') },
    { name: 'a create held by the server', fault: { endpoint: 'create-multi-user', kind: 'delay', count: 1, delayMs: 3000 }, when: () => events().filter((e) => e.event === 'chunkSending').length >= 2 },
    { name: 'a create\'s answer dropped', fault: { endpoint: 'create-multi-user', kind: 'drop', count: 1 }, when: () => events().some((e) => e.event === 'rowsInDoubt') },
    { name: 'after outcomes', when: () => outcomeRows(events()) >= 6 },
    { name: 'in the interval wait', when: () => outcomeRows(events()) >= 9 },
    { name: 'after every create', when: () => outcomeRows(events()) >= 12 },
    { name: 'while granting', when: () => events().some((e) => e.event === 'started' && e.job === 'grant') },
  ];
  let kills = 0;
  for (const point of points) {
    await ctx.emu.control('DELETE', 'faults');
    if (point.fault) await ctx.emu.control('POST', 'faults', point.fault);
    const started = Date.now();
    const run = lpm(unfinished() ? [...base, '--resume'] : base, { env: ctx.env });
    const timer = setInterval(() => {
      try { if (point.when(Date.now() - started)) run.child.kill('SIGKILL'); } catch { /* a file being written */ }
    }, 5);
    const r = await run;
    clearInterval(timer);
    if (r.signal === 'SIGKILL') kills += 1;
    else assert.ok([0, 4].includes(r.code), `${point.name}: exit ${r.code} ${r.stderr}`);
  }
  await ctx.emu.control('DELETE', 'faults');
  const final = await lpm(unfinished() ? [...base, '--resume'] : base, { env: ctx.env });
  assert.equal(final.code, 0, final.stdout + final.stderr);
  assert.ok(kills >= 5, `${kills} kills`);
  const users = (await ctx.emu.state()).records.users;
  for (const email of emails) {
    const mine = users.filter((u) => (u.emails ?? []).some((e) => e.address === email));
    assert.equal(mine.length, 1, `${email} created exactly once`);
    assert.equal((mine[0].myCourses ?? []).filter((c) => c.courseId === course).length, 1, `${email} holds the course once`);
  }
  const again = await lpm(base, { env: ctx.env });
  assert.match(again.stdout, /^nothing to send: every account exists and holds the courses$/m);
});

test('sync: a "Khoá học" column names each row\'s courses (with or without --courses)', async () => {
  const { records } = await ctx.emu.state();
  const [a, b, c] = records.courses.slice(5, 8).map((x) => x._id);
  const stamp = Date.now().toString(36);
  const dir = tempDir();
  const file = path.join(dir, 'per-row.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu', 'Khoá học'], [
    ['Học Viên Một', `pr${stamp}1`, `pr1.${stamp}@school.test`, 'mat-khau-1', `"${a}, ${b}"`],
    ['Học Viên Hai', `pr${stamp}2`, `pr2.${stamp}@school.test`, 'mat-khau-2', b],
    ['Học Viên Ba', `pr${stamp}3`, `pr3.${stamp}@school.test`, 'mat-khau-3', ''],
  ]));
  const plain = path.join(dir, 'plain.csv');
  writeFileSync(plain, sheet(['Name', 'Username', 'Email', 'Password'], [['Học Viên', `pl${stamp}`, `pl.${stamp}@school.test`, 'mat-khau-1']]));
  const none = await lpm(['sync', plain, '--journal', path.join(dir, 'x')], { env: ctx.env });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--courses IDS is required, or a column naming each row's courses/);
  const r = await lpm(['sync', file, '--journal', path.join(dir, 'pr.sync'), '--interval-ms', '0'], { env: ctx.env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^3 rows: 0 existed, 3 created, 2 granted courses, /m);
  const users = (await ctx.emu.state()).records.users;
  const held = (i) => (users.find((u) => u.username === `pr${stamp}${i}`).myCourses ?? []).map((x) => x.courseId).sort();
  assert.deepEqual([held(1), held(2), held(3)], [[a, b].sort(), [b], []]);
  // --courses adds to each row's own.
  const more = await lpm(['sync', file, '--courses', c, '--journal', path.join(dir, 'pr2.sync'), '--interval-ms', '0'], { env: ctx.env });
  assert.match(more.stdout, /^3 rows: 3 existed, 0 created, 3 granted courses, /m, more.stderr);
  const after = (await ctx.emu.state()).records.users;
  for (const i of [1, 2, 3]) assert.ok((after.find((u) => u.username === `pr${stamp}${i}`).myCourses ?? []).some((x) => x.courseId === c));
});
