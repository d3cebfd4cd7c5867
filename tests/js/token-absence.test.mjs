// No error the package produces shows the token: not in message, stack, String(err),
// JSON.stringify(err), any own property, nor its cause's message/stack. Tokens are RFC 3986
// unreserved characters (the client refuses others), so the form in the query is the token itself;
// the token below uses every kind of character allowed.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { lpm, emulator, newUser, fakeResponse, sleep } from './helpers.mjs';

const { Client } = lpm;
const TOKEN = 'Sec-ret.Tok~en_zq9XQ7wP4vK2mN8bR5tY3uH6jL1c';
const ENC = encodeURIComponent(TOKEN); // the same as TOKEN but for `~` in older encoders
const ENC_LOWER_HEX = ENC.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const FORMS = [TOKEN, ENC, ENC_LOWER_HEX];
// What servers were seen to echo: `~` as `%7E` (Java's URLEncoder), every character `%XX`, JSON
// `\u` escapes, the token upper-cased, and a cut echo (16 characters of it).
const pct = (s) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
const ECHOES = [
  TOKEN.replace('~', '%7E'), pct(TOKEN), pct(TOKEN).toLowerCase(),
  [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  TOKEN.toUpperCase(), TOKEN.slice(0, 16), TOKEN.slice(-20),
];
/** Any run of 16 of the token's characters in `text`, after undoing %XX and \uXXXX, in any case. */
function showsRun(text) {
  const plain = text.replace(/%([0-9a-f]{2})|\\u([0-9a-f]{4})/gi, (_, p, u) => String.fromCharCode(parseInt(p ?? u, 16))).toLowerCase();
  const tok = TOKEN.toLowerCase();
  for (let i = 0; i + 16 <= tok.length; i += 1) if (plain.includes(tok.slice(i, i + 16))) return true;
  return false;
}
let emu;

before(async () => { emu = await emulator(['--admin-token', TOKEN, '--create-interval-secs', '1']); });
after(async () => { await emu?.stop(); });
beforeEach(async () => { await emu.reset(); });

/** Every string reachable from `err` that the brief names. */
function surfaces(err) {
  const out = {
    message: err.message, stack: err.stack, string: String(err), json: JSON.stringify(err), inspect: inspect(err, { depth: 4 }),
  };
  for (const k of Object.getOwnPropertyNames(err)) {
    const v = err[k];
    out[`prop:${k}`] = typeof v === 'string' ? v : (() => { try { return JSON.stringify(v); } catch { return String(v); } })();
  }
  if (err.cause !== undefined) {
    const c = err.cause;
    out['cause'] = String(c);
    out['cause.message'] = c && c.message;
    out['cause.stack'] = c && c.stack;
  }
  return out;
}

/** Deeper: the cause's own properties and its cause chain (what a logger would print). */
function deepSurfaces(err) {
  const out = {};
  let c = err.cause;
  for (let depth = 0; c !== undefined && c !== null && depth < 4; depth += 1) {
    out[`cause[${depth}]`] = inspect(c, { depth: 6, showHidden: true });
    if (typeof c === 'object') {
      for (const k of Object.getOwnPropertyNames(c)) out[`cause[${depth}].${k}`] = String(c[k]);
    }
    c = c && c.cause;
  }
  return out;
}

function assertNoToken(err, where, deep = false) {
  assert.ok(err instanceof lpm.LpmError, `${where}: an LpmError (${err && err.constructor && err.constructor.name}: ${err && err.message})`);
  const all = { ...surfaces(err), ...(deep ? deepSurfaces(err) : {}) };
  for (const [name, text] of Object.entries(all)) {
    if (typeof text !== 'string') continue;
    for (const form of FORMS) {
      assert.ok(!text.includes(form), `${where}: ${name} shows the token (${form}): ${text.slice(0, 300)}`);
    }
    assert.ok(!showsRun(text), `${where}: ${name} shows 16 characters of the token: ${text.slice(0, 300)}`);
  }
}

async function failure(promise) {
  try { await promise; } catch (e) { return e; }
  assert.fail('expected a rejection');
}

const client = (extra = {}) => new Client({ baseUrl: emu.url, token: TOKEN, maxRetries: 0, retryDelayMs: 5, createInterval: { intervalMs: 60_000 }, ...extra });
const fetchReturning = (status, bodyOf, headers) => async (url) => fakeResponse(status, bodyOf(url), headers);

test('the token works against the emulator (sanity)', async () => {
  const me = await client().getMe();
  assert.equal(me.user.username, 'admin');
});

test('ApiError: a msg echoing the token (raw, encoded, lower-case hex) is redacted', async () => {
  await emu.fault({ endpoint: 'get-me', kind: 'respcode', respCode: '42', msg: `bad ${TOKEN} / ${ENC} / ${ENC_LOWER_HEX}` });
  const e = await failure(client().getMe());
  assert.ok(e instanceof lpm.ApiError);
  assert.match(e.msg, /<redacted>/);
  assertNoToken(e, 'ApiError');
  // An ordinary API error too.
  assertNoToken(await failure(client().getUser('NoSuchUser1234567')), 'ApiError not found');
});

test('every echo servers were seen to make is redacted: ApiError, HttpError, DecodeError, NetworkError', async () => {
  for (const echo of ECHOES) {
    await emu.fault({ endpoint: 'get-me', kind: 'respcode', respCode: '42', msg: `bad token ${echo}.` });
    const api = await failure(client().getMe());
    assert.ok(api instanceof lpm.ApiError);
    assert.equal(api.msg, 'bad token <redacted>.', echo);
    assertNoToken(api, `ApiError ${echo}`);
    const http = await failure(client({ fetch: fetchReturning(502, () => `<html>no ${echo}</html>`) }).getMe());
    assert.ok(http instanceof lpm.HttpError);
    assertNoToken(http, `HttpError ${echo}`);
    const network = await failure(client({ fetch: async () => { throw new TypeError(`GET ?token=${echo} failed`); } }).getMe());
    assert.ok(network instanceof lpm.NetworkError);
    assertNoToken(network, `NetworkError ${echo}`, true);
  }
});

test('a message of megabytes from the server is cut to 200 characters', async () => {
  const huge = 'm'.repeat(5 << 20);
  const e = await failure(client({ fetch: fetchReturning(400, () => JSON.stringify({ respCode: '42', msg: huge })) }).getMe());
  assert.ok(e instanceof lpm.ApiError);
  assert.equal(e.msg.length, 201);
  assert.ok(e.msg.endsWith('…'));
  assert.ok(e.message.length < 500, `message of ${e.message.length}`);
});

test('HttpError: an HTML page echoing the URL with the token', async () => {
  const e = await failure(client({ fetch: fetchReturning(502, (u) => `<html>Bad gateway for ${u} (${TOKEN})</html>`) }).getMe());
  assert.ok(e instanceof lpm.HttpError);
  assertNoToken(e, 'HttpError');
  await emu.fault({ endpoint: 'get-me', kind: 'html500' });
  assertNoToken(await failure(client().getMe()), 'HttpError html500');
});

test('DecodeError: a body that echoes the token where a record should be', async () => {
  const e = await failure(client({ fetch: fetchReturning(200, () => JSON.stringify({ respCode: '00', msg: 'Success', user: TOKEN })) }).getMe());
  assert.ok(e instanceof lpm.DecodeError);
  assertNoToken(e, 'DecodeError');
  const e2 = await failure(client({ fetch: fetchReturning(200, (u) => `{"respCode":"00","msg":"${u}",`) }).getMe());
  assertNoToken(e2, 'DecodeError truncated');
  await emu.fault({ endpoint: 'get-me', kind: 'truncated' });
  assertNoToken(await failure(client().getMe()), 'DecodeError emulator');
});

test('NetworkError: a custom fetch throwing with the full URL in its message is scrubbed', async () => {
  let seen;
  const e = await failure(client({ fetch: async (url) => { seen = url; throw new TypeError(`request to ${url} failed`); } }).getMe());
  assert.ok(e instanceof lpm.NetworkError);
  assert.ok(seen.includes(ENC), 'the fetch was given the encoded token');
  assert.ok(e.cause !== undefined, 'a cause is kept');
  assert.equal(e.cause.name, 'TypeError', 'the cause keeps its name');
  assert.match(e.cause.message, /request to .* failed/);
  assertNoToken(e, 'NetworkError');
  // A string thrown.
  assertNoToken(await failure(client({ fetch: async (url) => { throw `boom ${url}`; } }).getMe()), 'NetworkError string');
  // The real thing: connection dropped by the emulator.
  await emu.fault({ endpoint: 'get-me', kind: 'close' });
  assertNoToken(await failure(client().getMe()), 'NetworkError close', true);
});

test('NetworkError: a cause whose nested cause shows the URL is scrubbed too', async () => {
  const e = await failure(client({ fetch: async (url) => { throw new TypeError('fetch failed', { cause: new Error(`GET ${url}`) }); } }).getMe());
  assertNoToken(e, 'NetworkError nested cause', true);
});

test('NetworkError: a cause with the URL in an own property (node-fetch/axios style) is scrubbed', async () => {
  const e = await failure(client({ fetch: async (url) => { const err = new TypeError('fetch failed'); err.url = url; throw err; } }).getMe());
  assertNoToken(e, 'NetworkError url property', true);
});

test('TimeoutError', async () => {
  await emu.fault({ endpoint: 'get-me', kind: 'delay', delayMs: 1500 });
  const e = await failure(client({ timeoutMs: 200 }).getMe());
  assert.ok(e instanceof lpm.TimeoutError);
  assertNoToken(e, 'TimeoutError', true);
  // A custom fetch that rejects with the URL when its signal fires.
  const slow = (url, init) => new Promise((_, reject) => {
    init.signal.addEventListener('abort', () => reject(new Error(`aborted ${url}`)));
  });
  const e2 = await failure(client({ timeoutMs: 100, fetch: slow }).getMe());
  assert.ok(e2 instanceof lpm.TimeoutError);
  assertNoToken(e2, 'TimeoutError custom fetch');
});

test('AbortError: a plain reason is kept as is; a reason showing the token is scrubbed', async () => {
  const ctrl = new AbortController();
  ctrl.abort(new Error('user cancelled'));
  const e = await failure(client().getMe({ signal: ctrl.signal }));
  assert.ok(e instanceof lpm.AbortError);
  assertNoToken(e, 'AbortError');
  const ctrl2 = new AbortController();
  ctrl2.abort(new Error(`cancelled ${ENC}`));
  const e2 = await failure(client().getMe({ signal: ctrl2.signal }));
  assertNoToken(e2, 'AbortError with token in reason');
  const ctrl3 = new AbortController();
  await emu.fault({ endpoint: 'get-me', kind: 'delay', delayMs: 2000 });
  setTimeout(() => ctrl3.abort(), 50);
  assertNoToken(await failure(client().getMe({ signal: ctrl3.signal })), 'AbortError in flight', true);
});

test('ValidationError (even when a field equals the token)', async () => {
  // No password: refused by the contract-level check, whatever the other fields hold.
  const e = await failure(client().createUsers([{ name: TOKEN, username: TOKEN, email: TOKEN }]));
  assert.ok(e instanceof lpm.ValidationError);
  assertNoToken(e, 'ValidationError');
  assertNoToken(await failure(client().getUser('')), 'ValidationError id');
});

test('ConfigError: a bad token, a bad option, a missing token', async () => {
  let e;
  try { client().withToken(`${TOKEN} with space`); } catch (err) { e = err; }
  assert.ok(e instanceof lpm.ConfigError);
  assertNoToken(e, 'ConfigError token');
  try { new Client({ baseUrl: emu.url, token: TOKEN, maxRetries: -1 }); } catch (err) { e = err; }
  assert.ok(e instanceof lpm.ConfigError);
  assertNoToken(e, 'ConfigError option');
  try { new Client({ baseUrl: `${emu.url}/?token=${ENC}`, token: TOKEN }); } catch (err) { e = err; }
  assert.ok(e instanceof lpm.ConfigError);
  assertNoToken(e, 'ConfigError baseUrl with the token in a query');
});

test('IntervalError', async () => {
  const c = client({ createInterval: { intervalMs: 60_000 }, baseUrl: `${emu.url}/` });
  if (!c.nextCreateAllowedAt()) await c.createUsers([newUser('iv')]);
  const e = await failure(c.createUsers([newUser('iw')]));
  assert.ok(e instanceof lpm.IntervalError);
  assertNoToken(e, 'IntervalError');
});

test('successful results hold no token either (besides login\'s own)', async () => {
  const me = await client().getMe();
  assert.ok(!JSON.stringify(me).includes(TOKEN));
  await sleep(0);
});
