// createLoginToken (users/create-user-login-token, platform notes) against the emulator: the
// reply, its errors decoded by msg, and the platform's advised interval kept by the client, so the
// emulator's log of these calls never shows a violation.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { lpm, emulator, DEMO, rejectsWith, countingFetch } from './helpers.mjs';

const { Client, IntervalError, ApiError, ValidationError } = lpm;
const EMU_INTERVAL_MS = 300;
let emu;
let userId;

before(async () => {
  emu = await emulator(['--login-token-interval-ms', String(EMU_INTERVAL_MS)]);
  const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken });
  userId = (await c.getUsers({ limit: 1 })).users[0]._id;
});
after(async () => { await emu?.stop(); });
beforeEach(async () => { await emu.reset(); });

const log = () => emu.control('GET', 'login-token-calls');
/** A client of `<emulator>/<tag>` (the guard key holds the base URL, so tests stay apart). */
const mk = (tag, extra = {}) => new Client({
  baseUrl: `${emu.url}/${tag}`,
  token: DEMO.adminToken,
  ...extra,
  fetch: (url, init) => (extra.fetch || fetch)(url.replace(`/${tag}/manage/`, '/manage/'), init),
});

test('createLoginToken resolves {token, tokenExpires, msg}; a second call at once is refused unsent', async () => {
  const spy = countingFetch();
  const c = mk('lt1', { fetch: spy });
  const r = await c.createLoginToken(userId);
  assert.equal(typeof r.token, 'string');
  assert.ok(r.token.length >= 20);
  assert.ok(!Number.isNaN(Date.parse(r.tokenExpires)));
  assert.equal(r.msg, 'create login token success');
  assert.equal(spy.calls, 1);
  assert.equal(spy.methods[0], 'POST');
  const e = await rejectsWith(c.createLoginToken(userId), IntervalError, { endpoint: 'create-user-login-token', kind: 'interval' }, lpm);
  assert.match(e.message, /platform's advised interval/);
  const wait = e.nextAllowedAt.getTime() - Date.now();
  assert.ok(wait > 4000 && wait <= 5000, `the platform's 5 s by default (${wait})`);
  assert.equal(spy.calls, 1, 'nothing sent');
  // Its own key: bulk creates are not held up by it.
  assert.equal(c.nextCreateAllowedAt(), null);
  const { calls, violations } = await log();
  assert.equal(calls.length, 1);
  assert.deepEqual(violations, []);
});

test('waitForInterval (or guard "wait") spaces calls so the emulator logs no violation', async () => {
  const c = mk('lt2', { loginTokenInterval: { intervalMs: EMU_INTERVAL_MS } });
  // Three at once and two more in a row: the guard orders them.
  const rs = await Promise.all([1, 2, 3].map(() => c.createLoginToken(userId, { waitForInterval: true })));
  assert.equal(new Set(rs.map((r) => r.token)).size, 3, 'three different tokens');
  const w = mk('lt2', { loginTokenInterval: { intervalMs: EMU_INTERVAL_MS, guard: 'wait' } });
  await w.createLoginToken(userId);
  await w.createLoginToken(userId);
  const { calls, violations } = await log();
  assert.equal(calls.length, 5);
  assert.deepEqual(violations, [], JSON.stringify(calls));
});

test('errors: validation before sending, the emulator\'s codes decoded by msg', async () => {
  const spy = countingFetch();
  const c = mk('lt3', { fetch: spy, loginTokenInterval: { guard: 'off' } });
  await rejectsWith(c.createLoginToken(''), ValidationError, { endpoint: 'create-user-login-token' }, lpm);
  await rejectsWith(c.createLoginToken(42), ValidationError, {}, lpm);
  assert.equal(spy.calls, 0);
  const e = await rejectsWith(c.createLoginToken('no-such-user-id'), ApiError, { code: '08', reason: 'userNotFound', category: 'notFound', basis: 'msg' }, lpm);
  assert.equal(e.endpoint, 'create-user-login-token');
  const user = mk('lt3', { token: DEMO.userToken, loginTokenInterval: { guard: 'off' } });
  await rejectsWith(user.createLoginToken(userId), ApiError, { code: '07', reason: 'noPermission', basis: 'msg' }, lpm);
  // A failed call counts too: it reached the server.
  const g = mk('lt3b');
  await rejectsWith(g.createLoginToken('no-such-user-id'), ApiError, {}, lpm);
  await rejectsWith(g.createLoginToken(userId), IntervalError, {}, lpm);
});

test('loginTokenInterval options are checked', () => {
  assert.throws(() => mk('lt4', { loginTokenInterval: { guard: 'never' } }), (e) => e instanceof lpm.ConfigError && /loginTokenInterval\.guard/.test(e.message));
  assert.throws(() => mk('lt4', { loginTokenInterval: { intervalMs: -1 } }), (e) => e instanceof lpm.ConfigError && /loginTokenInterval\.intervalMs/.test(e.message));
  assert.throws(() => mk('lt4', { loginTokenInterval: 5 }), lpm.ConfigError);
});
