// `lpm grant` against the emulator: ids from a file or the command line, chunked and journaled,
// killed with SIGKILL at a dozen points and resumed; the enrolments checked in the emulator's state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { TOKEN, emulator, journalEvents, killAtEach, lpm, outcomeRows, tempDir } from './helpers.mjs';

let emu;
let env;
before(async () => {
  emu = await emulator();
  env = { LPM_BASE_URL: emu.url, LPM_TOKEN: TOKEN };
});
after(async () => { await emu?.stop(); });

const enrolled = (user, course) => (user.myCourses ?? []).some((c) => JSON.stringify(c).includes(course));

test('grant: ids from a file with an id column, in chunks; an unknown id reported; the state has the enrolments', async () => {
  const { records } = await emu.state();
  const users = records.users.slice(0, 5);
  const courses = records.courses.slice(0, 2).map((c) => c._id);
  assert.equal(users.length, 5);
  const dir = tempDir();
  const ids = path.join(dir, 'ids.csv');
  writeFileSync(ids, `\uFEFFName;ID\r\n${users.map((u) => `${u.profile.name};${u._id}`).join('\r\n')}\r\nNobody;NoSuchUser0000001\r\n`);
  const journal = path.join(dir, 'g.jsonl');
  const r = await lpm(['grant', '--users', ids, '--courses', courses.join(','), '--journal', journal, '--chunk', '2'], { env });
  assert.match(r.stdout, /granting 2 courses to 6 accounts from /);
  const report = parse(readFileSync(`${journal}.report.csv`), { bom: true, columns: true });
  assert.equal(report.length, 6);
  assert.deepEqual(report.slice(0, 5).map((l) => [l.user_id, l.result]), users.map((u) => [u._id, 'granted']));
  assert.notEqual(report[5].result, 'granted');
  assert.equal(r.code, 1, r.stderr);
  const after2 = (await emu.state()).records.users;
  for (const u of users) {
    const now = after2.find((x) => x._id === u._id);
    for (const c of courses) assert.ok(enrolled(now, c), `${u._id} ${c}`);
  }
  const chunks = readFileSync(journal, 'utf8').split('\n').filter((l) => l.includes('"chunkSending"'));
  assert.equal(chunks.length, 3);
});

test('grant: ids on the command line; usage errors', async () => {
  const { records } = await emu.state();
  const [a, b] = records.users.slice(5, 7).map((u) => u._id);
  const course = records.courses[0]._id;
  const dir = tempDir();
  const ok = await lpm(['grant', '--users', `${a}, ${b}`, '--courses', course, '--journal', path.join(dir, 'j')], { env });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /2 rows: granted 2, failed 0/);
  const cases = [
    [['grant', '--courses', course, '--journal', 'j'], /--users FILE\|IDS is required/],
    [['grant', '--users', a, '--journal', 'j'], /--courses IDS is required/],
    [['grant', '--users', a, '--courses', course], /--journal FILE is required/],
    [['grant', '--users', a, '--courses', course, '--journal', 'j', '--chunk', '101'], /--chunk must be an integer from 1 to 100/],
  ];
  for (const [args, message] of cases) {
    const r = await lpm(args, { env });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
});

test('grant killed with SIGKILL at 12 points (a torn chunkSending, an add-courses committed but its answer not journaled, a lost answer, after outcomes), resumed each time: every grant exactly once', async (t) => {
  const { records } = await emu.state();
  const courses = records.courses.slice(3, 5).map((c) => c._id);
  // Accounts holding neither course yet, so each enrolment is this job's.
  const users = records.users.filter((u) => !courses.some((c) => enrolled(u, c))).slice(0, 24);
  assert.equal(users.length, 24);
  const dir = tempDir();
  const journal = path.join(dir, 'g.jsonl');
  const base = ['grant', '--users', users.map((u) => u._id).join(','), '--courses', courses.join(','), '--journal', journal, '--chunk', '3', '--interval-ms', '150', '--retry-delay-ms', '300'];
  const n = (fresh, kind) => fresh.filter((e) => e.event === kind).length;
  const fault = (kind, extra = {}) => ({ endpoint: 'add-multi-course-to-multi-user', kind, count: 1, ...extra });
  const points = [
    { name: 'after the first event', when: (f) => f.length >= 1 },
    { name: 'after chunkPlanned, chunkSending torn', when: (f) => n(f, 'chunkSending') >= 1, tear: true },
    { name: 'after chunkSending, the call held by the server', fault: fault('delay', { delayMs: 3000 }), when: (f) => n(f, 'chunkSending') >= 1 },
    // The server has enrolled the chunk; its answer never reaches the journal.
    { name: 'add-courses committed, its answer stalled mid-body', fault: fault('stallbody', { delayMs: 3000 }), when: (f, ms, seen) => seen.chunkSending !== undefined && ms - seen.chunkSending > 400 },
    { name: 'add-courses committed, its answer dropped', fault: fault('drop'), when: (f) => n(f, 'rowsInDoubt') >= 1 },
    { name: 'after a chunk\'s outcomes', when: (f) => outcomeRows(f) >= 2 },
    { name: 'in the interval wait', when: (f) => outcomeRows(f) >= 4 },
    { name: 'after a second chunkSending', when: (f) => n(f, 'chunkSending') >= 2 },
    { name: 'an outcome line torn', when: (f) => outcomeRows(f) >= 3, tear: true },
    { name: 'a call cut mid-body (close)', fault: fault('close'), when: (f) => n(f, 'rowsInDoubt') >= 1 },
    { name: 'the last chunk sent', when: (f, ms, seen) => outcomeRows(journalEvents(journal)) >= users.length - 3 },
    { name: 'after the first event again', when: (f) => f.length >= 1 },
  ];
  const kills = await killAtEach(emu, { base, journal, env, points, codes: [0, 4] });
  const final = await lpm([...base, '--resume'], { env });
  assert.equal(final.code, 0, final.stderr);
  assert.match(final.stdout, /24 rows: granted 24, failed 0, set aside 0, not sent 0/);
  const report = parse(readFileSync(`${journal}.report.csv`), { bom: true, columns: true });
  assert.deepEqual(report.map((l) => [l.user_id, l.result]), users.map((u) => [u._id, 'granted']));
  const now = (await emu.state()).records.users;
  for (const u of users) {
    const mine = (now.find((x) => x._id === u._id).myCourses ?? []).map((c) => c.courseId);
    for (const c of courses) assert.equal(mine.filter((id) => id === c).length, 1, `${u._id} holds ${c} exactly once`);
  }
  const distinct = new Set(kills.map((k) => `${k.events} ${k.point}`));
  t.diagnostic(`${kills.length} kills at ${distinct.size} distinct points; last event on disk: ${[...new Set(kills.map((k) => k.last))].join(', ')}`);
  assert.ok(kills.length >= 10, `${kills.length} kills: ${JSON.stringify(kills)}`);
  assert.ok(kills.some((k) => k.point.startsWith('add-courses committed, its answer stalled')), 'killed between the commit and its answer');
  assert.ok(journalEvents(journal).some((e) => e.event === 'rowsInDoubt'), 'a lost answer was journaled in doubt');
});
