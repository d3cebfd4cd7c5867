// What a user's fetch, hook, store or abort reason throws is read without trusting it: a Proxy
// whose every read (and every other trap) throws an error showing the URL with the token gives
// the package's own error (NetworkError, ConfigError, AbortError), never the raw thrown value,
// and no token anywhere in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { lpm, fakeResponse } from './helpers.mjs';

const TOKEN = 'Sec-ret.Tok~en_zq9XQ7wP4vK2mN8bR5tY3uH6jL1c';
const TRAPS = ['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf', 'setPrototypeOf', 'set',
  'defineProperty', 'deleteProperty', 'isExtensible', 'preventExtensions', 'apply', 'construct'];

/** A value every touch of which throws an Error whose message is `text` (the URL with the token). */
const hostile = (text) => new Proxy(function target() {}, Object.fromEntries(TRAPS.map((t) => [t, () => { throw new Error(text); }])));

/** Every text reachable from `e` that a caller would print. */
function texts(e) {
  const out = [e.message, e.stack, String(e), inspect(e, { depth: 6, showHidden: true })];
  for (let c = e.cause, d = 0; c !== undefined && c !== null && d < 4; c = c.cause, d++) out.push(inspect(c, { depth: 6, showHidden: true }));
  return out;
}

function assertClean(e, Class, where) {
  assert.ok(e instanceof Class, `${where}: ${e && e.constructor && e.constructor.name} ${typeof e}`);
  for (const text of texts(e)) assert.ok(!text.includes(TOKEN) && !text.includes(encodeURIComponent(TOKEN)), `${where}: ${text.slice(0, 300)}`);
}

async function failure(promise) {
  try { await promise; } catch (e) { return e; }
  assert.fail('expected a rejection');
}

const BASE = 'https://school.example.test';
const client = (extra = {}) => new lpm.Client({ baseUrl: BASE, token: TOKEN, maxRetries: 0, retryDelayMs: 5, ...extra });
const ME = { respCode: '00', msg: 'ok', user: { _id: 'u1', username: 'admin', emails: [{ address: 'a@x.io', verified: true }], profile: { name: 'Admin' }, createdAt: '2024-01-01T00:00:00.000Z' } };

test('a fetch that throws a Proxy whose every read throws: NetworkError, no token, not the raw value', async () => {
  let seen;
  const e = await failure(client({ fetch: (url) => { seen = url; throw hostile(`GET ${url}`); } }).getMe());
  assert.ok(seen.includes(TOKEN) || seen.includes(encodeURIComponent(TOKEN)), 'the fetch had the token');
  assertClean(e, lpm.NetworkError, 'thrown');
  // Rejected with, rather than thrown.
  assertClean(await failure(client({ fetch: async (url) => Promise.reject(hostile(`GET ${url}`)) }).getMe()), lpm.NetworkError, 'rejected');
  // Nested: an Error whose cause is the hostile value.
  assertClean(await failure(client({ fetch: async (url) => { throw new TypeError('fetch failed', { cause: hostile(url) }); } }).getMe()), lpm.NetworkError, 'cause');
});

test('a response whose reads throw is a NetworkError, not the raw value', async () => {
  const e = await failure(client({ fetch: async (url) => hostile(`answer of ${url}`) }).getMe());
  assertClean(e, lpm.NetworkError, 'response');
});

test('a hook and a logger that throw a hostile value do not break the call, and the logged line has no token', async () => {
  const lines = [];
  const logger = { debug() {}, info() {}, warn: (l) => lines.push(l), error: (l) => lines.push(l) };
  const me = await client({
    logger,
    fetch: async () => fakeResponse(200, JSON.stringify(ME)),
    onRequest: (ev) => { throw hostile(`hook ${ev.url} ${TOKEN}`); },
    onResponse: () => Promise.reject(hostile(TOKEN)),
  }).getMe();
  assert.equal(me.user._id, 'u1');
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(lines.some((l) => /onRequest hook failed/.test(l)), lines.join('\n'));
  for (const l of lines) assert.ok(!l.includes(TOKEN), l);
});

test('an interval store whose get or set throws a hostile value: ConfigError naming the store', async () => {
  const user = { name: 'Some One', username: 'someone1', email: 'someone1@x.io', password: 'secret-123' };
  const answer = JSON.stringify({ respCode: '00', msg: '1 success, 0 error', users: [{ ...user, userId: 'u2', success: true, status: 'Success created' }] });
  for (const op of ['get', 'set']) {
    const intervalStore = { get: () => (op === 'get' ? (() => { throw hostile(TOKEN); })() : undefined), set: () => { if (op === 'set') throw hostile(TOKEN); } };
    const e = await failure(client({ intervalStore, fetch: async () => fakeResponse(200, answer) }).createUsers([user]));
    assertClean(e, lpm.ConfigError, `store.${op}`);
    assert.match(e.message, new RegExp(`intervalStore\\.${op} failed`));
  }
});

test('an abort reason whose reads throw gives an AbortError without it', async () => {
  const ctrl = new AbortController();
  ctrl.abort(hostile(`cancelled ${TOKEN}`));
  const e = await failure(client({ fetch: async () => fakeResponse(200, JSON.stringify(ME)) }).getMe({ signal: ctrl.signal }));
  assertClean(e, lpm.AbortError, 'reason');
});
