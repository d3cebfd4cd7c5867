// A day's work with `lpm` as a school's staff does it, and the faults that walk found: each test
// is a command a staff member runs and what they expect of it (a clear message, the right exit
// code, nothing sent that should not be).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs, { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { CLI, DEMO, emulatorForTests, goodRows, journalEvents, lpm, outcomeRows, sheet, tempDir } from './helpers.mjs';

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

test('a report, --failed or credentials path that cannot be written is refused before anything is sent (exit 2)', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], goodRows(3, 'walkreport')));
  const before = (await ctx.emu.state()).accounts;
  const missing = path.join(dir, 'no-such-dir');
  const journal = path.join(dir, 'lop.journal');
  for (const [option, name] of [['--report', 'r.csv'], ['--failed', 'f.csv'], ['--credentials', 'c.xlsx']]) {
    const extra = option === '--credentials' ? ['--generate-passwords'] : [];
    const r = await lpm(['import', file, '--journal', journal, '--interval-ms', '0', option, path.join(missing, name), ...extra], { env: ctx.env });
    clean(r.stderr);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, `lpm import: ${option} ${path.join(missing, name)}: cannot write it: no such file or directory\n`);
  }
  const g = await lpm(['grant', '--users', 'someone', '--courses', 'c1', '--journal', journal, '--report', path.join(missing, 'g.csv')], { env: ctx.env });
  assert.equal(g.code, 2, g.stderr);
  assert.match(g.stderr, /^lpm grant: --report .*g\.csv: cannot write it: no such file or directory\n$/);
  const s = await lpm(['sync', file, '--courses', 'c1', '--journal', journal, '--report', path.join(missing, 's.csv')], { env: ctx.env });
  assert.equal(s.code, 2, s.stderr);
  assert.match(s.stderr, /^lpm sync: --report .*s\.csv: cannot write it: no such file or directory\n$/);
  assert.equal((await ctx.emu.state()).accounts, before, 'no account created');
  assert.ok(!existsSync(journal), 'no journal started');
});

test('the credentials sheet is 0600 from its creation, never readable by others for a moment', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], [['Học Viên Một', 'hvmot', 'hvmot@school.test', '']]));
  const { readSheet } = await import('../src/sheet.js');
  const { fillPasswords } = await import('../src/passwords.js');
  const table = await readSheet(file);
  // Every rename the write makes sees its file's mode as it was before it got its name.
  const modes = [];
  const rename = fs.renameSync;
  fs.renameSync = (from, to) => { modes.push(fs.statSync(from).mode & 0o777); return rename(from, to); };
  syncBuiltinESMExports();
  try {
    await fillPasswords(table, file, {}, { stderr: { write() {} } });
  } finally {
    fs.renameSync = rename;
    syncBuiltinESMExports();
  }
  assert.deepEqual(modes, [0o600]);
  assert.equal(fs.statSync(path.join(dir, 'lop.credentials.xlsx')).mode & 0o777, 0o600);
});

test('grant --users the report of an import grants the accounts it created; a sheet without ids is refused, nothing sent', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], [...goodRows(2, 'walkgrant'), ['Trùng Lặp', 'walkgrant0', 'walkgrant0@school.test', 'pass-0-word']]));
  const imported = await lpm(['import', file, '--journal', path.join(dir, 'import.journal'), '--interval-ms', '0'], { env: ctx.env });
  assert.equal(imported.code, 1, imported.stderr);
  const course = (await ctx.emu.state()).records.courses[0]._id;
  const calls = async () => (await ctx.emu.state()).enrolments;
  // The natural next step of the day: the import's own report names the accounts to grant.
  const r = await lpm(['grant', '--users', path.join(dir, 'lop.report.csv'), '--courses', course, '--journal', path.join(dir, 'grant.journal')], { env: ctx.env });
  clean(r.stderr);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^granting 1 course to 2 accounts from .*lop\.report\.csv \(the accounts it records as created\)$/m);
  const users = (await ctx.emu.state()).records.users.filter((u) => u.username.startsWith('walkgrant'));
  assert.equal(users.length, 2);
  for (const u of users) assert.ok(u.myCourses.some((c) => c.courseId === course), `${u.username} holds the course`);
  // A sheet of students (a title line above its header, no id column): refused, not its names
  // sent as ids.
  const students = path.join(dir, 'students.csv');
  writeFileSync(students, `DANH SÁCH LỚP 11B;;;\r\n${sheet(['Họ tên', 'Tài khoản', 'E-mail', 'Mật khẩu'], goodRows(2, 'walknoid'), { sep: ';' })}`);
  const before = await calls();
  const bad = await lpm(['grant', '--users', students, '--courses', course, '--journal', path.join(dir, 'bad.journal')], { env: ctx.env });
  assert.equal(bad.code, 2, bad.stdout + bad.stderr);
  assert.match(bad.stderr, /^lpm grant: .*students\.csv: no column of account ids .*; its columns: Họ tên, Tài khoản, E-mail, Mật khẩu\. For a sheet of students, `lpm sync FILE --courses IDS`/);
  assert.deepEqual(await calls(), before, 'nothing granted');
  assert.ok(!existsSync(path.join(dir, 'bad.journal')));
});

