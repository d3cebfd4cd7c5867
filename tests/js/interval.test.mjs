// The client's guard of the contract's interval between bulk creates, checked against the
// emulator's create-call log (which records violations but never enforces them).
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { lpm, emulator, DEMO, newUser, rejectsWith, countingFetch } from './helpers.mjs';

const { Client, IntervalError } = lpm;
// A little longer than the emulator's 2 s, so a wait that ends on time is never a violation there.
const INTERVAL_MS = 2200;
let emu;

before(async () => { emu = await emulator(['--create-interval-secs', '2']); });
after(async () => { await emu?.stop(); });
beforeEach(async () => { await emu.reset(); });

const calls = () => emu.control('GET', 'create-calls');
/**
 * A client of `<emulator>/<tag>`: the guard is one per realm keyed by base URL + token, so a path
 * prefix per test keeps the tests independent; the fetch strips the prefix again.
 */
const mk = (tag, extra = {}, token = DEMO.adminToken) => new Client({
  baseUrl: `${emu.url}/${tag}`,
  token,
  ...extra,
  createInterval: { intervalMs: INTERVAL_MS, ...(extra.createInterval || {}) },
  fetch: (url, init) => (extra.fetch || fetch)(url.replace(`/${tag}/manage/`, '/manage/'), init),
});

test('second createUsers inside the interval rejects with IntervalError; nothing sent', async () => {
  const spy = countingFetch();
  const c = mk('t1', { fetch: spy });
  assert.equal(c.nextCreateAllowedAt(), null, 'null before any create');
  await c.createUsers([newUser('a')]);
  const next = c.nextCreateAllowedAt();
  assert.ok(next instanceof Date);
  assert.ok(next.getTime() > Date.now());
  assert.ok(next.getTime() <= Date.now() + INTERVAL_MS + 50);
  const e = await rejectsWith(c.createUsers([newUser('b')]), IntervalError, { endpoint: 'create-multi-user', kind: 'interval' }, lpm);
  assert.ok(e.nextAllowedAt instanceof Date);
  assert.ok(Math.abs(e.nextAllowedAt.getTime() - next.getTime()) < 5);
  assert.equal(typeof e.waitMs, 'number');
  assert.ok(e.waitMs > 0 && e.waitMs <= INTERVAL_MS);
  assert.match(e.message, /interval/);
  assert.equal(spy.calls, 1, 'the second call never left the client');
  // createUser shares the guard; a second client of the same URL + token too.
  await rejectsWith(c.createUser(newUser('c')), IntervalError, {}, lpm);
  await rejectsWith(mk('t1').createUsers([newUser('d')]), IntervalError, {}, lpm);
  const log = await calls();
  assert.equal(log.calls.length, 1);
  assert.deepEqual(log.violations, []);
  // Reads are not guarded.
  await c.getMe();
});

test('{waitForInterval: true} waits and succeeds; no violation recorded', async () => {
  const c = mk('t2');
  await c.createUsers([newUser('w')]);
  const t0 = Date.now();
  const r = await c.createUsers([newUser('x')], { waitForInterval: true });
  assert.equal(r.users[0].success, true);
  assert.ok(Date.now() - t0 >= INTERVAL_MS - 300, `waited ${Date.now() - t0} ms`);
  const log = await calls();
  assert.equal(log.calls.length, 2);
  assert.deepEqual(log.violations, []);
});

test('guard "wait" as a client option waits too', async () => {
  const c = mk('t3', { createInterval: { guard: 'wait' } });
  await c.createUsers([newUser('g1')]);
  assert.ok(c.nextCreateAllowedAt() instanceof Date);
  const t0 = Date.now();
  await c.createUsers([newUser('g2')]);
  assert.ok(Date.now() - t0 >= INTERVAL_MS - 300);
  assert.deepEqual((await calls()).violations, []);
});

test('a wait for the interval can be aborted', async () => {
  const c = mk('t3b');
  await c.createUsers([newUser('h1')]);
  const ctrl = new AbortController();
  const reason = new Error('closed the dialog');
  setTimeout(() => ctrl.abort(reason), 100);
  const e = await rejectsWith(c.createUsers([newUser('h2')], { waitForInterval: true, signal: ctrl.signal }), lpm.AbortError, { endpoint: 'create-multi-user' }, lpm);
  assert.equal(e.cause, reason);
  assert.equal((await calls()).calls.length, 1);
});

