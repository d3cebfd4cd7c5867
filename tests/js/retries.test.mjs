// Retries, timeouts and abort, driven by the emulator's fault knobs.
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { lpm, emulator, DEMO, newUser, countingFetch, rejectsWith, sleep } from './helpers.mjs';

const { Client, HttpError, NetworkError, DecodeError, TimeoutError, AbortError, ApiError } = lpm;
let emu;
let spy;

before(async () => { emu = await emulator(['--create-interval-secs', '1']); });
after(async () => { await emu?.stop(); });
beforeEach(async () => { await emu.reset(); spy = countingFetch(); });

const client = (extra = {}) => new Client({
  baseUrl: emu.url, token: DEMO.adminToken, fetch: spy, retryDelayMs: 20, timeoutMs: 5000,
  createInterval: { guard: 'off' }, ...extra,
});

describe('a GET is retried once on a transient fault and succeeds', () => {
  const faults = [
    ['html500', { kind: 'html500' }],
    ['status 503', { kind: 'status', status: 503 }],
    ['status 502', { kind: 'status', status: 502 }],
    ['close (connection dropped mid-body)', { kind: 'close' }],
  ];
  for (const [name, f] of faults) {
    test(name, async () => {
      await emu.fault({ endpoint: 'get-multi-course', ...f });
      const page = await client().getCourses({ start: 0, limit: 2 });
      assert.equal(page.courses.length, 2);
      assert.equal(spy.calls, 2, 'one retry');
      assert.deepEqual(await emu.pendingFaults(), [], 'the fault was consumed by the first attempt');
    });
  }
  test('two faults in a row need two retries (default maxRetries 2)', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'html500', count: 2 });
    await client().getMe();
    assert.equal(spy.calls, 3);
  });
  test('more faults than retries: the last failure rejects', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'html500', count: 3 });
    await rejectsWith(client().getMe(), HttpError, { status: 500, endpoint: 'get-me' }, lpm);
    assert.equal(spy.calls, 3);
  });
  test('a delay beyond timeoutMs is retried; the second attempt succeeds', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'delay', delayMs: 1500 });
    const me = await client({ timeoutMs: 400 }).getMe();
    assert.equal(me.user.emails[0].address, DEMO.adminEmail);
    assert.equal(spy.calls, 2);
  });
  test('truncated 200 body: a complete response, so not retried (DecodeError)', async () => {
    // The retry rule covers network errors, timeouts and 429/5xx only; a complete 200
    // whose JSON is cut is decoded (and fails) without a retry. See the report.
    await emu.fault({ endpoint: 'get-me', kind: 'truncated' });
    const e = await rejectsWith(client().getMe(), DecodeError, { endpoint: 'get-me', status: 200 }, lpm);
    assert.equal(typeof e.path, 'string');
    assert.equal(spy.calls, 1);
  });
});

describe('Retry-After', () => {
  test('429 with Retry-After: 1 waits at least ~1 s before the retry', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'status', status: 429, retryAfter: 1 });
    const t0 = Date.now();
    await client({ retryDelayMs: 1 }).getMe();
    const took = Date.now() - t0;
    assert.equal(spy.calls, 2);
    assert.ok(took >= 900, `took ${took} ms`);
  });
  test('503 with Retry-After: 1 also honoured', async () => {
    await emu.fault({ endpoint: 'get-multi-user', kind: 'status', status: 503, retryAfter: 1 });
    const t0 = Date.now();
    await client({ retryDelayMs: 1 }).getUsers({ start: 0, limit: 1 });
    assert.ok(Date.now() - t0 >= 900);
    assert.equal(spy.calls, 2);
  });
  test('without Retry-After the small retryDelayMs is used (fast)', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'status', status: 429 });
    const t0 = Date.now();
    await client({ retryDelayMs: 5 }).getMe();
    assert.equal(spy.calls, 2);
    assert.ok(Date.now() - t0 < 900, 'not a 1 s wait');
  });
});

