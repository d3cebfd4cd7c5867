// Every error code the emulator can produce, as ApiError (endpoint, code, category, msg, status).
// Codes the client never provokes itself (it validates first and always sends the token) are
// reached with a custom `fetch` that tampers with the request on its way out: that way the
// response still goes through the client's per-endpoint decoding.
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { lpm, emulator, DEMO, newUser, rejectsWith } from './helpers.mjs';

const { Client, ApiError, ConfigError, ValidationError, HttpError } = lpm;
let emu;
let ids; // a seeded account id and course id

before(async () => {
  emu = await emulator(['--create-interval-secs', '1']);
  const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken });
  ids = {
    user: (await c.getUsers({ start: 0, limit: 1 })).users[0]._id,
    course: (await c.getCourses({ start: 0, limit: 1 })).courses[0]._id,
  };
});
after(async () => { await emu?.stop(); });
beforeEach(async () => { await emu.reset(); });

/** A client whose fetch lets `edit(url: URL, init)` change the request first. */
function tampered(edit, token = DEMO.adminToken) {
  return new Client({
    baseUrl: emu.url, token, maxRetries: 0, createInterval: { guard: 'off' },
    fetch: (url, init) => {
      const u = new URL(url);
      const next = { ...init, headers: { ...init.headers } };
      edit(u, next);
      return fetch(u.toString(), next);
    },
  });
}
const plain = (token = DEMO.adminToken, extra = {}) => new Client({
  baseUrl: emu.url, token, maxRetries: 0, createInterval: { guard: 'off' }, ...extra,
});

/** One call of every endpoint that takes a token, with valid input. */
const calls = {
  'create-multi-user': (c) => c.createUsers([newUser('e')]),
  'create-single-user': (c) => c.createSingleUserRaw(newUser('s')),
  'get-multi-user': (c) => c.getUsers({ start: 0, limit: 2 }),
  'get-single-user': (c) => c.getUser(ids.user),
  'get-me': (c) => c.getMe(),
  'search-user': (c) => c.searchUser({ email: DEMO.adminEmail }),
  'get-single-course': (c) => c.getCourse(ids.course),
  'get-multi-course': (c) => c.getCourses({ start: 0, limit: 2 }),
  'search-course': (c) => c.searchCourses('trac nghiem'),
  'add-multi-course-to-multi-user': (c) => c.addCoursesToUsers({ users: [ids.user], courses: [ids.course] }),
};

/** Asserts an ApiError; `category` is checked where the client knows the code's meaning. */
async function api(promise, endpoint, code, msg, status, category) {
  const e = await rejectsWith(promise, ApiError, { endpoint, code, status }, lpm);
  if (msg instanceof RegExp) assert.match(e.msg, msg); else assert.equal(e.msg, msg);
  if (category) assert.equal(e.category, category, `${endpoint} ${code} category`);
  assert.equal(typeof e.category, 'string');
  assert.equal(typeof e.reason, 'string');
  assert.equal(typeof e.retryable, 'boolean');
  assert.equal(e.kind, 'api');
  assert.ok(e.message.includes(code), 'message names the code');
  return e;
}

describe('no token', () => {
  test('a client without a token refuses before sending (ConfigError noToken)', async () => {
    let sent = 0;
    const c = new Client({ baseUrl: emu.url, fetch: (...a) => { sent += 1; return fetch(...a); } });
    for (const [endpoint, call] of Object.entries(calls)) {
      await rejectsWith(call(c), ConfigError, { problem: 'noToken', endpoint }, lpm);
    }
    assert.equal(sent, 0);
  });
  const rows = [
    ['create-multi-user', '06', 'No token', 'authentication'],
    ['create-single-user', '04', 'No token'],
    ['get-multi-user', '02', 'No token', 'authentication'],
    ['get-single-user', '03', 'No token', 'authentication'],
    ['get-me', '02', 'No token', 'authentication'],
    ['search-user', '02', 'No token', 'authentication'],
    ['get-single-course', '03', 'No token'],
    ['get-multi-course', '02', 'No token'],
    ['search-course', '02', 'No token'],
    ['add-multi-course-to-multi-user', '10', 'No token'],
  ];
  for (const [endpoint, code, msg, category] of rows) {
    test(`server answer without token: ${endpoint} ${code}`, async () => {
      const c = tampered((u) => u.searchParams.delete('token'));
      await api(calls[endpoint](c), endpoint, code, msg, 401, category);
    });
  }
});