test('grant and sync with a course id the platform does not know: exit 2 naming it, nothing sent, no journal', async () => {
  const dir = tempDir();
  const { records, enrolments } = await ctx.emu.state();
  const [user] = records.users;
  const course = records.courses[0]._id;
  const g = await lpm(['grant', '--users', user._id, '--courses', `${course},khong-co-khoa-nay`, '--journal', path.join(dir, 'g.journal')], { env: ctx.env });
  clean(g.stderr);
  assert.equal(g.code, 2, g.stdout + g.stderr);
  assert.equal(g.stderr, 'lpm grant: no course has the id "khong-co-khoa-nay" (--courses): nothing was sent; `lpm export courses` lists the ids\n');
  assert.ok(!existsSync(path.join(dir, 'g.journal')));
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu', 'Khoá học'], [[...goodRows(1, 'walkcourse')[0], `${course} sai-ma`]]));
  const s = await lpm(['sync', file, '--journal', path.join(dir, 's.journal'), '--interval-ms', '0'], { env: ctx.env });
  assert.equal(s.code, 2, s.stdout + s.stderr);
  assert.equal(s.stderr, 'lpm sync: no course has the id "sai-ma" (Khoá học, line 2): nothing was sent; `lpm export courses` lists the ids\n');
  assert.ok(!existsSync(path.join(dir, 's.journal')));
  const after = await ctx.emu.state();
  assert.equal(after.enrolments, enrolments);
  assert.ok(!after.records.users.some((u) => u.username === 'walkcourse0'), 'no account created');
});

test('sync: its course column is not called ignored; a row without a password is listed, and no "every account exists" hides it', async () => {
  const dir = tempDir();
  const { records } = await ctx.emu.state();
  const course = records.courses[0]._id;
  const file = path.join(dir, 'lop.csv');
  // One row for an account to create, without a password and without --generate-passwords.
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu', 'Khoá học', 'Ghi chú'], [['Học Viên Mới', 'walksync0', 'walksync0@school.test', '', course, 'x']]));
  for (const extra of [['--dry-run'], []]) {
    const r = await lpm(['sync', file, '--journal', path.join(dir, 's.journal'), '--interval-ms', '0', ...extra], { env: ctx.env });
    clean(r.stderr);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /; columns: .*Khoá học -> courses\n/);
    assert.match(r.stdout, /^ignored columns \(not account fields\): Ghi chú$/m);
    assert.match(r.stdout, /^row 1 \(line 2\): password: no password: one is needed to create this account \(give one, or use --generate-passwords\)$/m);
    assert.doesNotMatch(r.stdout, /^nothing to send: every account exists and holds the courses$/m);
    assert.match(r.stdout, /^nothing to send: every account exists and holds the courses, but for the 1 row set aside$/m);
  }
});

