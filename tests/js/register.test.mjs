// registerUser (users/create-single-user, platform notes) against the emulator: the envelope, the
// platform's advised 5 s between calls kept by the client (so the emulator's log of these calls
// never shows a violation), errors decoded by msg, and the form's validator beside it.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { lpm, emulator, DEMO, newUser, rejectsWith, countingFetch } from './helpers.mjs';

const { Client, IntervalError, ApiError, ValidationError } = lpm;
const EMU_INTERVAL_MS = 300;
let emu;

before(async () => {
  emu = await emulator(['--single-create-interval-ms', String(EMU_INTERVAL_MS)]);
});
after(async () => { await emu?.stop(); });
beforeEach(async () => { await emu.reset(); });

const log = () => emu.control('GET', 'single-create-calls');
/** A client of `<emulator>/<tag>` (the guard key holds the base URL, so tests stay apart). */
const mk = (tag, extra = {}) => new Client({
  baseUrl: `${emu.url}/${tag}`,
  token: DEMO.adminToken,
  ...extra,
  fetch: (url, init) => (extra.fetch || fetch)(url.replace(`/${tag}/manage/`, '/manage/'), init),
});

test('registerUser posts one account to create-single-user and resolves the envelope; a second call at once is refused unsent', async () => {
  const bodies = [];
  const spy = countingFetch((url, init) => { bodies.push(init.body); return fetch(url, init); });
  const c = mk('r1', { fetch: spy });
  const u = newUser('reg1');
  const r = await c.registerUser(u);
  assert.equal(r.respCode, '00');
  assert.equal(r.msg, 'Success created');
  // The unpublished rest, as received (the emulator's: a creation result item).
  assert.equal(r.user.username, u.username);
  assert.equal(spy.calls, 1);
  assert.equal(spy.methods[0], 'POST');
  assert.match(spy.urls[0], /\/manage\/api\/users\/create-single-user\?/);
  assert.deepEqual(JSON.parse(bodies[0]), u, 'the body is the account itself');
  const found = await c.searchUser({ username: u.username });
  assert.equal(found.user.username, u.username);

  const e = await rejectsWith(c.registerUser(newUser('reg2')), IntervalError, { endpoint: 'create-single-user', kind: 'interval' }, lpm);
  assert.match(e.message, /^create-single-user: calls must be at least the platform's advised interval apart/);
  const wait = e.nextAllowedAt.getTime() - Date.now();
  assert.ok(wait > 4000 && wait <= 5000, `the platform's 5 s by default (${wait})`);
  assert.equal(spy.calls, 2, 'nothing more sent (the search was the second)');
  // Its own key: bulk creates and login tokens are not held up by it, nor it by them.
  assert.equal(c.nextCreateAllowedAt(), null);
  await c.createUsers([newUser('bulk1')]);
  const { calls, violations } = await log();
  assert.equal(calls.length, 1);
  assert.deepEqual(violations, []);
});

test('waitForInterval (or guard "wait") spaces calls so the emulator logs no violation', async () => {
  // The client's interval a little over the emulator's: it counts from when a call leaves, the
  // emulator from when it arrives.
  const c = mk('r2', { registerInterval: { intervalMs: EMU_INTERVAL_MS + 150 } });
  const rs = await Promise.all(['a', 'b', 'c'].map((n) => c.registerUser(newUser(`w${n}`), { waitForInterval: true })));
  assert.deepEqual(rs.map((r) => r.respCode), ['00', '00', '00']);
  const w = mk('r2', { registerInterval: { intervalMs: EMU_INTERVAL_MS + 150, guard: 'wait' } });
  await w.registerUser(newUser('wd'));
  await w.registerUser(newUser('we'));
  const { calls, violations } = await log();
  assert.equal(calls.length, 5);
  assert.deepEqual(violations, [], JSON.stringify(calls));
});

test('errors: contract issues refused unsent; an account that exists is a decoded ApiError a form can place', async () => {
  const spy = countingFetch();
  const c = mk('r3', { fetch: spy, registerInterval: { guard: 'off' } });
  const v = await rejectsWith(c.registerUser({ name: 'Ann' }), ValidationError, { endpoint: 'create-single-user' }, lpm);
  assert.deepEqual(v.issues.map((i) => i.path[0]).sort(), ['email', 'password', 'username']);
  assert.equal(spy.calls, 0);
  const u = newUser('dup');
  await c.registerUser(u);
  const mail = await rejectsWith(c.registerUser({ ...u, username: 'other1' }), ApiError,
    { code: '08', reason: 'emailInUse', category: 'badRequest', basis: 'msg', retryable: false }, lpm);
  assert.equal(mail.msg, 'Email already in use');
  await rejectsWith(c.registerUser({ ...u, email: 'other1@example.test' }), ApiError, { code: '09', reason: 'usernameInUse' }, lpm);
  await emu.fault({ endpoint: 'create-single-user', kind: 'itemerror' });
  await rejectsWith(c.registerUser(newUser('srv')), ApiError, { code: '11', reason: 'createFailed', category: 'server', retryable: true }, lpm);
  const user = mk('r3', { token: DEMO.userToken, registerInterval: { guard: 'off' } });
  await rejectsWith(user.registerUser(newUser('np')), ApiError, { code: '07', reason: 'noPermission', basis: 'msg' }, lpm);
  // A failed call counts too: it reached the server.
  const g = mk('r3b');
  await rejectsWith(g.registerUser(u), ApiError, { reason: 'emailInUse' }, lpm);
  await rejectsWith(g.registerUser(newUser('after')), IntervalError, {}, lpm);
});

test('registerInterval options are checked', () => {
  assert.throws(() => mk('r4', { registerInterval: { guard: 'never' } }), (e) => e instanceof lpm.ConfigError && /registerInterval\.guard/.test(e.message));
  assert.throws(() => mk('r4', { registerInterval: { intervalMs: -1 } }), (e) => e instanceof lpm.ConfigError && /registerInterval\.intervalMs/.test(e.message));
});

test('a sign-up form\'s phone: "abc" is refused by the validator in both languages, a real number passes', () => {
  const u = newUser('ph');
  const [issue, ...rest] = lpm.validateCreateUser({ ...u, phone: 'abc' });
  assert.deepEqual(rest, []);
  assert.deepEqual(issue.path, ['phone']);
  assert.equal(issue.code, 'invalid_phone');
  assert.equal(issue.level, 'platform');
  assert.match(lpm.validateCreateUser({ ...u, phone: 'abc' }, { lang: 'vi' })[0].message, /^Số điện thoại không hợp lệ$/);
  assert.deepEqual(lpm.validateCreateUser({ ...u, phone: '+84 912 345 678' }), []);
  assert.deepEqual(lpm.validateCreateUser({ ...u, phone: '' }), []);
  // As a Standard Schema (what a form resolver calls).
  const res = lpm.validateCreateUser['~standard'].validate({ ...u, phone: 'abc' });
  assert.equal(res.issues[0].code, 'invalid_phone');
});