describe('user token without permission', () => {
  const rows = [
    ['create-multi-user', '10', 'Your account does not have permission'],
    ['create-single-user', '07', 'Your account does not have permission'],
    ['get-multi-user', '08', 'Your account does not have permission'],
    ['get-single-user', '06', 'Your account does not have permission'],
    ['search-user', '06', 'Your account does not have permission'],
    ['get-single-course', '06', 'Your account does not have permission'],
    ['get-multi-course', '08', 'Your account does not have permission'],
    ['search-course', '06', 'Your account does not have permission'],
    ['add-multi-course-to-multi-user', '13', 'Your account does not have permission'],
  ];
  for (const [endpoint, code, msg] of rows) {
    test(`${endpoint} ${code}`, async () => {
      await api(calls[endpoint](plain(DEMO.userToken)), endpoint, code, msg, 401, 'permission');
    });
  }
  test('get-me works with the user token (no permission code exists for it)', async () => {
    const me = await plain(DEMO.userToken).getMe();
    assert.equal(me.user.emails[0].address, 'user@demo.lpm.test');
  });
});

describe('expired token', () => {
  const rows = [
    ['create-multi-user', '08', 'Invalid token or Token has expired'],
    ['create-single-user', '06', 'Invalid token or Token has expired'],
    ['get-multi-user', '07', 'Invalid token or Token has expired'],
    ['get-single-user', '05', 'Invalid token || Token has expired'],
    ['get-me', '04', 'Invalid token or Token has expired'],
    ['search-user', '05', 'Invalid token or Token has expired'],
    ['get-single-course', '05', 'Invalid token or Token has expired'],
    ['get-multi-course', '07', 'Invalid token or Token has expired'],
    ['search-course', '05', 'Invalid token or Token has expired'],
    ['add-multi-course-to-multi-user', '12', 'Invalid token or Token has expired'],
  ];
  for (const [endpoint, code, msg] of rows) {
    test(`${endpoint} ${code}`, async () => {
      await api(calls[endpoint](plain(DEMO.expiredToken)), endpoint, code, msg, 401, 'authentication');
    });
  }
  test('an unknown token is answered like an expired one', async () => {
    await api(plain('not-a-real-token-0000000000000000000000000000').getMe(), 'get-me', '04', 'Invalid token or Token has expired', 401, 'authentication');
  });
});

describe('authfail fault: "Server not able to authenticate your account"', () => {
  const rows = [
    ['create-multi-user', '07'], ['create-single-user', '05'], ['get-multi-user', '06'],
    ['get-single-user', '04'], ['get-me', '03'], ['search-user', '04'], ['get-single-course', '04'],
    ['get-multi-course', '06'], ['search-course', '04'], ['add-multi-course-to-multi-user', '11'],
  ];
  for (const [endpoint, code] of rows) {
    test(`${endpoint} ${code}`, async () => {
      await emu.fault({ endpoint, kind: 'authfail' });
      const e = await api(calls[endpoint](plain()), endpoint, code, 'Server not able to authenticate your account', 401);
      if (['create-multi-user', 'get-me', 'get-single-user'].includes(endpoint)) {
        assert.equal(e.category, 'authentication');
        assert.equal(e.retryable, true);
      }
    });
  }
  test('login-user 06 Server not able to check password', async () => {
    await emu.fault({ endpoint: 'login-user', kind: 'authfail' });
    await api(plain().login(DEMO.adminEmail, DEMO.adminPassword), 'login-user', '06', 'Server not able to check password', 500, 'server');
  });
});