test('a refused token and an unreachable platform say what to do, as a job stopped by them does', async () => {
  const expired = await lpm(['whoami'], { env: { ...ctx.env, LPM_TOKEN: DEMO.expiredToken } });
  clean(expired.stderr);
  assert.equal(expired.code, 3);
  assert.match(expired.stderr, /^lpm whoami: ApiError: get-me answered respCode 04 .*; the token came from LPM_TOKEN: fix the token \(lpm login, LPM_TOKEN or --token-file\)\n$/);
  assert.ok(!expired.stderr.includes(DEMO.expiredToken));
  const learner = await lpm(['export', 'users'], { env: { ...ctx.env, LPM_TOKEN: DEMO.userToken } });
  assert.equal(learner.code, 3);
  assert.match(learner.stderr, /\(permission\).*; the token came from LPM_TOKEN: fix the token \(lpm login, LPM_TOKEN or --token-file\)\n$/);
  // A wrong password is no token to fix.
  const login = await lpm(['login', '--email', DEMO.adminEmail, '--password-stdin'], { env: { LPM_BASE_URL: ctx.env.LPM_BASE_URL }, input: 'wrong\n' });
  assert.equal(login.code, 3);
  assert.doesNotMatch(login.stderr, /fix the token/);
  // A port nothing listens on.
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  const down = await lpm(['whoami'], { env: { ...ctx.env, LPM_BASE_URL: `http://127.0.0.1:${port}` } });
  clean(down.stderr);
  assert.equal(down.code, 4);
  assert.equal(down.stderr, `lpm whoami: NetworkError: get-me: the request did not complete (network failure): connection refused; check the platform's address http://127.0.0.1:${port} (--base-url or LPM_BASE_URL) and the network, then run the same command again\n`);
});

test('usage errors in the words of the others; a pasted token or a value is never echoed', async () => {
  const token = DEMO.adminToken;
  const cases = [
    [['whoami', `--tokne=${token}`], /^lpm whoami: unknown option --tokne\n\nlpm whoami: /],
    [['import', 'x.csv', '--journal'], /^lpm import: --journal needs a value \(--journal FILE\)\n/],
    [['import', 'x.csv', '--resume=yes', '--journal', 'j'], /^lpm import: --resume takes no value\n/],
    [['grant', token, '--users', 'a', '--courses', 'b', '--journal', 'j'], /^lpm grant: grant takes no argument besides its options: the accounts go in --users \(see lpm grant --help\)\n$/],
    [['whoami', '--token-file', '/nonexistent/tok'], /^lpm whoami: cannot read the token file \/nonexistent\/tok: no such file or directory\n$/],
    [['import', 'x.csv', '--journal', '/nonexistent/dir/j'], /^lpm import: --journal \/nonexistent\/dir\/j: cannot create its lock file \/nonexistent\/dir\/j\.lock: no such file or directory\n$/],
  ];
  const dir = tempDir();
  writeFileSync(path.join(dir, 'x.csv'), sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], goodRows(1, 'walkusage')));
  for (const [args, expected] of cases) {
    const r = await lpm(args.map((a) => (a === 'x.csv' ? path.join(dir, a) : a)), { env: ctx.env });
    clean(r.stderr);
    assert.equal(r.code, args[0] === 'whoami' && args[1] === '--token-file' ? 3 : 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, expected);
    assert.ok(!r.stderr.includes(token) && !r.stdout.includes(token), `${args[0]}: the token is not echoed`);
  }
  // A malformed LPM_BASE_URL is named as such, not as an option the user never gave.
  const bad = await lpm(['whoami'], { env: { ...ctx.env, LPM_BASE_URL: '127.0.0.1:8787' } });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^lpm whoami: LPM_BASE_URL: unusable base URL/);
});

test('a report or an export named for one format and asked for another is refused before anything is read or sent', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], goodRows(1, 'walkformat')));
  const r = await lpm(['import', file, '--journal', path.join(dir, 'j'), '--report', path.join(dir, 'r.csv'), '--format', 'xlsx'], { env: ctx.env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /^lpm import: --report .*r\.csv names a \.csv file, but --format is xlsx: name it \.xlsx, or leave --format out\n$/);
  assert.equal(r.stdout, '');
  const e = await lpm(['export', 'users', '--format', 'xlsx', '--out', path.join(dir, 'u.csv')], { env: ctx.env });
  assert.equal(e.code, 2, e.stderr);
  assert.match(e.stderr, /^lpm export: --out .*u\.csv names a \.csv file, but --format is xlsx/);
  assert.ok(!existsSync(path.join(dir, 'u.csv')) && !existsSync(path.join(dir, 'r.csv')) && !existsSync(path.join(dir, 'j')));
  // Without --format, the file's extension says it, as for a report.
  for (const [name, magic] of [['u.xlsx', 'PK'], ['u.jsonl', '{'], ['u.csv', '\uFEFF']]) {
    const out = path.join(dir, name);
    const x = await lpm(['export', 'users', '--out', out], { env: ctx.env });
    assert.equal(x.code, 0, x.stderr);
    assert.ok(fs.readFileSync(out, 'utf8').startsWith(magic), `${name} starts with ${JSON.stringify(magic)}`);
  }
});

