// The fault matrix of docs/faults.md: every fault a server or network can produce, the typed
// error the caller gets, and that the same client stays usable afterwards. One test per row, in
// the table's order; the emulator's fault knobs (emulator/README.md) or a custom fetch make them.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { lpm, emulator, DEMO, countingFetch, fakeResponse, rejectsWith } from './helpers.mjs';

let emu;
let spy;
before(async () => { emu = await emulator(); });
after(async () => { await emu?.stop(); });
beforeEach(async () => { await emu.reset(); spy = countingFetch(); });

const EP = 'get-multi-user';
const client = (extra = {}) => new lpm.Client({
  baseUrl: emu.url, token: DEMO.adminToken, fetch: spy, maxRetries: 0, timeoutMs: 2000, ...extra,
});
const call = (c) => c.getUsers({ start: 0, limit: 1 });

/** Arms `fault` for the next call, checks the call rejects with `Class` (and `props`), then that
 * the same client's next call succeeds; returns the error. */
async function row(fault, Class, props = {}, extra = {}) {
  const c = client(extra);
  if (fault) await emu.fault({ endpoint: EP, ...fault });
  const e = await rejectsWith(call(c), Class, props, lpm);
  assert.equal((await call(c)).users.length, 1, 'the client stays usable');
  return e;
}

/** A custom fetch answering `first` once, then passing on to the emulator. */
const once = (first) => {
  let used = false;
  return countingFetch((url, init) => (used ? globalThis.fetch(url, init) : (used = true, first(url, init))));
};

test('HTML error page (proxy) → HttpError with status and a 200-character excerpt', async () => {
  const e = await row({ kind: 'html500' }, lpm.HttpError, { status: 500 });
  assert.match(e.excerpt, /<html/i);
  assert.ok(e.excerpt.length <= 201);
});

test('truncated JSON (complete HTTP message) → DecodeError, not retried', async () => {
  const e = await row({ kind: 'truncated' }, lpm.DecodeError, { status: 200, path: '.' }, { maxRetries: 2, retryDelayMs: 1 });
  assert.match(e.detail, /not well-formed JSON/);
  assert.equal(spy.calls, 2, 'one attempt, then the next call');
});

test('connection lost mid-body → NetworkError with a cause', async () => {
  const e = await row({ kind: 'close' }, lpm.NetworkError);
  assert.ok(e.cause !== undefined);
});

test('answer lost (connection closed before any byte) → NetworkError', async () => {
  await row({ kind: 'drop' }, lpm.NetworkError);
});

test('connection reset (TCP RST) → NetworkError', async () => {
  await row({ kind: 'reset' }, lpm.NetworkError);
});

