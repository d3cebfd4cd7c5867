// The create-interval guard with a pluggable store: the decision stays in the core, the driver
// reads the last create's time from the store and writes it back. A restarted script (a second
// Node process) with fileStore, a browser-like Web Storage, and a store of your own (sync or async).
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lpm, emulator, DEMO, newUser, rejectsWith, countingFetch } from './helpers.mjs';

const { Client, IntervalError, ConfigError, fileStore, webStorageStore } = lpm;
const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../pkg');
let emu;
let dir;

before(async () => {
  emu = await emulator(['--create-interval-secs', '2']);
  dir = mkdtempSync(path.join(tmpdir(), 'lpm-store-'));
});
after(async () => {
  await emu?.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => { await emu.reset(); });

const mk = (tag, extra = {}) => new Client({
  baseUrl: `${emu.url}/${tag}`,
  token: DEMO.adminToken,
  createInterval: { intervalMs: 2200 },
  ...extra,
  fetch: (url, init) => (extra.fetch || fetch)(url.replace(`/${tag}/manage/`, '/manage/'), init),
});

/** One "script run" in a fresh Node process: a create with a file store; prints the outcome. */
function script(file, tag, user) {
  const code = `
    import { Client, fileStore } from ${JSON.stringify(path.join(pkg, 'node.js'))};
    const c = new Client({ baseUrl: ${JSON.stringify(`${emu.url}/${tag}`)}, token: ${JSON.stringify(DEMO.adminToken)},
      createInterval: { intervalMs: 2200 }, intervalStore: fileStore(${JSON.stringify(file)}),
      fetch: (u, i) => fetch(u.replace('/${tag}/manage/', '/manage/'), i) });
    try { const r = await c.createUsers([${JSON.stringify(user)}]); console.log('created', r.created); }
    catch (e) { console.log(e.name, e.nextAllowedAt ? 'at' : e.message); }`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', code], { timeout: 20_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout.trim())));
  });
}

/** The guard's key base of the emulator's URL: every loopback name counts as one host. */
const keyBase = () => emu.url.replace(/\/\/[^/:]+/, '//loopback');

test('fileStore: a restarted script still keeps the interval', async () => {
  const file = path.join(dir, 'intervals.json');
  assert.equal(await script(file, 'fs1', newUser('f')), 'created 1');
  assert.equal(await script(file, 'fs1', newUser('g')), 'IntervalError at');
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  const [key] = Object.keys(saved);
  assert.ok(key.startsWith(`${keyBase()}/fs1#`), key);
  assert.ok(!key.includes(DEMO.adminToken), 'the key holds a hash of the token, not the token');
  const { calls, violations } = await emu.control('GET', 'create-calls');
  assert.equal(calls.length, 1);
  assert.deepEqual(violations, []);
});

test('webStorageStore: what one tab recorded holds in another', async () => {
  const items = new Map();
  const storage = { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => { items.set(k, String(v)); } };
  await mk('ws1', { intervalStore: webStorageStore(storage) }).createUsers([newUser('w')]);
  const [[name, value]] = [...items];
  assert.ok(name.startsWith(`lpm-client:${keyBase()}/ws1#`), name);
  assert.ok(Math.abs(Number(value) - Date.now()) < 5000);
  // "Another tab": the same record under another base URL path, which this realm never used.
  items.set(name.replace('/ws1#', '/ws2#'), value);
  const spy = countingFetch();
  const other = mk('ws2', { intervalStore: webStorageStore(storage), fetch: spy });
  assert.ok(other.nextCreateAllowedAt() instanceof Date);
  await rejectsWith(other.createUsers([newUser('x')]), IntervalError, {}, lpm);
  assert.equal(spy.calls, 0);
  assert.throws(() => webStorageStore({}), ConfigError);
});