test('lpm --version names lpm and its client; lpm help of an unknown command is a usage error', async () => {
  const v = await lpm(['--version']);
  assert.equal(v.code, 0, v.stderr);
  assert.match(v.stdout, /^lpm \d+\.\d+\.\d+ \(lpm-client-bulk \d+\.\d+\.\d+\)\n$/);
  const h = await lpm(['help', 'imprt']);
  assert.equal(h.code, 2);
  assert.match(h.stderr, /^lpm: unknown command "imprt"\n/);
  assert.equal(h.stdout, '');
});

test('sync --format json writes JSON; each job command\'s help gives its own report and interval defaults', async () => {
  const dir = tempDir();
  const course = (await ctx.emu.state()).records.courses[0]._id;
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], goodRows(1, 'walkjson')));
  const r = await lpm(['sync', file, '--courses', course, '--journal', path.join(dir, 's.journal'), '--interval-ms', '0', '--format', 'json'], { env: ctx.env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const report = JSON.parse(fs.readFileSync(path.join(dir, 'lop.sync.json'), 'utf8'));
  assert.equal(report.length, 1);
  assert.equal(report[0].username, 'walkjson0');
  assert.equal(report[0].result, 'created');
  const defaults = { import: ['FILE.report.csv beside the sheet', '600000'], sync: ['FILE.sync.csv beside the sheet', '600000'], grant: ['J.report.csv beside the journal', 'default 0'] };
  for (const [command, [report, interval]] of Object.entries(defaults)) {
    const help = (await lpm([command, '--help'])).stdout;
    assert.match(help, new RegExp(`--report FILE .*default ${report}\\n`), command);
    assert.ok(help.split('\n').find((l) => l.includes('--interval-ms')).includes(interval), command);
  }
});

