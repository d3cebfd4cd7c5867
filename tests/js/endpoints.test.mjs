// Every endpoint's success over real HTTP against the emulator's demo data.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { lpm, emulator, DEMO, newUser, countingFetch, rejectsWith } from './helpers.mjs';

const { Client, ApiError, LpmError } = lpm;
let emu;
let client;
let fetchSpy;

before(async () => {
  emu = await emulator(['--create-interval-secs', '1']);
});
after(async () => { await emu?.stop(); });
beforeEach(async () => {
  await emu.reset();
  fetchSpy = countingFetch();
  // intervalMs 0: these tests create back to back; the guard has its own file.
  client = new Client({
    baseUrl: emu.url, token: DEMO.adminToken, fetch: fetchSpy, retryDelayMs: 10,
    createInterval: { intervalMs: 0 },
  });
});

const firstUsers = async (n = 3) => (await client.getUsers({ start: 0, limit: n })).users;
const firstCourses = async (n = 3) => (await client.getCourses({ start: 0, limit: n })).courses;

test('getUsers: a page of typed user records plus msg', async () => {
  const page = await client.getUsers({ start: 0, limit: 5 });
  assert.equal(page.msg, 'Success');
  assert.equal(page.users.length, 5);
  for (const u of page.users) {
    assert.equal(typeof u._id, 'string');
    assert.equal(typeof u.username, 'string');
    assert.ok(Array.isArray(u.emails));
    assert.equal(typeof u.profile.name, 'string');
    assert.match(u.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  }
  const next = await client.getUsers({ start: 5, limit: 5 });
  assert.equal(next.users.length, 5);
  const ids = new Set([...page.users, ...next.users].map((u) => u._id));
  assert.equal(ids.size, 10, 'pages do not overlap');
  assert.match(fetchSpy.urls[0], /\/manage\/api\/users\/get-multi-user\?/);
  assert.match(fetchSpy.urls[0], /[?&]start=0(&|$)/);
  assert.match(fetchSpy.urls[0], /[?&]limit=5(&|$)/);
});

test('getUsers without params uses start 0 and the largest limit', async () => {
  const page = await client.getUsers();
  assert.equal(page.users.length, 100);
});

test('getUser with the default "users" path and with userPath "user"', async () => {
  const [u] = await firstUsers(1);
  const a = await client.getUser(u._id);
  assert.equal(a.user._id, u._id);
  assert.equal(a.msg, 'Success');
  assert.match(fetchSpy.urls.at(-1), /\/manage\/api\/users\/get-single-user\//);

  const spy = countingFetch();
  const c2 = new Client({ baseUrl: emu.url, token: DEMO.adminToken, userPath: 'user', fetch: spy });
  const b = await c2.getUser(u._id);
  assert.deepEqual(b.user, a.user);
  assert.match(spy.urls[0], /\/manage\/api\/user\/get-single-user\//);
});

test('getMe: the token\'s own account with forSeller and balance', async () => {
  const me = await client.getMe();
  assert.equal(me.user.emails[0].address, DEMO.adminEmail);
  assert.equal(typeof me.user.forSeller.callDistrCoeff, 'number');
  assert.deepEqual(me.user.balance, {});
  assert.equal(me.msg, 'Success');
});

test('searchUser: by e-mail first, then by username', async () => {
  const [a, b] = await firstUsers(2);
  // Both given, e-mail matches a → a (not b's username).
  const byEmail = await client.searchUser({ email: a.emails[0].address, username: b.username });
  assert.equal(byEmail.user._id, a._id);
  // E-mail matches nobody → falls back to the username.
  const byName = await client.searchUser({ email: 'nobody-here@example.test', username: b.username });
  assert.equal(byName.user._id, b._id);
  const onlyName = await client.searchUser({ username: a.username });
  assert.equal(onlyName.user._id, a._id);
});

test('getCourse: one typed course record', async () => {
  const [c] = await firstCourses(1);
  const r = await client.getCourse(c._id);
  assert.equal(r.course._id, c._id);
  assert.equal(typeof r.course.price.original, 'number');
  assert.equal(typeof r.course.title, 'string');
  assert.ok(Array.isArray(r.course.purpose));
  assert.equal(r.msg, 'Success');
});

test('getCourses: a page, and limit 0 is allowed (empty page)', async () => {
  const page = await client.getCourses({ start: 0, limit: 10 });
  assert.equal(page.courses.length, 10);
  assert.equal(page.msg, 'Success');
  const empty = await client.getCourses({ start: 0, limit: 0 });
  assert.deepEqual(empty.courses, []);
  assert.match(fetchSpy.urls.at(-1), /[?&]limit=0(&|$)/);
});

test('searchCourses: "trac nghiem" finds a "Trắc nghiệm" title; no match is an empty list', async () => {
  const r = await client.searchCourses('trac nghiem');
  assert.ok(r.courses.length >= 1);
  for (const c of r.courses) {
    assert.match(c.title.normalize('NFC'), /Trắc nghiệm/i);
  }
  const none = await client.searchCourses('zzzz-no-such-course-qqq');
  assert.deepEqual(none.courses, []);
});

test('createUsers leaves the passwords the platform echoes out of the reply, unless keepPasswords', async () => {
  const echoed = await client.createUsers([newUser('pw')], { keepPasswords: true });
  assert.equal(typeof echoed.users[0].password, 'string', 'the emulator echoes it, as the contract shows');
  const u = newUser('pw');
  const r = await client.createUsers([u]);
  assert.equal(r.users[0].success, true);
  assert.ok(!('password' in r.users[0]), JSON.stringify(r.users[0]));
  assert.ok(!JSON.stringify(r).includes(u.password));
  const seen = await client.withResponse().createUser(newUser('pw'));
  assert.ok(!('password' in seen.data.users[0]));
});

test('createUsers: per-item outcomes incl. an existing e-mail and an existing username', async () => {
  const [a, b] = await firstUsers(2);
  const ok = newUser('ok');
  const dupEmail = { ...newUser('de'), email: a.emails[0].address };
  const dupName = { ...newUser('dn'), username: b.username };
  const before = await emu.state();
  const r = await client.createUsers([ok, dupEmail, dupName]);
  assert.equal(r.users.length, 3);
  assert.equal(r.users[0].success, true);
  assert.equal(r.users[0].status, 'Success created');
  assert.equal(typeof r.users[0].userId, 'string');
  assert.equal(r.users[0].username, ok.username);
  assert.equal(r.users[1].success, false);
  assert.equal(r.users[1].status, 'Email already in use');
  assert.ok(r.users[1].userId == null);
  assert.equal(r.users[2].success, false);
  assert.equal(r.users[2].status, 'Username already in use');
  assert.equal(r.msg, '1 success, 2 error');
  assert.equal(r.respCode, '00');
  assert.equal(r.created, 1);
  assert.equal(r.failed, 2);
  assert.deepEqual(r.msgCounts, { succeeded: 1, failed: 2 });
  assert.equal((await emu.state()).accounts, before.accounts + 1);
  // The created account is readable.
  const got = await client.getUser(r.users[0].userId);
  assert.equal(got.user.username, ok.username);
  assert.equal(fetchSpy.methods[1], 'POST');
});

test('createUsers: code 13 (no item created) resolves with every item failed', async () => {
  const [a] = await firstUsers(1);
  const r = await client.createUsers([{ ...newUser('x'), username: a.username }, { ...newUser('y'), email: a.emails[0].address }]);
  assert.equal(r.respCode, '13');
  assert.equal(r.created, 0);
  assert.equal(r.failed, 2);
  assert.ok(r.users.every((u) => u.success === false));
  assert.equal(r.msg, '0 success, 2 error');
  assert.deepEqual(r.msgCounts, { succeeded: 0, failed: 2 });
});

test('createUser: one account through the bulk endpoint', async () => {
  const u = newUser('one');
  const r = await client.createUser(u);
  assert.equal(r.users.length, 1);
  assert.equal(r.users[0].success, true);
  assert.match(fetchSpy.urls[0], /\/manage\/api\/users\/create-multi-user\?/);
  const calls = await emu.control('GET', 'create-calls');
  assert.equal(calls.calls.length, 1);
  assert.equal(calls.calls[0].items, 1);
  const found = await client.searchUser({ username: u.username });
  assert.equal(found.user._id, r.users[0].userId);
});

test('createSingleUserRaw: the envelope as received', async () => {
  const u = newUser('raw');
  const r = await client.createSingleUserRaw(u);
  assert.equal(r.respCode, '00');
  assert.equal(typeof r.msg, 'string');
  assert.equal(r.user.username, u.username);
  assert.equal(r.user.success, true);
  assert.match(fetchSpy.urls[0], /\/manage\/api\/users\/create-single-user\?/);
  // Not a bulk call: not logged as one, not guarded.
  assert.equal((await emu.control('GET', 'create-calls')).calls.length, 0);
});

test('addCoursesToUsers: validCourses, result, msgCounts from the Vietnamese msg, enrolments visible', async () => {
  const [a, b] = await firstUsers(2);
  const [c1, c2] = await firstCourses(2);
  const r = await client.addCoursesToUsers({ users: [a._id, b._id, 'NoSuchUser1234567'], courses: [c1._id, c2._id, 'NoSuchCourse12345'] });
  assert.deepEqual(r.validCourses.map((c) => c._id), [c1._id, c2._id]);
  assert.equal(r.validCourses[0].title, c1.title);
  assert.equal(r.result.length, 3);
  assert.deepEqual(r.result.map((x) => x.success), [true, true, false]);
  assert.equal(r.result[0].status, 'Success');
  assert.match(r.msg, /tài khoản thêm khoá học thành công/);
  assert.deepEqual(r.msgCounts, { succeeded: 2, failed: 1 });
  assert.equal(r.succeeded, 2);
  assert.equal(r.failed, 1);
  for (const u of [a, b]) {
    const { user } = await client.getUser(u._id);
    const ids = (user.myCourses || []).map((e) => e.courseId);
    assert.ok(ids.includes(c1._id) && ids.includes(c2._id), 'enrolled in both');
    const e = user.myCourses.find((x) => x.courseId === c1._id);
    assert.match(e.activatedDate, /Z$/);
    assert.ok(Date.parse(e.expiredAt) > Date.parse(e.activatedDate));
  }
});

test('login: token and tokenExpires, then withToken', async () => {
  const anon = new Client({ baseUrl: emu.url });
  const r = await anon.login(DEMO.adminEmail, DEMO.adminPassword);
  assert.equal(typeof r.token, 'string');
  assert.ok(r.token.length > 0);
  assert.ok(Number.isFinite(Date.parse(r.tokenExpires)));
  assert.ok(Date.parse(r.tokenExpires) > Date.now());
  assert.equal(r.msg, 'login success');
  const authed = anon.withToken(r.token);
  assert.ok(authed instanceof Client);
  assert.equal(authed.baseUrl, anon.baseUrl);
  const me = await authed.getMe();
  assert.equal(me.user.emails[0].address, DEMO.adminEmail);
  // A created account can log in too and gets its own token, without permission.
  const u = newUser('lg');
  await client.createUsers([u]);
  const t = await anon.login(u.email, u.password);
  assert.notEqual(t.token, DEMO.adminToken);
  const own = await anon.withToken(t.token).getMe();
  assert.equal(own.user.username, u.username);
  await rejectsWith(anon.withToken(t.token).getUsers(), ApiError, { category: 'permission' });
});

test('allUsers(): every account once, in pages of 100', async () => {
  const state = await emu.state();
  const ids = [];
  for await (const u of client.allUsers()) ids.push(u._id);
  assert.equal(ids.length, state.accounts);
  assert.equal(new Set(ids).size, ids.length, 'no duplicates');
  const pageUrls = fetchSpy.urls.filter((u) => u.includes('get-multi-user'));
  assert.equal(pageUrls.length, Math.floor(state.accounts / 100) + 1);
  pageUrls.forEach((u, i) => {
    assert.match(u, /[?&]limit=100(&|$)/);
    assert.match(u, new RegExp(`[?&]start=${i * 100}(&|$)`));
  });
});

test('allCourses(): every course once; break stops paging', async () => {
  const state = await emu.state();
  const ids = [];
  for await (const c of client.allCourses()) ids.push(c._id);
  assert.equal(ids.length, state.courses);
  assert.equal(new Set(ids).size, ids.length);
  // After adding accounts past a page boundary the count still matches.
  fetchSpy.reset();
  let n = 0;
  for await (const u of client.allUsers()) { n += 1; if (n === 3) break; }
  assert.equal(fetchSpy.calls, 1, 'breaking early fetches no more pages');
});

test('results and errors are plain data / LpmError instances', async () => {
  const page = await client.getCourses({ start: 0, limit: 1 });
  assert.deepEqual(JSON.parse(JSON.stringify(page)), page);
  const e = await rejectsWith(client.getUser('NoSuchUser1234567'), ApiError, {}, lpm);
  assert.ok(e instanceof LpmError);
});
