// `lpm grant` against the emulator: ids from a file or the command line, chunked and journaled,
// the enrolments checked in the emulator's state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { TOKEN, emulator, lpm, tempDir } from './helpers.mjs';

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
  assert.match(r.stdout, /granting 2 course\(s\) to 6 accounts from /);
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
