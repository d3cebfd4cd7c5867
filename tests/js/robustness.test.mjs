// Bad input from JS, odd host values and edge cases of the exchange: each gets a typed error (or
// the documented behaviour), never a crash of the wasm instance or a silent default.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { lpm, emulator, newUser, fakeResponse, rejectsWith, countingFetch, DEMO } from './helpers.mjs';

const { Client } = lpm;
let emu;
before(async () => { emu = await emulator(); });
after(async () => { await emu?.stop(); });

const base = (tag) => `${emu.url}/${tag}`; // a path prefix per test keeps interval guards apart
const stripPrefix = (tag, inner = globalThis.fetch) => (url, init) => inner(url.replace(`/${tag}/manage/`, '/manage/'), init);

test('tokens outside the unreserved alphabet, or too short, are refused with ConfigError', () => {
  for (const token of ['a+b/c=d0123', 'short', 'has space 0123', 'Trần0123456']) {
    assert.throws(() => new Client({ baseUrl: emu.url, token }), (e) => e instanceof lpm.ConfigError && e.problem === 'token', token);
  }
  const c = new Client({ baseUrl: emu.url });
  for (const bad of [undefined, null, 123, { length: 1e9 }, 'a+b/c=d0123']) {
    assert.throws(() => c.withToken(bad), (e) => e instanceof lpm.ConfigError, String(bad));
  }
  assert.ok(c.withToken(DEMO.adminToken) instanceof Client, 'the instance still works after refusals');
});

test('a refused token says what is wrong: too short, or a character outside the alphabet', () => {
  const refusal = (token) => { try { new Client({ baseUrl: emu.url, token }); } catch (e) { return e; } assert.fail(token); };
  const short = refusal('abc');
  assert.equal(short.reason, 'tooShort');
  assert.match(short.message, /too short.*at least 8 characters/);
  for (const token of ['with space 0123', 'abcdefgh\n', 'a+b/c=d0123']) {
    const e = refusal(token);
    assert.equal(e.reason, 'character', token);
    assert.match(e.message, /outside A-Z a-z 0-9 - \. _ ~/);
  }
  assert.equal(refusal('').reason, 'empty');
});

test('createInterval that is not an object is refused, not ignored', () => {
  assert.throws(() => new Client({ baseUrl: emu.url, token: DEMO.adminToken, createInterval: 'off' }), lpm.ConfigError);
});

test('base URL: scheme and host case do not matter; credentials are refused', async () => {
  const upper = emu.url.replace('http://', 'HTTP://');
  const c = new Client({ baseUrl: upper, token: DEMO.adminToken });
  assert.equal(c.baseUrl, emu.url);
  assert.equal((await c.getMe()).user.username.length > 0, true);
  assert.throws(() => new Client({ baseUrl: emu.url.replace('http://', 'http://u:p@'), token: DEMO.adminToken }), lpm.ConfigError);
});

test('NaN and Infinity are refused, not read as "absent"', async () => {
  const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken });
  const e = await rejectsWith(c.getUsers({ start: NaN, limit: 5 }), lpm.ValidationError, {}, lpm);
  assert.equal(e.issues[0].code, 'not_json');
  await rejectsWith(c.getCourses({ limit: Infinity }), lpm.ValidationError, {}, lpm);
  assert.equal(lpm.validateGetUsers({ start: NaN, limit: -Infinity })[0].code, 'not_json');
  assert.equal(lpm.validateCreateUsers([{ ...newUser(), phone: NaN }])[0].code, 'not_json');
});

test('parameter objects must be objects', async () => {
  const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken });
  for (const [validator, bad] of [[lpm.validateGetUsers, 'x'], [lpm.validateGetCourses, 5], [lpm.validateSearchUser, ['a']], [lpm.validateAddCourses, true], [lpm.validateLogin, 'me']]) {
    const issues = validator(bad);
    assert.deepEqual(issues.map((i) => [i.code, i.path]), [['params_not_object', []]]);
    assert.ok(validator['~standard'].validate(bad).issues, 'the schema refuses it too');
  }
  await rejectsWith(c.getUsers('x'), lpm.ValidationError, {}, lpm);
  await rejectsWith(c.searchUser(42), lpm.ValidationError, {}, lpm);
  assert.equal((await c.getUsers()).users.length, 100, 'absent params still mean the defaults (limit 100)');
});