test('a store of your own, synchronous or not, is read before and written when a create is sent', async () => {
  for (const async of [false, true]) {
    const tag = async ? 'own-a' : 'own-s';
    const log = [];
    const wrap = (v) => (async ? Promise.resolve(v) : v);
    const other = Date.now() - 500; // another process created 0.5 s ago
    const store = {
      get: (key) => { log.push(["get", key]); return wrap(key.startsWith(`${keyBase()}/${tag}`) ? other : undefined); },
      set: (key, at) => { log.push(['set', key, at]); return wrap(undefined); },
    };
    const spy = countingFetch();
    const c = mk(tag, { intervalStore: store, fetch: spy });
    const e = await rejectsWith(c.createUsers([newUser('o')]), IntervalError, {}, lpm);
    assert.equal(e.nextAllowedAt.getTime(), other + 2200);
    assert.equal(spy.calls, 0);
    assert.equal(log.filter(([op]) => op === 'set').length, 0, 'a refused create is not recorded');
    // Waiting it out: sent, and recorded at sending and at the answer.
    await c.createUsers([newUser('p')], { waitForInterval: true });
    const sets = log.filter(([op]) => op === 'set');
    assert.equal(sets.length, 2, JSON.stringify(log));
    assert.ok(sets[1][2] >= sets[0][2]);
    assert.equal(spy.calls, 1);
    // Reads are not guarded and do not touch the store.
    const before = log.length;
    await c.getMe();
    assert.equal(log.length, before);
  }
  assert.throws(() => mk('bad', { intervalStore: { get() {} } }), ConfigError);
});

test('concurrent creates in one realm with an async store: one goes, the other is refused', async () => {
  const slow = { get: () => new Promise((r) => setTimeout(() => r(undefined), 20)), set: async () => {} };
  const spy = countingFetch();
  const c = mk('conc', { intervalStore: slow, fetch: spy });
  const results = await Promise.allSettled([c.createUsers([newUser('c')]), c.createUsers([newUser('d')])]);
  assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
  assert.ok(results.find((r) => r.status === 'rejected').reason instanceof IntervalError);
  assert.equal(spy.calls, 1);
});

test('fileStore outside the node entry says what to do', async () => {
  // The default (browser) entry: its wasm is the one the node entry already instantiated here.
  const lib = await import(path.join(pkg, 'index.js'));
  assert.throws(() => lib.fileStore('x.json'), (e) => e instanceof lpm.LpmError && /node/.test(e.message));
  assert.throws(() => fileStore(''), ConfigError);
});

test('a failing store: before sending the create fails unsent (ConfigError); after the answer it is only logged', async () => {
  const spy = countingFetch();
  const broken = { get: () => { throw new Error('disk gone'); }, set: () => {} };
  const e = await rejectsWith(mk('broken1', { intervalStore: broken, fetch: spy }).createUsers([newUser('k')]), ConfigError, { option: 'intervalStore' }, lpm);
  assert.match(e.message, /intervalStore\.get failed: disk gone/);
  assert.equal(e.cause.message, 'disk gone');
  assert.throws(() => mk('broken1', { intervalStore: broken }).nextCreateAllowedAt(), ConfigError);
  const asyncBroken = { get: async () => { throw new Error('later'); }, set: () => {} };
  assert.equal(mk('broken1b', { intervalStore: asyncBroken }).nextCreateAllowedAt(), null, 'not awaited, not unhandled');
  const rejecting = { get: () => undefined, set: async () => { throw new Error('read-only'); } };
  const c2 = mk('broken2', { intervalStore: rejecting, fetch: spy });
  await rejectsWith(c2.createUsers([newUser('l')]), ConfigError, {}, lpm);
  assert.equal(spy.calls, 0, 'nothing sent');
  assert.equal(c2.nextCreateAllowedAt(), null, 'an unsent create does not count');
  // Fails only on the second set (after the answer): the reply resolves, the failure is logged.
  let sets = 0;
  const errors = [];
  const late = { get: () => undefined, set: () => { sets += 1; if (sets === 2) throw new Error('late failure'); } };
  const r = await mk('broken3', { intervalStore: late, fetch: spy, logger: { error: (l) => errors.push(l) } }).createUsers([newUser('m')]);
  assert.equal(r.created, 1);
  assert.equal(spy.calls, 1);
  assert.equal(errors.length, 1);
  assert.match(errors[0], /intervalStore\.set failed: late failure/);
});