describe('maxRetries: 0 surfaces the fault', () => {
  const c = () => client({ maxRetries: 0 });
  test('html500 → HttpError with status and excerpt', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'html500' });
    const e = await rejectsWith(c().getMe(), HttpError, { endpoint: 'get-me', status: 500, kind: 'http' }, lpm);
    assert.match(e.excerpt, /Internal Server Error/);
    assert.equal(spy.calls, 1);
  });
  test('close → NetworkError with a cause', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'close' });
    const e = await rejectsWith(c().getMe(), NetworkError, { endpoint: 'get-me', kind: 'network' }, lpm);
    assert.ok(e.cause !== undefined, 'has the host error as cause');
    assert.equal(spy.calls, 1);
  });
  test('truncated → DecodeError', async () => {
    await emu.fault({ endpoint: 'get-multi-course', kind: 'truncated' });
    await rejectsWith(c().getCourses({ start: 0, limit: 3 }), DecodeError, { endpoint: 'get-multi-course', kind: 'decode' }, lpm);
  });
  test('status 503 with a success envelope: the body is decoded first, so it resolves', async () => {
    // Platform notes: a non-2xx status can carry a valid envelope; decode the body first.
    await emu.fault({ endpoint: 'get-me', kind: 'status', status: 503 });
    const me = await c().getMe();
    assert.equal(me.user.emails[0].address, DEMO.adminEmail);
    assert.equal(spy.calls, 1);
  });
  test('respcode with HTTP 503 → ApiError (not retried either)', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'respcode', status: 503, respCode: '98', msg: 'Busy' });
    await rejectsWith(c().getMe(), ApiError, { status: 503, code: '98', msg: 'Busy' }, lpm);
    assert.equal(spy.calls, 1);
  });
  test('connection refused → NetworkError', async () => {
    const dead = new Client({ baseUrl: 'http://127.0.0.1:9', token: DEMO.adminToken, maxRetries: 0 });
    await rejectsWith(dead.getMe(), NetworkError, { endpoint: 'get-me' }, lpm);
  });
});

describe('timeouts', () => {
  test('delay beyond timeoutMs → TimeoutError with timeoutMs (after the retries)', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'delay', delayMs: 2000, count: 2 });
    const t0 = Date.now();
    const e = await rejectsWith(client({ timeoutMs: 300, maxRetries: 1 }).getMe(), TimeoutError, { endpoint: 'get-me', timeoutMs: 300, kind: 'timeout' }, lpm);
    assert.ok(Date.now() - t0 >= 550, 'two attempts of 300 ms');
    assert.equal(spy.calls, 2);
    assert.ok(e.message.includes('300'));
  });
  test('timeoutMs 0 turns the timeout off', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'delay', delayMs: 400 });
    await client({ timeoutMs: 0, maxRetries: 0 }).getMe();
  });
  test('a POST that times out is not retried', async () => {
    await emu.fault({ endpoint: 'add-multi-course-to-multi-user', kind: 'delay', delayMs: 1500 });
    const u = (await client().getUsers({ start: 0, limit: 1 })).users[0]._id;
    const cId = (await client().getCourses({ start: 0, limit: 1 })).courses[0]._id;
    spy.reset();
    await rejectsWith(client({ timeoutMs: 300 }).addCoursesToUsers({ users: [u], courses: [cId] }), TimeoutError, { endpoint: 'add-multi-course-to-multi-user' }, lpm);
    assert.equal(spy.calls, 1);
  });
});

describe('a POST is never retried', () => {
  test('createUsers: html500 once → HttpError, the emulator saw one call', async () => {
    await emu.fault({ endpoint: 'create-multi-user', kind: 'html500' });
    await rejectsWith(client().createUsers([newUser('p')]), HttpError, { endpoint: 'create-multi-user', status: 500 }, lpm);
    assert.equal(spy.calls, 1);
    assert.deepEqual(await emu.pendingFaults(), []);
  });
  test('createUsers: 503 once → not retried; the one call took effect (body decoded)', async () => {
    await emu.fault({ endpoint: 'create-multi-user', kind: 'status', status: 503 });
    const before = await emu.state();
    const r = await client().createUsers([newUser('q')]);
    assert.equal(r.users[0].success, true);
    assert.equal(spy.calls, 1);
    assert.equal((await emu.control('GET', 'create-calls')).calls.length, 1, 'the emulator saw one create');
    assert.equal((await emu.state()).accounts, before.accounts + 1);
  });
  test('createUsers: close once → NetworkError, one call', async () => {
    await emu.fault({ endpoint: 'create-multi-user', kind: 'close' });
    await rejectsWith(client().createUsers([newUser('r')]), NetworkError, { endpoint: 'create-multi-user' }, lpm);
    assert.equal(spy.calls, 1);
    assert.equal((await emu.control('GET', 'create-calls')).calls.length, 1);
  });
  test('createUsers: respcode 503 once → ApiError, one call', async () => {
    await emu.fault({ endpoint: 'create-multi-user', kind: 'respcode', status: 503, respCode: '97', msg: 'Unavailable' });
    await rejectsWith(client().createUsers([newUser('s')]), ApiError, { status: 503, code: '97' }, lpm);
    assert.equal(spy.calls, 1);
  });
  test('addCoursesToUsers: html500 / 503 once → one call each', async () => {
    const u = (await client().getUsers({ start: 0, limit: 1 })).users[0]._id;
    const cId = (await client().getCourses({ start: 0, limit: 1 })).courses[0]._id;
    spy.reset();
    await emu.fault({ endpoint: 'add-multi-course-to-multi-user', kind: 'html500' });
    await rejectsWith(client().addCoursesToUsers({ users: [u], courses: [cId] }), HttpError, { status: 500 }, lpm);
    assert.equal(spy.calls, 1);
    await emu.fault({ endpoint: 'add-multi-course-to-multi-user', kind: 'respcode', status: 503, respCode: '96', msg: 'Unavailable' });
    await rejectsWith(client().addCoursesToUsers({ users: [u], courses: [cId] }), ApiError, { status: 503 }, lpm);
    assert.equal(spy.calls, 2);
  });
  test('login and createSingleUserRaw are not retried either', async () => {
    await emu.fault({ endpoint: 'login-user', kind: 'html500' });
    await rejectsWith(client().login(DEMO.adminEmail, DEMO.adminPassword), HttpError, {}, lpm);
    await emu.fault({ endpoint: 'create-single-user', kind: 'html500' });
    await rejectsWith(client().createSingleUserRaw(newUser('t')), HttpError, {}, lpm);
    assert.equal(spy.calls, 2);
  });
});