test('a body that is not UTF-8 is a DecodeError, not a raw SyntaxError', async () => {
  const bytes = new Uint8Array([...new TextEncoder().encode('{"respCode":"00","msg":"Success","users":[],"x":"'), 0xff, ...new TextEncoder().encode('"}')]);
  const fetch = async () => ({ status: 200, headers: new Headers(), arrayBuffer: async () => bytes.buffer });
  const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken, fetch });
  const e = await rejectsWith(c.getUsers({ start: 0, limit: 1 }), lpm.DecodeError, { path: '.' }, lpm);
  assert.match(e.message, /UTF-8/);
});

test('a create aborted before it is sent does not count against the interval', async () => {
  const tag = 'abortedcreate';
  const c = new Client({ baseUrl: base(tag), token: DEMO.adminToken, fetch: stripPrefix(tag) });
  await rejectsWith(c.createUsers([newUser('ab')], { signal: AbortSignal.abort() }), lpm.AbortError, {}, lpm);
  assert.equal(c.nextCreateAllowedAt(), null, 'nothing was sent, nothing recorded');
  const r = await c.createUsers([newUser('ab')]);
  assert.equal(r.created, 1);
  assert.ok(c.nextCreateAllowedAt() instanceof Date, 'a sent create is recorded');
});

test('timeouts longer than a timer can hold do not fire at once', async () => {
  const fetch = async () => { await new Promise((r) => setTimeout(r, 50)); return fakeResponse(200, '{"respCode":"00","msg":"Success","users":[]}'); };
  const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken, fetch, timeoutMs: 3e9 });
  assert.deepEqual((await c.getUsers({ start: 0, limit: 1 })).users, []);
});

test('a Retry-After longer than 60 s is not waited for: the error goes to the caller', async () => {
  const fetch = countingFetch(async () => fakeResponse(503, '<html>busy</html>', { 'retry-after': '120' }));
  const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken, fetch, maxRetries: 2, retryDelayMs: 1 });
  const started = Date.now();
  await rejectsWith(c.getUsers({ start: 0, limit: 1 }), lpm.HttpError, { status: 503 }, lpm);
  assert.equal(fetch.calls, 1, 'no retry before the server said');
  assert.ok(Date.now() - started < 5000);
});

test('allCourses stops at once when aborted mid-page', async () => {
  const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken });
  const ctrl = new AbortController();
  let seen = 0;
  await assert.rejects(async () => {
    for await (const _course of c.allCourses({ signal: ctrl.signal })) {
      seen += 1;
      if (seen === 3) ctrl.abort(new Error('enough'));
    }
  }, (e) => e instanceof lpm.AbortError && e.cause.message === 'enough');
  assert.equal(seen, 3);
});

test('an absent argument (a value JSON cannot write) does not hide the ones after it', async () => {
  // The options after it are still read: the call's bad option, the validator's language.
  const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken });
  await rejectsWith(c.getUsers({ start: NaN }, { timeoutMs: 'x' }), lpm.ConfigError, { option: 'timeoutMs' }, lpm);
  const [vi] = lpm.validateCreateUsers([1n], { lang: 'vi' });
  const [en] = lpm.validateCreateUsers([1n]);
  assert.equal(vi.code, 'not_json');
  assert.notEqual(vi.message, en.message, 'the Vietnamese message');
});

test('a hook that rejects after its call ended is logged, never an unhandled rejection', async () => {
  const lines = [];
  const unhandled = [];
  const onUnhandled = (e) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  try {
    const onRequest = () => new Promise((_, reject) => setTimeout(() => reject(new Error(`late ${DEMO.adminToken}`)), 30));
    const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken, onRequest, logger: { error: (l) => lines.push(l) } });
    await c.getMe();
    await new Promise((r) => setTimeout(r, 100));
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  assert.deepEqual(unhandled, []);
  assert.equal(lines.length, 1);
  assert.match(lines[0], /onRequest hook failed/);
  assert.ok(!lines[0].includes(DEMO.adminToken), 'never the token');
});

test('a freed client throws LpmError data, never a bare string', () => {
  const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken });
  c.free();
  assert.throws(() => c.nextCreateAllowedAt(), (e) => e instanceof lpm.LpmError);
});