describe('unknown ids and not found', () => {
  test('get-single-user 03 User not found', async () => {
    await api(plain().getUser('NoSuchUser1234567'), 'get-single-user', '03', 'User not found', 400, 'notFound');
  });
  test('get-single-user 03 also on the "user" path spelling', async () => {
    await api(plain(DEMO.adminToken, { userPath: 'user' }).getUser('NoSuchUser1234567'), 'get-single-user', '03', 'User not found', 400, 'notFound');
  });
  test('get-single-course 07 Course not found', async () => {
    await api(plain().getCourse('NoSuchCourse12345'), 'get-single-course', '07', 'Course not found', 400);
  });
  test('search-user 07 User not found', async () => {
    await api(plain().searchUser({ email: 'nobody@example.test', username: 'nobody0' }), 'search-user', '07', 'User not found', 400, 'notFound');
  });
  test('add-courses 14 No valid courses; unknown accounts are per-item failures, not errors', async () => {
    await api(plain().addCoursesToUsers({ users: [ids.user], courses: ['NoSuchCourse12345'] }), 'add-multi-course-to-multi-user', '14', 'No valid courses', 400);
    const r = await plain().addCoursesToUsers({ users: ['NoSuchUser1234567'], courses: [ids.course] });
    assert.deepEqual(r.result.map((x) => [x.success, x.status]), [[false, 'User not found']]);
  });
  test('an unknown path is 404 with respCode 99 (Endpoint not found)', async () => {
    const c = tampered((u) => { u.pathname = u.pathname.replace('get-me', 'get-you'); });
    await api(c.getMe(), 'get-me', '99', 'Endpoint not found', 404);
  });
});

describe('capacity', () => {
  test('create 11 when the platform is full', async () => {
    await emu.control('POST', 'capacity', { capacity: 0 });
    await api(plain().createUsers([newUser('c')]), 'create-multi-user', '11', 'The number of accounts has run out', 400, 'capacity');
  });
  test('create 12 with availableSlots when fewer slots than items', async () => {
    const { accounts } = await emu.state();
    await emu.control('POST', 'capacity', { capacity: accounts + 2 });
    const e = await api(plain().createUsers([newUser('a'), newUser('b'), newUser('c')]), 'create-multi-user', '12', 'There are only 2 available accounts', 400, 'capacity');
    assert.equal(e.availableSlots, 2);
    assert.equal((await emu.state()).accounts, accounts, 'nothing created');
  });
  test('create-single-user 10 when full', async () => {
    await emu.control('POST', 'capacity', { capacity: 0 });
    await api(plain().createSingleUserRaw(newUser('s')), 'create-single-user', '10', 'The number of accounts has run out', 400);
  });
});

describe('server-side faults', () => {
  test('resourcefail: create 10 "website resources" (HTTP 500, category server)', async () => {
    await emu.fault({ endpoint: 'create-multi-user', kind: 'resourcefail' });
    const e = await api(plain().createUsers([newUser('r')]), 'create-multi-user', '10', 'Server is not able to check your website resources', 500, 'server');
    assert.equal(e.retryable, true);
  });
  test('itemerror: create resolves with code 13 and "Server error in create new use"', async () => {
    await emu.fault({ endpoint: 'create-multi-user', kind: 'itemerror' });
    const r = await plain().createUsers([newUser('i'), newUser('j')]);
    assert.equal(r.respCode, '13');
    assert.deepEqual(r.users.map((u) => u.status), ['Server error in create new use', 'Server error in create new use']);
    assert.ok(r.users.every((u) => u.success === false && u.userId == null));
  });
  test('itemerror: create-single-user 11', async () => {
    await emu.fault({ endpoint: 'create-single-user', kind: 'itemerror' });
    await api(plain().createSingleUserRaw(newUser('s')), 'create-single-user', '11', 'Server error in create new use', 500);
  });
  test('respcode: an unknown code is kept as is (code, msg, status), category unknown', async () => {
    await emu.fault({ endpoint: 'get-multi-course', kind: 'respcode', respCode: '42', msg: 'Something odd', status: 503 });
    const e = await api(plain().getCourses({ start: 0, limit: 1 }), 'get-multi-course', '42', 'Something odd', 503, 'unknown');
    assert.equal(e.reason, 'unknown');
  });
  test('respcode with HTTP 200 is still an ApiError', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'respcode', respCode: '03', msg: 'Server not able to authenticate your account' });
    await api(plain().getMe(), 'get-me', '03', 'Server not able to authenticate your account', 200, 'authentication');
  });
  test('login-user 08 via respcode', async () => {
    await emu.fault({ endpoint: 'login-user', kind: 'respcode', respCode: '08', msg: 'Server not able to generate token', status: 500 });
    await api(plain().login(DEMO.adminEmail, DEMO.adminPassword), 'login-user', '08', 'Server not able to generate token', 500, 'server');
  });
});