test('connection refused → NetworkError', async () => {
  const c = client({ fetch: once((url, init) => globalThis.fetch(url.replace(/:\d+\//, ':9/'), init)) });
  await rejectsWith(call(c), lpm.NetworkError, {}, lpm);
  assert.equal((await call(c)).users.length, 1);
});

test('stall before the headers → TimeoutError at timeoutMs', async () => {
  await row({ kind: 'delay', delayMs: 1500 }, lpm.TimeoutError, { timeoutMs: 300 }, { timeoutMs: 300 });
});

test('stall in the body → TimeoutError at timeoutMs', async () => {
  await row({ kind: 'stallbody', delayMs: 1500 }, lpm.TimeoutError, { timeoutMs: 300 }, { timeoutMs: 300 });
});

test('a fetch (and a body) that ignore the signal → TimeoutError / AbortError all the same', async () => {
  const never = () => new Promise(() => {});
  const t0 = Date.now();
  await rejectsWith(call(client({ fetch: never, timeoutMs: 200 })), lpm.TimeoutError, {}, lpm);
  const ctrl = new AbortController();
  setTimeout(() => ctrl.abort(new Error('stop')), 50);
  const e = await rejectsWith(client({ fetch: never, timeoutMs: 0 }).getUsers({}, { signal: ctrl.signal }), lpm.AbortError, {}, lpm);
  assert.equal(e.cause.message, 'stop');
  const stalledBody = async () => ({ status: 200, headers: new Headers(), body: new ReadableStream({ pull: never }) });
  await rejectsWith(call(client({ fetch: stalledBody, timeoutMs: 200 })), lpm.TimeoutError, {}, lpm);
  assert.ok(Date.now() - t0 < 5000);
  const c = client({ fetch: once(never), timeoutMs: 200 });
  await rejectsWith(call(c), lpm.TimeoutError, {}, lpm);
  assert.equal((await call(c)).users.length, 1, 'the client stays usable');
});

test('each attempt has a signal of its own: one a timeout aborted is never handed on', async () => {
  // (The driver makes the next attempt's controller while a request is on its way.)
  const seen = [];
  const fetch = (url, init) => {
    seen.push({ signal: init.signal, aborted: init.signal.aborted });
    return seen.length === 1 ? new Promise(() => {}) : globalThis.fetch(url, init);
  };
  const c = client({ fetch, timeoutMs: 200, maxRetries: 1 });
  assert.equal((await call(c)).users.length, 1, 'the timed-out attempt is retried');
  assert.equal((await call(c)).users.length, 1);
  assert.equal(seen.length, 3);
  assert.equal(new Set(seen.map((s) => s.signal)).size, 3);
  assert.ok(seen[0].signal.aborted, 'the first was aborted by its timeout');
  assert.deepEqual(seen.map((s) => s.aborted), [false, false, false], 'none was aborted when sent');
  assert.ok(!seen[1].signal.aborted && !seen[2].signal.aborted);
});

test('huge body announced by Content-Length → ResponseTooLargeError before reading', async () => {
  const e = await row({ kind: 'huge', bytes: 4 << 20 }, lpm.ResponseTooLargeError, { maxResponseBytes: 1 << 20 }, { maxResponseBytes: 1 << 20 });
  assert.match(e.message, /larger than maxResponseBytes \(1048576 bytes\)/);
});

test('huge chunked body (no Content-Length) → ResponseTooLargeError while reading', async () => {
  await row({ kind: 'huge', bytes: 4 << 20, chunked: true }, lpm.ResponseTooLargeError, {}, { maxResponseBytes: 1 << 20 });
});

test('a body under maxResponseBytes resolves; an endless body stops being read at the bound', async () => {
  await emu.fault({ endpoint: EP, kind: 'huge', bytes: 900 << 10, chunked: true });
  const page = await call(client({ maxResponseBytes: 1 << 20 }));
  assert.equal(page.msg.length > 800 << 10, true);
  let pulled = 0;
  const endless = async () => ({
    status: 200, headers: new Headers(),
    body: new ReadableStream({ pull(ctrl) { pulled += 65536; ctrl.enqueue(new Uint8Array(65536).fill(32)); } }),
  });
  await rejectsWith(call(client({ fetch: endless, maxResponseBytes: 1 << 20 })), lpm.ResponseTooLargeError, {}, lpm);
  assert.ok(pulled < 2 << 20, `read ${pulled} bytes`);
  // A fetch without a body stream: the length of arrayBuffer() is checked.
  const plain = async () => fakeResponse(200, `{"respCode":"00","msg":"${'x'.repeat(2 << 20)}","users":[]}`);
  await rejectsWith(call(client({ fetch: plain, maxResponseBytes: 1 << 20 })), lpm.ResponseTooLargeError, {}, lpm);
  assert.throws(() => client({ maxResponseBytes: -1 }), lpm.ConfigError);
});

test('a body read to its end: chunks after an empty one, and past a Content-Length it stops at', async () => {
  const text = '{"respCode":"00","msg":"ok","users":[],"total":0}';
  const bytes = new TextEncoder().encode(text);
  const streamed = (headers) => async () => ({
    status: 200, headers: new Headers(headers), type: 'basic',
    body: new ReadableStream({ start(ctrl) { ctrl.enqueue(new Uint8Array(0)); ctrl.enqueue(bytes.subarray(0, 9)); ctrl.enqueue(bytes.subarray(9)); ctrl.close(); } }),
  });
  // No Content-Length: an empty first chunk does not end the read.
  assert.equal((await call(client({ fetch: streamed({}) }))).msg, 'ok');
  // Its Content-Length: the read ends at the last announced byte, the body whole.
  assert.equal((await call(client({ fetch: streamed({ 'content-length': String(bytes.length) }) }))).msg, 'ok');
  // A Content-Encoding undone: the announced length is not the bytes' (read to the end).
  assert.equal((await call(client({ fetch: streamed({ 'content-length': '5', 'content-encoding': 'gzip' }) }))).msg, 'ok');
});

test('unknown respCode → ApiError with the code as received, category "unknown"', async () => {
  await row({ kind: 'respcode', respCode: '42', msg: 'Something new' }, lpm.ApiError, { code: '42', category: 'unknown', msg: 'Something new' });
});

test('numeric respCode → DecodeError at respCode', async () => {
  const e = await row({ kind: 'respcode', respCode: 0 }, lpm.DecodeError, { path: 'respCode' });
  assert.match(e.detail, /string/);
});

test('invalid UTF-8 → DecodeError', async () => {
  const e = await row({ kind: 'badutf8' }, lpm.DecodeError, { status: 200 });
  assert.match(e.message, /UTF-8/);
});

test('a UTF-8 byte order mark before the JSON is ignored (RFC 8259) → resolves', async () => {
  const bom = once(async () => ({ status: 200, headers: new Headers(), arrayBuffer: async () => new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"respCode":"00","msg":"Success","users":[]}')]).buffer }));
  assert.deepEqual((await call(client({ fetch: bom }))).users, []);
});

test('characters beyond ASCII arrive as sent: two- and three-byte, beyond U+FFFF, after a byte order mark; bytes that are not UTF-8 → DecodeError', async () => {
  const user = (name) => `{"_id":"u1","createdAt":"2022-11-17T02:57:55.897Z","username":"an","emails":[{"address":"a@b.test","verified":false}],"profile":{"name":${JSON.stringify(name)}}}`;
  const page = (name) => new TextEncoder().encode(`{"respCode":"00","msg":"Thành công","users":[${user(name)}]}`);
  const answer = (bytes) => once(async () => ({ status: 200, headers: new Headers(), arrayBuffer: async () => bytes.buffer }));
  const bom = [0xef, 0xbb, 0xbf];
  for (const name of ['Nguyễn Văn Ân', 'Đặng Thị Ýến 😀 ✓', 'plain', 'é'.repeat(300) + '𝄞'.repeat(3)]) {
    for (const lead of [[], bom]) {
      const r = await call(client({ fetch: answer(new Uint8Array([...lead, ...page(name)])) }));
      assert.equal(r.users[0].profile.name, name, `${lead.length ? 'BOM, ' : ''}${name.slice(0, 20)}`);
      assert.equal(r.msg, 'Thành công');
    }
  }
  // Not UTF-8 inside a name: a lone continuation byte, an overlong form, a surrogate, beyond
  // U+10FFFF, a lead of five bytes, a cut sequence.
  const [head, tail] = new TextDecoder().decode(page('X')).split('X').map((t) => new TextEncoder().encode(t));
  for (const bad of [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe1, 0x80]]) {
    const e = await rejectsWith(call(client({ fetch: answer(new Uint8Array([...head, ...bad, ...tail])) })), lpm.DecodeError, { path: '.' }, lpm);
    assert.match(e.message, /UTF-8/, bad.join(','));
  }
});

test('msg twice in one envelope → not an envelope: DecodeError on a 2xx, HttpError otherwise', async () => {
  const body = '{"respCode":"04","msg":"Invalid token","msg":"Success","users":null}';
  for (const [status, Class] of [[200, lpm.DecodeError], [400, lpm.HttpError]]) {
    const twice = once(async () => ({ status, headers: new Headers(), arrayBuffer: async () => new TextEncoder().encode(body).buffer }));
    await assert.rejects(call(client({ fetch: twice })), (e) => e instanceof Class && e.status === status);
  }
});

test('redirect loop → NetworkError (fetch gives up after 20 redirects)', async () => {
  await row({ kind: 'redirect', status: 302 }, lpm.NetworkError);
});

test('HTTP 204 without a body → DecodeError', async () => {
  await row({ kind: 'status', status: 204 }, lpm.DecodeError, { status: 204 });
});

test('HTTP 304 without a body → HttpError with an empty excerpt', async () => {
  await row({ kind: 'status', status: 304 }, lpm.HttpError, { status: 304, excerpt: '' });
});

test('HTTP 503 with Retry-After beyond 60 s, or Infinity → not waited for: HttpError at once', async () => {
  for (const retryAfter of ['120', 'Infinity', '1e308']) {
    const f = countingFetch(async () => fakeResponse(503, '<html>busy</html>', { 'retry-after': retryAfter }));
    const t0 = Date.now();
    await rejectsWith(call(client({ fetch: f, maxRetries: 2, retryDelayMs: 1 })), lpm.HttpError, { status: 503 }, lpm);
    assert.equal(f.calls, 1, `Retry-After: ${retryAfter} is not retried`);
    assert.ok(Date.now() - t0 < 2000);
  }
});

test('HTTP 503 with a success envelope → the envelope wins: resolves', async () => {
  await emu.fault({ endpoint: EP, kind: 'status', status: 503 });
  assert.equal((await call(client())).users.length, 1);
});