test('a different token is not blocked', async () => {
  const admin = mk('t4');
  await admin.createUsers([newUser('t1')]);
  // Log in as a created account: its own token, a separate guard key (the server refuses it for
  // lack of permission, which shows the call was sent rather than blocked).
  const u = newUser('own');
  const other = mk('t4', {}, DEMO.userToken);
  assert.equal(other.nextCreateAllowedAt(), null);
  const e = await rejectsWith(other.createUsers([u]), lpm.ApiError, { category: 'permission' }, lpm);
  assert.ok(e);
  assert.ok(other.nextCreateAllowedAt() instanceof Date, 'the sent call now counts for that token');
  assert.ok(admin.nextCreateAllowedAt() instanceof Date);
});

test('createInterval {guard: "off"} lets the second call through; the emulator records the violation', async () => {
  const off = mk('t5', { createInterval: { guard: 'off' } });
  await off.createUsers([newUser('o1')]);
  assert.equal(off.nextCreateAllowedAt(), null, 'no guard, no next time');
  await off.createUsers([newUser('o2')]);
  const log = await calls();
  assert.equal(log.calls.length, 2);
  assert.equal(log.violations.length, 1);
  assert.ok(log.violations[0].gapMs < 2000);
});

test('the default interval is the contract\'s 10 minutes', async () => {
  const spy = countingFetch(async () => { throw new TypeError('offline'); });
  const c = new Client({ baseUrl: 'http://interval-default.example.test', token: DEMO.adminToken, fetch: spy, maxRetries: 0 });
  await rejectsWith(c.createUsers([newUser('z')]), lpm.NetworkError, {}, lpm);
  // A sent create counts even when its answer was lost.
  const at = c.nextCreateAllowedAt();
  assert.ok(at instanceof Date);
  const wait = at.getTime() - Date.now();
  assert.ok(wait > 9 * 60_000 && wait <= 10 * 60_000, `wait ${wait}`);
});

test('the guard is keyed on the normalised origin and path, not on the spelling', async () => {
  // Every spelling is sent to the emulator; only the guard's key differs between them.
  const port = new URL(emu.url).port;
  const toEmu = (url, init) => fetch(`${emu.url}/manage/${url.split('/manage/')[1]}`, init);
  const at = (baseUrl) => new Client({ baseUrl, token: DEMO.adminToken, fetch: toEmu, createInterval: { intervalMs: 60_000 } });
  await at(`http://127.0.0.1:${port}/g6`).createUsers([newUser('g6')]);
  for (const spelling of [
    `http://localhost:${port}/g6`, `http://127.1:${port}/g6`, `http://0x7f.0.0.1:${port}/g6`,
    `http://[::ffff:127.0.0.1]:${port}/g6`, `http://localhost.:${port}/g6`, `http://127.0.0.1:${port}/x/../g6/`,
    `HTTP://LocalHost:${port}/g6`, `http://[::1]:${port}/g6`, `http://2130706433:${port}/g6`,
  ]) {
    assert.ok(at(spelling).nextCreateAllowedAt() instanceof Date, spelling);
    await rejectsWith(at(spelling).createUsers([newUser('g6')]), IntervalError, {}, lpm);
  }
  // The default port written out, and a trailing dot, on a public name.
  await at('https://school.example.com./app').createUsers([newUser('g6')]);
  for (const spelling of ['https://school.example.com:443/app', 'https://SCHOOL.example.com/b/../app/']) {
    assert.ok(at(spelling).nextCreateAllowedAt() instanceof Date, spelling);
  }
  // Another path, port or host is another window (the guard cannot know that two names resolve
  // to one server).
  for (const other of [`http://127.0.0.1:${port}/g7`, `http://127.0.0.1:${Number(port) + 1}/g6`, 'https://www.school.example.com/app']) {
    assert.equal(at(other).nextCreateAllowedAt(), null, other);
  }
});