describe('login errors', () => {
  test('05 Wrong email, 07 Wrong password', async () => {
    const c = new Client({ baseUrl: emu.url });
    await api(c.login('nobody@example.test', 'whatever-1'), 'login-user', '05', 'Wrong email', 400, 'authentication');
    await api(c.login(DEMO.adminEmail, 'wrong-password'), 'login-user', '07', 'Wrong password', 400, 'authentication');
  });
  test('02 no body, 03 no email, 04 no password (tampered body)', async () => {
    await api(tampered((u, i) => { i.body = ''; }).login(DEMO.adminEmail, 'x-secret'), 'login-user', '02', 'No request body', 400);
    await api(tampered((u, i) => { i.body = JSON.stringify({ password: 'x-secret' }); }).login(DEMO.adminEmail, 'x-secret'), 'login-user', '03', 'No email in request body', 400);
    await api(tampered((u, i) => { i.body = JSON.stringify({ email: DEMO.adminEmail }); }).login(DEMO.adminEmail, 'x-secret'), 'login-user', '04', 'No password in request body', 400);
  });
  test('01 wrong method (HTTP 405)', async () => {
    await api(tampered((u, i) => { i.method = 'PUT'; }).login(DEMO.adminEmail, 'x-secret'), 'login-user', '01', 'Request method should be POST', 405, 'method');
  });
});