test('lpm login with LPM_TOKEN set says the saved token is not the one lpm will use', async () => {
  const r = await lpm(['login', '--email', DEMO.adminEmail, '--password-stdin'], {
    env: { LPM_BASE_URL: ctx.env.LPM_BASE_URL, LPM_TOKEN: DEMO.expiredToken },
    input: `${DEMO.adminPassword}\n`,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^note: LPM_TOKEN is set, and lpm uses it before .*token: unset LPM_TOKEN to use the token just saved\n$/);
  assert.ok(!r.stderr.includes(DEMO.expiredToken));
  const quiet = await lpm(['login', '--email', DEMO.adminEmail, '--password-stdin'], { env: { LPM_BASE_URL: ctx.env.LPM_BASE_URL }, input: `${DEMO.adminPassword}\n` });
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.equal(quiet.stderr, '');
});

test('a class list without a password column: --generate-passwords imports it (dry run included), sync reads it', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email'], [['Học Viên Một', 'walknopw0', 'walknopw0@school.test']]));
  const v = await lpm(['validate', file]);
  assert.equal(v.code, 2);
  assert.match(v.stderr, /no column for password .*; for a sheet without passwords, import or sync it with --generate-passwords\n$/);
  const journal = path.join(dir, 'j');
  const dry = await lpm(['import', file, '--journal', journal, '--generate-passwords', '--dry-run'], { env: ctx.env });
  assert.equal(dry.code, 0, dry.stdout + dry.stderr);
  assert.match(dry.stdout, /^1 row ready, 0 set aside\n1 row without a password will get a generated one \(a dry run generates none\)\nplan: 1 row in 1 call of/m);
  const r = await lpm(['import', file, '--journal', journal, '--generate-passwords', '--interval-ms', '0'], { env: ctx.env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /created 1,/);
  const { readTableFile } = await import('../src/sheet.js');
  const { records } = await readTableFile(path.join(dir, 'lop.credentials.xlsx'));
  assert.equal(records.length, 2);
  assert.equal(records[1].cells[2], 'walknopw0');
  // The same list, now of existing accounts: sync needs no password to grant them.
  const course = (await ctx.emu.state()).records.courses[0]._id;
  const s = await lpm(['sync', file, '--courses', course, '--journal', path.join(dir, 's'), '--interval-ms', '0'], { env: ctx.env });
  assert.equal(s.code, 0, s.stdout + s.stderr);
  assert.match(s.stdout, /^1 row: 1 existed, 0 created, 1 granted courses/m);
});

test('Ctrl-C during an export speaks of no journal (it has none) and leaves no file', async () => {
  const dir = tempDir();
  const out = path.join(dir, 'users.csv');
  await ctx.emu.control('POST', 'faults', { endpoint: 'get-multi-user', kind: 'delay', delayMs: 5000, count: 1 });
  try {
    const run = lpm(['export', 'users', '--out', out], { env: ctx.env });
    await new Promise((resolve) => setTimeout(resolve, 800));
    run.child.kill('SIGINT');
    const r = await run;
    assert.equal(r.code, 130, r.stderr);
    assert.doesNotMatch(r.stderr, /journal/);
    assert.match(r.stderr, /^\nSIGINT: stopping \(nothing is kept: run the export again; again to quit at once\)\ninterrupted after 0 users: .*users\.csv not written\n$/);
    assert.ok(!existsSync(out));
  } finally {
    await ctx.emu.control('DELETE', 'faults');
  }
  // To standard output, what was written stays where it went: said so, not "nothing is kept".
  await ctx.emu.control('POST', 'faults', { endpoint: 'get-multi-user', kind: 'delay', delayMs: 5000, count: 1 });
  try {
    const run = lpm(['export', 'users'], { env: ctx.env });
    await new Promise((resolve) => setTimeout(resolve, 800));
    run.child.kill('SIGINT');
    const r = await run;
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /^\nSIGINT: stopping \(what was written so far is partial: run the export again; again to quit at once\)\ninterrupted after 0 users\n$/);
  } finally {
    await ctx.emu.control('DELETE', 'faults');
  }
});

test('lpm login without a base URL says so before asking for the password', async () => {
  const home = tempDir();
  // Standard input left open, as a terminal waiting for the password would be.
  const child = spawn(process.execPath, [CLI, 'login'], {
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  child.stdin.destroy();
  assert.equal(code, 3, stderr);
  assert.equal(stderr, 'lpm login: no base URL: pass --base-url URL or set LPM_BASE_URL\n');
});

test('a platform out of accounts: the job says to have its limit raised; a sync stopped by a refused token exits 3 as an import does', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], goodRows(2, 'walkfull')));
  const { accounts } = await ctx.emu.control('GET', 'state');
  await ctx.emu.control('POST', 'capacity', { capacity: accounts });
  try {
    const r = await lpm(['import', file, '--journal', path.join(dir, 'j'), '--interval-ms', '0'], { env: ctx.env });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /stopped before the end: .*\(capacity\).*; the platform holds as many accounts as it may: have its limit raised \(or free accounts\), then run the same command with --resume to continue\n$/);
  } finally {
    await ctx.emu.control('POST', 'capacity', { capacity: 10000 });
  }
  const course = (await ctx.emu.state()).records.courses[0]._id;
  // Look-ups pass; the first create is answered as the platform answers an expired token (08).
  await ctx.emu.control('POST', 'faults', { endpoint: 'create-multi-user', kind: 'respcode', respCode: '08', msg: 'Invalid token or Token has expired', status: 401, count: 1 });
  try {
    const s = await lpm(['sync', file, '--courses', course, '--journal', path.join(dir, 's'), '--interval-ms', '0'], { env: ctx.env });
    clean(s.stderr);
    assert.equal(s.code, 3, s.stdout + s.stderr);
    assert.match(s.stderr, /stopped before the end: .*\(authentication\).*; fix the token \(lpm login, LPM_TOKEN or --token-file\), then run the same command with --resume to continue\n$/);
  } finally {
    await ctx.emu.control('DELETE', 'faults');
  }
});

