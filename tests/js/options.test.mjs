// Client options: bad options throw ConfigError, a custom fetch is used, a base URL with a path
// prefix (through a small Node HTTP proxy that strips it), defaults.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { lpm, emulator, DEMO, countingFetch, rejectsWith } from './helpers.mjs';

const { Client, ConfigError } = lpm;
let emu;
let proxy;
let proxyUrl;
let proxied = 0;

before(async () => {
  emu = await emulator();
  const target = new URL(emu.url);
  // Forwards /school/app/<rest> to the emulator's /<rest>; anything else is a 404.
  proxy = http.createServer((req, res) => {
    if (!req.url.startsWith('/school/app/')) { res.writeHead(404); res.end('not under the prefix'); return; }
    proxied += 1;
    const up = http.request({
      host: target.hostname, port: target.port, method: req.method,
      path: req.url.slice('/school/app'.length), headers: req.headers,
    }, (r) => { res.writeHead(r.statusCode, r.headers); r.pipe(res); });
    up.on('error', () => { res.writeHead(502); res.end(); });
    req.pipe(up);
  });
  await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${proxy.address().port}`;
});
after(async () => {
  await new Promise((r) => (proxy ? proxy.close(r) : r()));
  await emu?.stop();
});

function configError(fn, problem) {
  let err;
  try { fn(); } catch (e) { err = e; }
  assert.ok(err instanceof ConfigError, `expected ConfigError, got ${err && err.constructor.name}: ${err && err.message}`);
  assert.ok(err instanceof lpm.LpmError);
  assert.equal(err.kind, 'config');
  if (problem) assert.equal(err.problem, problem);
  return err;
}

test('bad options throw ConfigError', () => {
  configError(() => new Client({}), 'option');
  configError(() => new Client(), 'option');
  configError(() => new Client({ baseUrl: 'ftp://school.example.com' }), 'baseUrl');
  configError(() => new Client({ baseUrl: 'not a url' }), 'baseUrl');
  configError(() => new Client({ baseUrl: 'https://x.example/?a=1' }), 'baseUrl');
  const up = configError(() => new Client({ baseUrl: emu.url, userPath: 'x' }), 'option');
  assert.equal(up.option, 'userPath');
  assert.equal(up.name, 'ConfigError');
  assert.match(up.message, /userPath/);
  configError(() => new Client({ baseUrl: emu.url, maxRetries: -1 }), 'option');
  configError(() => new Client({ baseUrl: emu.url, maxRetries: 1.5 }), 'option');
  configError(() => new Client({ baseUrl: emu.url, maxRetries: 11 }), 'option');
  configError(() => new Client({ baseUrl: emu.url, timeoutMs: -5 }), 'option');
  configError(() => new Client({ baseUrl: emu.url, timeoutMs: 'soon' }), 'option');
  configError(() => new Client({ baseUrl: emu.url, retryDelayMs: Number.NaN }), 'option');
  configError(() => new Client({ baseUrl: emu.url, fetch: 'curl' }), 'option');
  configError(() => new Client({ baseUrl: emu.url, strictPlatformRules: 'yes' }), 'option');
  configError(() => new Client({ baseUrl: emu.url, createInterval: { guard: 'sometimes' } }), 'option');
  configError(() => new Client({ baseUrl: emu.url, createInterval: { intervalMs: -1 } }), 'option');
  configError(() => new Client({ baseUrl: emu.url, token: 42 }), 'option');
  configError(() => new Client({ baseUrl: emu.url, token: '' }), 'token');
  configError(() => new Client({ baseUrl: emu.url, token: 'has space' }), 'token');
  configError(() => new Client({ baseUrl: emu.url }).withToken(''), 'token');
});

test('options are read as the core reads them: getters of a class, inherited members, odd values', () => {
  // The options cross to the core as JSON text (optionsJson in pkg-templates/options.ts): nothing it read before is lost.
  class Settings {
    get baseUrl() { return emu.url; }
    get token() { return DEMO.token; }
    get timeoutMs() { return 1234.5; }
  }
  assert.equal(new Client(new Settings()).baseUrl, emu.url);
  assert.equal(new Client(Object.create({ baseUrl: emu.url })).baseUrl, emu.url);
  assert.equal(new Client({ baseUrl: emu.url, token: null }).baseUrl, emu.url);
  for (const bad of [Number.POSITIVE_INFINITY, -Number.MAX_VALUE, 10n, null, {}, () => 1]) {
    assert.equal(configError(() => new Client({ baseUrl: emu.url, timeoutMs: bad }), 'option').option, 'timeoutMs');
  }
  assert.equal(configError(() => new Client({ baseUrl: emu.url, fetch: null }), 'option').option, 'fetch');
  assert.equal(configError(() => new Client({ baseUrl: emu.url, createInterval: 5 }), 'option').option, 'createInterval');
  // A store, a logger and hooks are the driver's; cyclic ones are fine.
  const store = { get() {}, set() {} };
  store.self = store;
  assert.equal(new Client({ baseUrl: emu.url, intervalStore: store, logger: console, onRequest() {} }).baseUrl, emu.url);
});

test('good options are accepted; baseUrl is normalised', () => {
  const c = new Client({ baseUrl: `${emu.url}/`, token: DEMO.adminToken, timeoutMs: 0, maxRetries: 0, retryDelayMs: 0, userPath: 'user', strictPlatformRules: true, createInterval: { guard: 'wait', intervalMs: 0 } });
  assert.equal(c.baseUrl.replace(/\/$/, ''), emu.url);
  assert.equal(new Client({ baseUrl: 'https://school.example.com/app/' }).baseUrl.replace(/\/$/, ''), 'https://school.example.com/app');
});

test('a custom fetch is used for every call (count calls)', async () => {
  const spy = countingFetch();
  const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken, fetch: spy });
  await c.getMe();
  await c.getCourses({ start: 0, limit: 1 });
  await c.searchCourses('trac');
  assert.equal(spy.calls, 3);
  assert.deepEqual(spy.methods, ['GET', 'GET', 'GET']);
  assert.ok(spy.urls.every((u) => u.startsWith(`${emu.url}/manage/api/`)));
  // withToken keeps the fetch.
  await c.withToken(DEMO.userToken).getMe();
  assert.equal(spy.calls, 4);
  assert.match(spy.urls[3], /token=demo-user-token/);
});

test('the custom fetch gets method, JSON body and an AbortSignal', async () => {
  let seen;
  const c = new Client({
    baseUrl: emu.url, token: DEMO.adminToken,
    fetch: async (url, init) => { seen = { url, init }; return fetch(url, init); },
  });
  const u = (await c.getUsers({ start: 0, limit: 1 })).users[0]._id;
  const cid = (await c.getCourses({ start: 0, limit: 1 })).courses[0]._id;
  await c.addCoursesToUsers({ users: [u], courses: [cid] });
  assert.equal(seen.init.method, 'POST');
  assert.deepEqual(JSON.parse(seen.init.body), { users: [u], courses: [cid] });
  assert.ok(seen.init.signal instanceof AbortSignal);
  assert.match(Object.entries(seen.init.headers).map(([k, v]) => `${k}: ${v}`).join('\n'), /content-type: application\/json/i);
  assert.ok(!/token/.test(seen.init.body), 'the token travels only in the query');
});

test('a body whose texts hold line breaks and quotes is sent whole (a call crosses from the core as lines of text)', async () => {
  let seen;
  const c = new Client({
    baseUrl: emu.url, token: DEMO.adminToken,
    fetch: async (url, init) => { seen = { url, init }; return fetch(url, init); },
  });
  const password = 'line 1\nline 2\r\n"quoted" \\ tab\t\u2028 Mật khẩu';
  await c.login('someone@example.com', password).catch(() => {});
  assert.equal(seen.init.method, 'POST');
  assert.deepEqual(JSON.parse(seen.init.body), { email: 'someone@example.com', password });
  assert.ok(!/[\r\n]/.test(seen.url), seen.url);
});

test('baseUrl with a path prefix, through a real proxy', async () => {
  const before = proxied;
  const c = new Client({ baseUrl: `${proxyUrl}/school/app`, token: DEMO.adminToken });
  const me = await c.getMe();
  assert.equal(me.user.emails[0].address, DEMO.adminEmail);
  const page = await c.getCourses({ start: 0, limit: 2 });
  assert.equal(page.courses.length, 2);
  const login = await new Client({ baseUrl: `${proxyUrl}/school/app/` }).login(DEMO.adminEmail, DEMO.adminPassword);
  assert.equal(typeof login.token, 'string');
  assert.equal(proxied - before, 3);
  // Without the prefix the proxy answers 404 without an envelope: HttpError.
  await rejectsWith(new Client({ baseUrl: proxyUrl, token: DEMO.adminToken, maxRetries: 0 }).getMe(), lpm.HttpError, { status: 404 }, lpm);
});

test('baseUrl with a path prefix, with a custom fetch that strips it', async () => {
  const urls = [];
  const c = new Client({
    baseUrl: 'http://school.example.test/lms',
    token: DEMO.adminToken,
    fetch: (url, init) => { urls.push(url); return fetch(url.replace('http://school.example.test/lms', emu.url), init); },
  });
  await c.getMe();
  assert.match(urls[0], /^http:\/\/school\.example\.test\/lms\/manage\/api\/users\/get-me\?/);
});

test('default options: maxRetries 2, "users" path, guard on', async () => {
  const spy = countingFetch();
  const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken, fetch: spy, retryDelayMs: 5 });
  await emu.fault({ endpoint: 'get-me', kind: 'html500', count: 5 });
  await rejectsWith(c.getMe(), lpm.HttpError, {}, lpm);
  assert.equal(spy.calls, 3, 'one call plus two retries');
  await emu.control('DELETE', 'faults');
  const id = (await c.getUsers({ start: 0, limit: 1 })).users[0]._id;
  await c.getUser(id);
  assert.match(spy.urls.at(-1), /\/users\/get-single-user\//);
  assert.equal(c.nextCreateAllowedAt(), null);
});

test('strictPlatformRules: true refuses platform-rule breaks before sending', async () => {
  const spy = countingFetch();
  const c = new Client({ baseUrl: emu.url, token: DEMO.adminToken, fetch: spy, strictPlatformRules: true });
  const e = await rejectsWith(c.createUsers([{ name: 'Al', username: 'al', email: 'al@example.test', password: '1' }]), lpm.ValidationError, {}, lpm);
  assert.ok(e.issues.some((i) => i.level === 'platform'));
  assert.equal(spy.calls, 0);
});