describe('codes the client never provokes (tampered requests)', () => {
  test('01 wrong method on a GET endpoint and on create (HTTP 405)', async () => {
    await api(tampered((u, i) => { i.method = 'DELETE'; }).getMe(), 'get-me', '01', 'Request method should be GET', 405, 'method');
    await api(tampered((u, i) => { i.method = 'DELETE'; delete i.body; }).createUsers([newUser('m')]), 'create-multi-user', '01', 'Request method should be POST', 405, 'method');
    await api(tampered((u, i) => { i.method = 'DELETE'; }).getUser(ids.user), 'get-single-user', '01', 'Request method should be GET', 405, 'method');
  });
  const body = (b) => tampered((u, i) => { i.body = b; });
  const createRows = [
    ['', '02', 'No request body'],
    ['{}', '03', 'No users array in request body'],
    ['{"users":"x"}', '04', 'Users parammeter in body is not array format'],
    ['{"users":[]}', '05', 'User parammeter is an empty array'],
    [JSON.stringify({ users: Array.from({ length: 101 }, () => newUser('h')) }), '09', 'Maximum 100 users per request'],
  ];
  for (const [b, code, msg] of createRows) {
    test(`create-multi-user ${code} ${msg}`, async () => {
      // 02-05 are the contract's (bad request); 09 is the emulator's choice, unknown to the client.
      await api(body(b).createUsers([newUser('t')]), 'create-multi-user', code, msg, 400, code === '09' ? 'unknown' : 'badRequest');
    });
  }
  const addRows = [
    ['', '02', 'Không có body request'],
    ['{}', '03', 'No users array in request body'],
    ['{"users":"x","courses":["a"]}', '04', 'Users parammeter in body is not array format'],
    ['{"users":[],"courses":["a"]}', '05', 'User parammeter is an empty array'],
    ['{"users":["a"]}', '06', 'No courses array in request body'],
    ['{"users":["a"],"courses":"x"}', '07', 'Courses parammeter in body is not array format'],
    ['{"users":["a"],"courses":[]}', '08', 'Courses parammeter is an empty array'],
    [JSON.stringify({ users: Array.from({ length: 101 }, (_, i) => `u${i}`), courses: ['a'] }), '09', 'Maximum 100 users per request'],
  ];
  for (const [b, code, msg] of addRows) {
    test(`add-multi-course-to-multi-user ${code} ${msg}`, async () => {
      const e = await api(body(b).addCoursesToUsers({ users: [ids.user], courses: [ids.course] }), 'add-multi-course-to-multi-user', code, msg, 400);
      if (code === '02' || code === '03') assert.equal(e.category, 'badRequest');
    });
  }
  test('create-single-user 02 no body, 03 not enough information', async () => {
    await api(body('').createSingleUserRaw(newUser('s')), 'create-single-user', '02', 'No request body', 400);
    await api(body('{"name":"x"}').createSingleUserRaw(newUser('s')), 'create-single-user', '03', 'Not enough required infomation to create new user', 400);
  });
  test('create-single-user 08 e-mail in use, 09 username in use', async () => {
    const me = (await plain().getMe()).user;
    await api(plain().createSingleUserRaw({ ...newUser('s'), email: DEMO.adminEmail }), 'create-single-user', '08', 'Email already in use', 400);
    await api(plain().createSingleUserRaw({ ...newUser('s'), username: me.username }), 'create-single-user', '09', 'Username already in use', 400);
  });
  test('get-multi-user 03 no start, 04 invalid start, 05 invalid limit', async () => {
    const q = (k, v) => tampered((u) => { if (v === undefined) u.searchParams.delete(k); else u.searchParams.set(k, v); });
    await api(q('start').getUsers({ start: 0, limit: 1 }), 'get-multi-user', '03', 'No start parameter', 400, 'badRequest');
    await api(q('start', '-1').getUsers({ start: 0, limit: 1 }), 'get-multi-user', '04', 'Invalid start parameter, start should be greater than or equal 0', 400, 'badRequest');
    await api(q('limit', '0').getUsers({ start: 0, limit: 1 }), 'get-multi-user', '05', 'Invalid limit parameter, limit should be between 1 and 100', 400);
    await api(q('limit', '101').getUsers({ start: 0, limit: 1 }), 'get-multi-user', '05', /limit should be between 1 and 100/, 400);
  });
  test('get-multi-course 03 no start, 04 invalid start, 05 invalid limit', async () => {
    const q = (k, v) => tampered((u) => { if (v === undefined) u.searchParams.delete(k); else u.searchParams.set(k, v); });
    await api(q('start').getCourses({ start: 0, limit: 1 }), 'get-multi-course', '03', 'No start parameter', 400);
    await api(q('start', 'abc').getCourses({ start: 0, limit: 1 }), 'get-multi-course', '04', /^Invalid start parameter/, 400);
    await api(q('limit', '101').getCourses({ start: 0, limit: 1 }), 'get-multi-course', '05', 'Invalid limit parameter, limit should be between 0 and 100', 400);
  });
  test('search-user 03 no parameter; search-course 03 no title', async () => {
    const strip = tampered((u) => { u.searchParams.delete('email'); u.searchParams.delete('username'); u.searchParams.delete('title'); });
    await api(strip.searchUser({ email: DEMO.adminEmail }), 'search-user', '03', 'No email or username parameter', 400);
    await api(strip.searchCourses('trac'), 'search-course', '03', 'No title parameter', 400);
  });
  test('get-single-user / get-single-course 02 No id', async () => {
    const noId = tampered((u) => { u.pathname = u.pathname.replace(/\/[^/]+$/, '/'); });
    await api(noId.getUser(ids.user), 'get-single-user', '02', 'No id', 400, 'badRequest');
    await api(noId.getCourse(ids.course), 'get-single-course', '02', 'No id', 400);
  });
});