test('a job started with --generate-passwords and resumed without it is refused, not finished without its rows', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], goodRows(2, 'walkresume').map((r) => [...r.slice(0, 3), ''])));
  const journal = path.join(dir, 'j');
  const base = ['import', file, '--journal', journal, '--chunk', '1', '--interval-ms', '60000'];
  const run = lpm([...base, '--generate-passwords'], { env: ctx.env });
  // Stopped (Ctrl-C) once the first row is created, while it waits for the next chunk.
  while (outcomeRows(journalEvents(journal)) < 1) await new Promise((resolve) => setTimeout(resolve, 20));
  run.child.kill('SIGINT');
  assert.equal((await run).code, 130);
  const r = await lpm([...base, '--resume'], { env: ctx.env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /^lpm import: --resume: rows of this sheet have no password, and .*lop\.credentials\.xlsx holds the passwords generated for it: resume with --generate-passwords, as the job was started\n$/);
  const done = await lpm([...base, '--resume', '--generate-passwords', '--interval-ms', '0'], { env: ctx.env });
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.match(done.stdout, /created 2,/);
});

test('a base URL that is the school\'s web site (a 404 page, an HTML page) asks whether it is the platform\'s address', async () => {
  for (const status of [404, 200]) {
    const site = http.createServer((q, s) => { s.writeHead(status, { 'content-type': 'text/html' }); s.end('<html><body>Trường THPT</body></html>'); });
    await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${site.address().port}`;
    try {
      const r = await lpm(['whoami'], { env: { ...ctx.env, LPM_BASE_URL: base } });
      clean(r.stderr);
      assert.equal(r.code, 4, r.stderr);
      assert.ok(r.stderr.endsWith(`; is ${base} the platform's address? (--base-url or LPM_BASE_URL)\n`), r.stderr);
    } finally {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  }
});

test('counts of one read in the singular: "1 row", "1 account", "1 course"', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], goodRows(1, 'walkone')));
  const v = await lpm(['validate', file]);
  assert.match(v.stdout, /: 1 row, comma-separated;.*\n1 row ready, 0 set aside\n$/);
  const r = await lpm(['import', file, '--journal', path.join(dir, 'j'), '--interval-ms', '0'], { env: ctx.env });
  assert.match(r.stdout, /^1 row: created 1,/m);
  const id = (await ctx.emu.state()).records.users.find((u) => u.username === 'walkone0')._id;
  const course = (await ctx.emu.state()).records.courses[0]._id;
  const g = await lpm(['grant', '--users', id, '--courses', course, '--journal', path.join(dir, 'g')], { env: ctx.env });
  assert.match(g.stdout, /^granting 1 course to 1 account from the command line$/m);
  for (const out of [v.stdout, r.stdout, g.stdout]) assert.doesNotMatch(out, /\b1 (rows|accounts|courses|calls)\b|\(s\)/);
});

