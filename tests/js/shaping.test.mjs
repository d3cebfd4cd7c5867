// Shaping and watching requests: client-wide and per-call headers, per-call timeoutMs and
// maxRetries, hooks and a logger that never see the token (checked against a server that echoes
// the URL in its body and headers), withResponse(), and jittered retry delays.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { inspect } from 'node:util';
import { lpm, fakeResponse, rejectsWith, countingFetch } from './helpers.mjs';

const { Client, ConfigError, TimeoutError, HttpError } = lpm;
const TOKEN = 'Sec-ret.Tok~en_zq9XQ7wP4vK2mN8bR5tY3uH6jL1c';
const FORMS = [TOKEN, encodeURIComponent(TOKEN)];
let server;
let base;

// Echoes the URL it was asked for (token included) in its body and headers: 503 for GETs whose
// URL says `start=5` (retried), 500 HTML for POSTs, else a good empty page.
before(async () => {
  server = http.createServer((req, res) => {
    const echo = { 'x-echo-url': req.url, location: `${base}${req.url}`, 'x-echo-auth': String(req.headers['x-gateway'] ?? '') };
    req.resume();
    if (req.method === 'POST') {
      res.writeHead(500, { 'content-type': 'text/html', ...echo });
      res.end(`<h1>500</h1><p>while serving ${req.url}</p>`);
    } else if (req.url.includes('start=5')) {
      res.writeHead(503, { 'content-type': 'text/plain', ...echo });
      res.end(`busy: ${req.url}`);
    } else {
      res.writeHead(200, { 'content-type': 'application/json', ...echo });
      res.end(JSON.stringify({ respCode: '00', users: [], msg: `page for ${req.url}` }));
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((r) => server.close(r)));

/** Everything a hook or the logger received, as text (deep, errors included). */
function recorder() {
  const seen = [];
  const keep = (where) => (x) => { seen.push([where, x]); };
  const hooks = { onRequest: keep('onRequest'), onResponse: keep('onResponse'), onRetry: keep('onRetry'), onError: keep('onError') };
  const logger = { debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') };
  const text = () => seen.map(([w, x]) => `${w}: ${inspect(x, { depth: 8, showHidden: true })} ${x && x.error ? `${x.error.message} ${x.error.stack}` : ''}`).join('\n');
  return { seen, hooks, logger, text, of: (w) => seen.filter(([k]) => k === w).map(([, x]) => x) };
}

function assertNoToken(text, where) {
  for (const form of FORMS) assert.ok(!text.includes(form), `${where} shows the token: ${text.slice(text.indexOf(form) - 200, text.indexOf(form) + 50)}`);
}

test('hooks and the logger see every attempt with the token redacted; the fetch gets the real URL', async () => {
  const rec = recorder();
  const spy = countingFetch();
  const client = new Client({ baseUrl: base, token: TOKEN, retryDelayMs: 1, fetch: spy, ...rec.hooks, logger: rec.logger });
  const callRec = recorder();
  await client.getUsers({ start: 0, limit: 10 }, callRec.hooks);
  await rejectsWith(client.getUsers({ start: 5, limit: 10 }), HttpError, { status: 503 }, lpm);
  await rejectsWith(client.createUsers([{ name: 'A', username: 'a1', email: 'a1@x.vn', password: 'secret-1' }]), HttpError, { status: 500 }, lpm);
  // The fetch got the real URL every time.
  assert.equal(spy.calls, 1 + 3 + 1);
  for (const u of spy.urls) assert.ok(u.includes(`token=${TOKEN}`) || u.includes(`token=${encodeURIComponent(TOKEN)}`), u);
  // Hooks: one onRequest and onResponse per attempt, onRetry per retry, onError per failed call.
  assert.equal(rec.of('onRequest').length, 5);
  assert.equal(rec.of('onResponse').length, 5);
  assert.equal(rec.of('onRetry').length, 2);
  assert.equal(rec.of('onError').length, 2);
  assert.equal(callRec.of('onRequest').length, 1, 'per-call hooks too');
  const first = rec.of('onRequest')[0];
  assert.equal(first.method, 'GET');
  assert.equal(first.endpoint, 'get-multi-user');
  assert.equal(first.attempt, 1);
  assert.equal(first.url, `${base}/manage/api/users/get-multi-user?token=<redacted>&start=0&limit=10`);
  const retries = rec.of('onRetry');
  assert.deepEqual(retries.map((r) => [r.attempt, r.status]), [[1, 503], [2, 503]]);
  for (const r of retries) assert.ok(r.delayMs >= 0 && r.delayMs <= 2, `jittered delay within the doubling one: ${r.delayMs}`);
  const resp = rec.of('onResponse')[0];
  assert.equal(resp.status, 200);
  assert.ok(resp.durationMs >= 0);
  assert.ok(rec.of('onError')[1].error instanceof HttpError);
  // The logger: a debug line per attempt, warn for retries and failures.
  assert.equal(rec.of('debug').length, 5);
  assert.equal(rec.of('warn').length, 2 + 2);
  assert.match(rec.of('debug')[0], /^lpm-client: GET .*token=<redacted>.* attempt 1: 200 in \d+ ms$/);
  // Nothing they saw carries the token, although the server echoed it back everywhere.
  assertNoToken(rec.text(), 'client hooks/logger');
  assertNoToken(callRec.text(), 'call hooks');
});

test('a hook that throws (or rejects) is ignored and logged at error; the call goes on', async () => {
  const errors = [];
  const client = new Client({
    baseUrl: base,
    token: TOKEN,
    onRequest: () => { throw new Error(`bad hook ${TOKEN}`); },
    onResponse: async () => { throw new Error('async bad hook'); },
    logger: { error: (l) => errors.push(l) },
  });
  const page = await client.getUsers({ start: 0, limit: 1 });
  assert.deepEqual(page.users, []);
  await new Promise((r) => setImmediate(r));
  assert.equal(errors.length, 2);
  assert.match(errors[0], /onRequest hook failed \(ignored\): bad hook <redacted>/);
  assert.match(errors[1], /onResponse hook failed \(ignored\): async bad hook/);
  // A throwing logger is ignored too.
  const noisy = new Client({ baseUrl: base, token: TOKEN, logger: { debug: () => { throw new Error('x'); } } });
  await noisy.getUsers({ start: 0, limit: 1 });
});

test('headers: the client\'s with every request, a call\'s over them; never the token', async () => {
  const spy = countingFetch(async () => fakeResponse(200, '{"respCode":"00","users":[],"msg":"ok"}'));
  const inits = [];
  const client = new Client({
    baseUrl: base, token: TOKEN, headers: { 'X-Gateway': 'g1', 'X-Team': 't' },
    fetch: (url, init) => { inits.push(init); return spy(url, init); },
  });
  await client.getUsers({}, { headers: { 'x-gateway': 'g2', 'X-Call': 'c' } });
  await client.getUsers();
  assert.deepEqual(inits[0].headers, { 'x-gateway': 'g2', 'x-team': 't', 'x-call': 'c' });
  assert.deepEqual(inits[1].headers, { 'x-gateway': 'g1', 'x-team': 't' });
  // Without any: a GET carries none of the client's own (fetch's defaults go), a POST its
  // Content-Type alone.
  const bare = new Client({ baseUrl: base, token: TOKEN, fetch: (url, init) => { inits.push(init); return spy(url, init); } });
  await bare.getUsers();
  assert.deepEqual(inits[2].headers, {});
  await bare.addCoursesToUsers({ users: ['u1'], courses: ['c1'] }).catch(() => {});
  assert.deepEqual(inits[3].headers, { 'content-type': 'application/json' });
  for (const init of inits) assertNoToken(JSON.stringify(init.headers), 'headers');
  assert.throws(() => new Client({ baseUrl: base, headers: { a: 1 } }), ConfigError);
  assert.throws(() => new Client({ baseUrl: base, headers: 'x: y' }), ConfigError);
  await rejectsWith(client.getUsers({}, { headers: [] }), ConfigError, {}, lpm);
  await rejectsWith(client.getUsers({}, { onRetry: 'yes' }), ConfigError, {}, lpm);
  assert.throws(() => new Client({ baseUrl: base, logger: 'console' }), ConfigError);
});

test('the runtime\'s own fetch gets only what differs from its defaults; any other fetch gets method and headers always', async () => {
  // The runtime's own, watched in a process whose global fetch is replaced before the package
  // loads (so it is the one the package takes for the runtime's).
  const script = `
    const own = globalThis.fetch; const seen = [];
    globalThis.fetch = (url, init) => { seen.push({ keys: Object.keys(init).sort(), ...init, signal: init.signal instanceof AbortSignal }); return own(url, init); };
    const { Client } = await import(${JSON.stringify(new URL('../../pkg/node.js', import.meta.url).href)});
    const c = new Client({ baseUrl: ${JSON.stringify(base)}, token: ${JSON.stringify(TOKEN)} });
    await c.getUsers();
    await c.getUsers({}, { headers: { 'X-Call': 'c' } });
    await c.addCoursesToUsers({ users: ['u1'], courses: ['c1'] }).catch(() => {});
    console.log(JSON.stringify(seen));`;
  const { execFile } = await import('node:child_process');
  const out = await new Promise((resolve, reject) => execFile(process.execPath, ['--input-type=module', '-e', script], (e, stdout) => (e ? reject(e) : resolve(stdout))));
  const lean = JSON.parse(out);
  // A bare GET: its signal alone (a GET and no headers are fetch's defaults); with headers, all.
  assert.deepEqual(lean[0], { keys: ['signal'], signal: true });
  assert.deepEqual(lean[1], { keys: ['headers', 'method', 'signal'], method: 'GET', headers: { 'x-call': 'c' }, signal: true });
  // A POST: its method, Content-Type and body.
  assert.deepEqual(lean[2].keys, ['body', 'headers', 'method', 'signal']);
  assert.equal(lean[2].method, 'POST');
  assert.deepEqual(lean[2].headers, { 'content-type': 'application/json' });
  const c = new Client({ baseUrl: base, token: TOKEN });
  const own = globalThis.fetch;
  // A global replaced after the package loaded (a test's mock, a wrapper) is another fetch:
  // method and headers on every call, as FetchLike declares them.
  const seen = [];
  globalThis.fetch = (url, init) => { seen.push(init); return own(url, init); };
  try {
    await c.getUsers();
    await c.addCoursesToUsers({ users: ['u1'], courses: ['c1'] }).catch(() => {});
  } finally {
    globalThis.fetch = own;
  }
  assert.equal(seen[0].method, 'GET');
  assert.deepEqual(seen[0].headers, {});
  assert.ok(seen[0].signal instanceof AbortSignal);
  assert.equal(seen[1].method, 'POST');
  assert.deepEqual(seen[1].headers, { 'content-type': 'application/json' });
  assert.equal(typeof seen[1].body, 'string');
  // A custom fetch, as FetchLike declares: method and headers on every call.
  const inits = [];
  const custom = new Client({ baseUrl: base, token: TOKEN, fetch: (url, init) => { inits.push(init); return own(url, init); } });
  await custom.getUsers();
  assert.equal(inits[0].method, 'GET');
  assert.deepEqual(inits[0].headers, {});
});

test('per-call timeoutMs and maxRetries override the client\'s', async () => {
  const hang = countingFetch((url, init) => new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason))));
  const client = new Client({ baseUrl: base, token: TOKEN, timeoutMs: 60_000, maxRetries: 2, retryDelayMs: 1, fetch: hang });
  const e = await rejectsWith(client.getMe({ timeoutMs: 30, maxRetries: 0 }), TimeoutError, { timeoutMs: 30 }, lpm);
  assert.match(e.message, /30 ms/);
  assert.equal(hang.calls, 1);
  const busy = countingFetch(async () => fakeResponse(503, 'busy'));
  const c2 = new Client({ baseUrl: base, token: TOKEN, maxRetries: 2, retryDelayMs: 1, fetch: busy });
  await rejectsWith(c2.getMe({ maxRetries: 0 }), HttpError, {}, lpm);
  assert.equal(busy.calls, 1);
  busy.reset();
  await rejectsWith(c2.getMe({ maxRetries: 1 }), HttpError, {}, lpm);
  assert.equal(busy.calls, 2);
  busy.reset();
  await rejectsWith(c2.getMe(), HttpError, {}, lpm);
  assert.equal(busy.calls, 3);
  await rejectsWith(c2.getMe({ maxRetries: 11 }), ConfigError, {}, lpm);
  await rejectsWith(c2.getMe({ timeoutMs: -1 }), ConfigError, {}, lpm);
  await rejectsWith(c2.getMe('fast'), ConfigError, {}, lpm);
});

test('retry delays: full jitter on the doubling delay, from the draw the driver passes', async () => {
  const random = Math.random;
  const rec = recorder();
  const busy = countingFetch(async () => fakeResponse(503, 'busy'));
  const client = new Client({ baseUrl: base, token: TOKEN, maxRetries: 2, retryDelayMs: 40, fetch: busy, onRetry: rec.hooks.onRetry });
  Math.random = () => 0.5;
  try {
    await rejectsWith(client.getMe(), HttpError, {}, lpm);
  } finally {
    Math.random = random;
  }
  assert.deepEqual(rec.of('onRetry').map((r) => r.delayMs), [20, 40], '40 * 0.5, 80 * 0.5');
  // With Retry-After the server's delay is kept as sent.
  const rec2 = recorder();
  const later = async () => fakeResponse(429, 'slow down', { 'retry-after': '0.05' });
  const c2 = new Client({ baseUrl: base, token: TOKEN, maxRetries: 1, fetch: later, onRetry: rec2.hooks.onRetry });
  await rejectsWith(c2.getMe(), HttpError, {}, lpm);
  assert.deepEqual(rec2.of('onRetry').map((r) => r.delayMs), [50]);
});

test('withResponse(): {data, response: {status, headers}} with the token redacted from headers', async () => {
  const client = new Client({ baseUrl: base, token: TOKEN });
  const raw = client.withResponse();
  const { data, response } = await raw.getUsers({ start: 0, limit: 3 });
  assert.deepEqual(data.users, []);
  assert.equal(response.status, 200);
  assert.equal(response.headers['content-type'], 'application/json');
  assert.equal(response.headers['x-echo-url'], '/manage/api/users/get-multi-user?token=<redacted>&start=0&limit=3');
  assertNoToken(JSON.stringify(response), 'withResponse');
  // Errors are the same errors; the plain client is unchanged; iterators give records.
  await rejectsWith(raw.getUsers({ start: 5, limit: 3 }, { maxRetries: 0 }), HttpError, {}, lpm);
  assert.deepEqual(await client.getUsers({ start: 0, limit: 3 }), data);
  const items = [];
  for await (const u of raw.allUsers()) items.push(u);
  assert.deepEqual(items, []);
  assert.equal(typeof raw.withToken('Another-token-123').withResponse, 'function');
  // Freeing the view leaves its client working.
  raw.free();
  assert.deepEqual((await client.getUsers({ start: 0, limit: 3 })).users, []);
});