describe('input the client refuses before sending (ValidationError, nothing sent)', () => {
  test('each endpoint refuses bad input with issues and sends nothing', async () => {
    let sent = 0;
    const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken, fetch: (...a) => { sent += 1; return fetch(...a); } });
    const cases = [
      [() => c.createUsers([newUser('a'), { name: 'Bob Bobson', username: 'bob12', password: 'secret-1' }]), 'create-multi-user', [1, 'email'], 'required'],
      [() => c.createUsers([]), 'create-multi-user', [], 'empty'],
      [() => c.createUser({ name: 'Bob Bobson' }), 'create-multi-user', [0, 'username'], 'required'],
      [() => c.createSingleUserRaw({ name: 'Bob Bobson' }), 'create-single-user', ['username'], 'required'],
      [() => c.getUsers({ start: 0, limit: 0 }), 'get-multi-user', ['limit'], 'too_small'],
      [() => c.getUsers({ start: -1, limit: 1 }), 'get-multi-user', ['start'], 'too_small'],
      [() => c.getCourses({ start: 0, limit: 101 }), 'get-multi-course', ['limit'], 'too_large'],
      [() => c.getUser(''), 'get-single-user', [], 'required'],
      [() => c.getCourse(''), 'get-single-course', [], 'required'],
      [() => c.searchUser({}), 'search-user', [], 'email_or_username_required'],
      [() => c.searchCourses(''), 'search-course', ['title'], 'required'],
      [() => c.addCoursesToUsers({ users: [], courses: ['x'] }), 'add-multi-course-to-multi-user', ['users'], 'empty'],
      [() => c.login('', ''), 'login-user', ['email'], 'required'],
    ];
    for (const [call, endpoint, path, code] of cases) {
      const e = await rejectsWith(call(), ValidationError, { endpoint, kind: 'validation' }, lpm);
      assert.ok(Array.isArray(e.issues) && e.issues.length > 0, `${endpoint} has issues`);
      assert.ok(e.issues.some((i) => JSON.stringify(i.path) === JSON.stringify(path) && i.code === code),
        `${endpoint}: expected ${JSON.stringify(path)} ${code} in ${JSON.stringify(e.issues)}`);
    }
    assert.equal(sent, 0, 'nothing reached the server');
  });
});

describe('emulator switches (documented alternatives)', () => {
  let alt;
  before(async () => {
    alt = await emulator(['--status-mode', 'always200', '--permission-status', '403', '--user-not-found-code', '07',
      '--check-order', 'auth-first', '--enforce-field-rules']);
  });
  after(async () => { await alt?.stop(); });
  const altClient = (token = DEMO.adminToken, extra = {}) => new Client({ baseUrl: alt.url, token, maxRetries: 0, createInterval: { guard: 'off' }, ...extra });

  test('always200: an error envelope with HTTP 200 is still an ApiError', async () => {
    await api(altClient(DEMO.expiredToken).getMe(), 'get-me', '04', 'Invalid token or Token has expired', 200, 'authentication');
  });
  test('user-not-found code 07 on get-single-user is still "not found" (told apart by msg)', async () => {
    const e = await api(altClient().getUser('NoSuchUser1234567'), 'get-single-user', '07', 'User not found', 200);
    assert.equal(e.category, 'notFound');
  });
  test('auth-first: permission is checked before the body', async () => {
    const c = new Client({
      baseUrl: alt.url, token: DEMO.userToken, maxRetries: 0, createInterval: { guard: 'off' },
      fetch: (url, init) => fetch(url, { ...init, body: '' }),
    });
    await api(c.createUsers([newUser('p')]), 'create-multi-user', '10', 'Your account does not have permission', 200, 'permission');
  });
  test('enforced field rules: a non-strict client sends a short name, the server fails it (13 resolves)', async () => {
    const r = await altClient().createUsers([{ name: 'Al', username: 'alshort1', email: 'al1@example.test', password: 'secret-1' }]);
    assert.equal(r.respCode, '13');
    assert.equal(r.users[0].status, 'Not enough required infomation to create new user');
    // A strict client refuses it before sending.
    await rejectsWith(altClient(DEMO.adminToken, { strictPlatformRules: true }).createUsers([{ name: 'Al', username: 'alshort2', email: 'al2@example.test', password: 'secret-1' }]),
      ValidationError, { endpoint: 'create-multi-user' }, lpm);
  });
  test('permission status 403 (documented mode off here, so check via a second emulator)', async () => {
    const p = await emulator(['--permission-status', '403']);
    try {
      const e = await api(new Client({ baseUrl: p.url, token: DEMO.userToken }).getUsers(), 'get-multi-user', '08', 'Your account does not have permission', 403, 'permission');
      assert.ok(!(e instanceof HttpError));
    } finally { await p.stop(); }
  });
});