test('a report, --failed or credentials file that is the sheet or the journal is refused: the sheet is never written over', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'lop.csv');
  const text = sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], goodRows(1, 'walkover'));
  writeFileSync(file, text);
  const journal = path.join(dir, 'j');
  const cases = [
    [['--report', file], '--report', 'the sheet'],
    [['--failed', path.join(dir, '.', 'lop.csv')], '--failed', 'the sheet'],
    [['--report', journal], '--report', 'the journal'],
    [['--generate-passwords', '--credentials', file], '--credentials', 'the sheet'],
  ];
  for (const [extra, option, what] of cases) {
    const r = await lpm(['import', file, '--journal', journal, '--interval-ms', '0', ...extra], { env: ctx.env });
    assert.equal(r.code, 2, `${extra.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, new RegExp(`^lpm import: ${option} .* is ${what}: name another file, or it would be written over\\n$`));
    assert.equal(fs.readFileSync(file, 'utf8'), text, 'the sheet is as it was');
    assert.ok(!existsSync(journal));
  }
});

test('grant --users with a misspelt file name is refused, not granted to an account named like the file', async () => {
  const course = (await ctx.emu.state()).records.courses[0]._id;
  const dir = tempDir();
  const before = (await ctx.emu.state()).enrolments;
  for (const arg of ['ids.cvs', path.join(dir, 'missing', 'ids.csv')]) {
    const r = await lpm(['grant', '--users', arg, '--courses', course, '--journal', path.join(dir, 'j')], { env: ctx.env });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(r.stderr, `lpm grant: --users ${arg}: no such file (account ids are given separated by commas)\n`);
  }
  assert.equal((await ctx.emu.state()).enrolments, before);
  assert.ok(!existsSync(path.join(dir, 'j')));
});

test('the API token pasted as --users or --courses is refused, never sent nor kept in a journal or a report', async () => {
  const dir = tempDir();
  const course = (await ctx.emu.state()).records.courses[0]._id;
  for (const [users, courses, option] of [[DEMO.adminToken, course, '--users'], ['someone', DEMO.adminToken, '--courses']]) {
    const journal = path.join(dir, `j-${option.slice(2)}`);
    const r = await lpm(['grant', '--users', users, '--courses', courses, '--journal', journal], { env: ctx.env });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(r.stderr, `lpm grant: ${option} holds the API token (pasted in the wrong place?): give ids there; the token is never written to a journal or a report\n`);
    assert.ok(!existsSync(journal) && !existsSync(`${journal}.report.csv`));
  }
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], goodRows(1, 'walktoken')));
  const s = await lpm(['sync', file, '--courses', DEMO.adminToken, '--journal', path.join(dir, 's')], { env: ctx.env });
  assert.equal(s.code, 2, s.stdout + s.stderr);
  assert.ok(!`${s.stdout}${s.stderr}`.includes(DEMO.adminToken));
  assert.ok(!existsSync(path.join(dir, 's')) && !existsSync(path.join(dir, 'lop.sync.csv')));
});

test('Ctrl-C during a sync\'s look-ups says nothing was sent, not that a journal resumes it', async () => {
  const dir = tempDir();
  const course = (await ctx.emu.state()).records.courses[0]._id;
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], goodRows(2, 'walksyncint')));
  await ctx.emu.control('POST', 'faults', { endpoint: 'search-user', kind: 'delay', delayMs: 5000, count: 2 });
  try {
    const run = lpm(['sync', file, '--courses', course, '--journal', path.join(dir, 's')], { env: ctx.env });
    let seen = '';
    run.child.stdout.on('data', (d) => { seen += d; });
    // Once the sheet is listed, the look-ups are under way (the course check is quick).
    while (!/rows? ready/.test(seen)) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 500));
    run.child.kill('SIGINT');
    const r = await run;
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /^\nSIGINT: stopping \(nothing was sent yet; again to quit at once\)\ninterrupted: nothing was sent: run the same command again\n$/);
  } finally {
    await ctx.emu.control('DELETE', 'faults');
  }
});

test('grant --users a sync report grants the sheet\'s accounts, never the other person\'s account a row conflicts with', async () => {
  const dir = tempDir();
  const { records } = await ctx.emu.state();
  const [course, other] = records.courses.map((c) => c._id);
  // Not the first course: the accounts must lack `other`.
  const someone = records.users.find((u) => !(u.myCourses ?? []).some((c) => c.courseId === other));
  const file = path.join(dir, 'lop.csv');
  // Row 2 names someone's username with another e-mail: a conflict, granted nothing by sync.
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], [goodRows(1, 'walkconf')[0], ['Người Khác', someone.username, 'walkconf-other@school.test', 'pass-9-word']]));
  const s = await lpm(['sync', file, '--courses', course, '--journal', path.join(dir, 's'), '--interval-ms', '0'], { env: ctx.env });
  assert.equal(s.code, 1, s.stdout + s.stderr);
  const g = await lpm(['grant', '--users', path.join(dir, 'lop.sync.csv'), '--courses', other, '--journal', path.join(dir, 'g')], { env: ctx.env });
  assert.equal(g.code, 0, g.stdout + g.stderr);
  assert.match(g.stdout, /^granting 1 course to 1 account from .*lop\.sync\.csv \(its accounts that exist or were created\)$/m);
  const after = (await ctx.emu.state()).records.users.find((u) => u._id === someone._id);
  assert.ok(!(after.myCourses ?? []).some((c) => c.courseId === other), 'the other person was granted nothing');
});

test('sync --dry-run needs no journal, as import --dry-run does', async () => {
  const dir = tempDir();
  const course = (await ctx.emu.state()).records.courses[0]._id;
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], goodRows(1, 'walkdry')));
  const r = await lpm(['sync', file, '--courses', course, '--dry-run'], { env: ctx.env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^plan: 0 accounts exist, 1 to create in 1 call of up to 100; /m);
  assert.deepEqual(fs.readdirSync(dir), ['lop.csv'], 'nothing written');
  const run = await lpm(['sync', file, '--courses', course], { env: ctx.env });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--journal FILE is required/);
});

test('grant --users reads lpm\'s JSON reports; other JSON, and an "Account" column of login names, are refused, nothing sent', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], goodRows(2, 'walkjrep')));
  const imported = await lpm(['import', file, '--journal', path.join(dir, 'import.journal'), '--interval-ms', '0', '--report', path.join(dir, 'lop.report.json')], { env: ctx.env });
  assert.equal(imported.code, 0, imported.stderr + fs.readFileSync(path.join(dir, 'lop.report.json'), 'utf8'));
  const course = (await ctx.emu.state()).records.courses[0]._id;
  const enrolments = async () => (await ctx.emu.state()).enrolments;
  const r = await lpm(['grant', '--users', path.join(dir, 'lop.report.json'), '--courses', course, '--journal', path.join(dir, 'g.journal')], { env: ctx.env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^granting 1 course to 2 accounts from .*lop\.report\.json \(the accounts it records as created\)$/m);
  for (const u of (await ctx.emu.state()).records.users.filter((x) => x.username.startsWith('walkjrep'))) {
    assert.ok(u.myCourses.some((c) => c.courseId === course), `${u.username} holds the course`);
  }
  // The grant's own JSON report names its accounts.
  const again = await lpm(['grant', '--users', path.join(dir, 'g.journal.report.csv'), '--courses', course, '--journal', path.join(dir, 'g2.journal'), '--report', path.join(dir, 'g2.json')], { env: ctx.env });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  const fromGrant = await lpm(['grant', '--users', path.join(dir, 'g2.json'), '--courses', course, '--journal', path.join(dir, 'g3.journal')], { env: ctx.env });
  assert.equal(fromGrant.code, 0, fromGrant.stdout + fromGrant.stderr);
  assert.match(fromGrant.stdout, /^granting 1 course to 2 accounts from .*g2\.json \(its accounts\)$/m);
  // JSON that is no report of lpm's, and a sheet whose "Account" column holds login names.
  writeFileSync(path.join(dir, 'other.json'), '{\n "users": ["a", "b"]\n}\n');
  writeFileSync(path.join(dir, 'names.csv'), sheet(['Name', 'Account', 'Email'], [['An Bình', 'an01', 'an01@school.test']]));
  const before = await enrolments();
  for (const [users, said] of [['other.json', /other\.json: JSON, but not a report of lpm import, grant or sync/], ['names.csv', /names\.csv: no column of account ids .*; its columns: Name, Account, Email\./]]) {
    const bad = await lpm(['grant', '--users', path.join(dir, users), '--courses', course, '--journal', path.join(dir, `${users}.journal`)], { env: ctx.env });
    assert.equal(bad.code, 2, bad.stdout + bad.stderr);
    assert.match(bad.stderr, said);
    assert.ok(!existsSync(path.join(dir, `${users}.journal`)));
  }
  assert.deepEqual(await enrolments(), before, 'nothing granted');
});

test('a course unknown on a resume says nothing more was sent; sync --resume without a journal names what it needs', async () => {
  const { checkCourses } = await import('../src/courses.js');
  const notFound = Object.assign(new Error('course not found'), { kind: 'api', category: 'notFound' });
  const client = { getCourse: async (id) => { if (id === 'gone') throw notFound; return {}; } };
  await assert.rejects(checkCourses(client, ['c1', 'gone'], { resumed: true }), (e) => {
    assert.equal(e.code, 2);
    assert.equal(e.message, 'no course has the id "gone" (--courses): nothing more was sent; `lpm export courses` lists the ids');
    return true;
  });
  await assert.rejects(checkCourses(client, ['gone']), /: nothing was sent;/);
  const dir = tempDir();
  const file = path.join(dir, 'lop.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], goodRows(1, 'walkresj')));
  const r = await lpm(['sync', file, '--courses', 'c1', '--dry-run', '--resume'], { env: ctx.env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /^lpm sync: --resume continues a sync: name its journal with --journal J\n$/);
});