describe('abort', () => {
  test('a signal aborted before the call → AbortError whose cause is the reason; nothing sent', async () => {
    const ctrl = new AbortController();
    const reason = new Error('user left the page');
    ctrl.abort(reason);
    const e = await rejectsWith(client().getMe({ signal: ctrl.signal }), AbortError, { endpoint: 'get-me', kind: 'abort' }, lpm);
    assert.equal(e.cause, reason);
    assert.equal(spy.calls, 0);
  });
  test('abort during a delayed call → AbortError quickly, cause is the reason', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'delay', delayMs: 3000 });
    const ctrl = new AbortController();
    const reason = new Error('cancelled by test');
    setTimeout(() => ctrl.abort(reason), 150);
    const t0 = Date.now();
    const e = await rejectsWith(client().getMe({ signal: ctrl.signal }), AbortError, { endpoint: 'get-me' }, lpm);
    assert.equal(e.cause, reason);
    assert.ok(Date.now() - t0 < 2500, 'did not wait for the server');
    assert.equal(spy.calls, 1, 'an abort is not retried');
  });
  test('abort with the default reason gives a DOMException AbortError as cause', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'delay', delayMs: 3000 });
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 100);
    const e = await rejectsWith(client().getMe({ signal: ctrl.signal }), AbortError, {}, lpm);
    assert.equal(e.cause, ctrl.signal.reason);
    assert.equal(e.cause.name, 'AbortError');
  });
  test('abort during a retry wait (Retry-After 5 s) → AbortError without the wait', async () => {
    await emu.fault({ endpoint: 'get-me', kind: 'status', status: 429, retryAfter: 5 });
    const ctrl = new AbortController();
    const reason = new Error('stop waiting');
    setTimeout(() => ctrl.abort(reason), 300);
    const t0 = Date.now();
    const e = await rejectsWith(client().getMe({ signal: ctrl.signal }), AbortError, { endpoint: 'get-me' }, lpm);
    assert.equal(e.cause, reason);
    assert.ok(Date.now() - t0 < 4000, 'the 5 s wait was cut short');
    assert.equal(spy.calls, 1);
  });
  test('abort of a POST in flight', async () => {
    await emu.fault({ endpoint: 'create-multi-user', kind: 'delay', delayMs: 3000 });
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort('gone'), 100);
    const e = await rejectsWith(client().createUsers([newUser('ab')], { signal: ctrl.signal }), AbortError, { endpoint: 'create-multi-user' }, lpm);
    assert.equal(e.cause, 'gone');
  });
  test('allCourses(): the signal reaches every page call', async () => {
    const ctrl = new AbortController();
    ctrl.abort(new Error('no'));
    const it = client().allCourses({ signal: ctrl.signal });
    await rejectsWith(it.next(), AbortError, { endpoint: 'get-multi-course' }, lpm);
  });
  test('an unaborted signal changes nothing', async () => {
    const ctrl = new AbortController();
    await client().getMe({ signal: ctrl.signal });
    await sleep(1);
  });
});
