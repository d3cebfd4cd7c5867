// Headless Chromium smoke test: the built package (pkg/, browser entry index.js) served by one
// emulator (--static) so page and API share an origin, plus a second emulator on another port to
// prove the API works cross-origin (CORS). Prints one line per check and "N passed, 0 failed".
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startEmulator, DEMO } from '../js/emulator.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const site = mkdtempSync(path.join(tmpdir(), 'lpm-browser-site-'));
const profile = mkdtempSync(path.join(tmpdir(), 'lpm-browser-profile-'));
cpSync(path.join(root, 'pkg'), path.join(site, 'pkg'), { recursive: true });
copyFileSync(path.join(here, 'page.mjs'), path.join(site, 'page.mjs'));
writeFileSync(path.join(site, 'index.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>lpm-client smoke test</title></head>
<body><h1>lpm-client in Chromium</h1><p id="status">running…</p><ol id="out"></ol>
<script type="module" src="./page.mjs"></script></body></html>
`);
// A blank page of the same origin: a fresh realm that shares localStorage (a reload, another tab).
writeFileSync(path.join(site, 'blank.html'), '<!doctype html><title>blank</title>');

let passed = 0;
let failed = 0;
function check(name, fn) {
  try { fn(); passed += 1; console.log(`ok   ${name}`); } catch (e) { failed += 1; console.log(`FAIL ${name}: ${e.message.split('\n')[0]}`); }
}

const home = await startEmulator(['--static', site]);
const other = await startEmulator();

let context;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_BIN || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] || await context.newPage();
  const consoleLines = [];
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => consoleLines.push(`pageerror: ${e.message}`));
  const q = new URLSearchParams({ cross: other.url, email: DEMO.adminEmail, password: DEMO.adminPassword });
  await page.goto(`${home.url}/index.html?${q}`);
  await page.waitForFunction(() => window.__results !== undefined, null, { timeout: 30_000 });
  const r = await page.evaluate(() => window.__results);
  const shot = path.join(tmpdir(), 'lpm-browser-smoke.png');
  await page.screenshot({ path: shot, fullPage: true });
  console.log(`screenshot: ${shot}`);
  if (r.fatal) console.log(`page failed: ${r.fatal.message}\n${r.fatal.stack}\n${consoleLines.join('\n')}`);

  const homeState = await home.control('GET', 'state');
  for (const [prefix, label, state] of [['', 'same origin', homeState], ['cross.', 'cross origin', await other.control('GET', 'state')]]) {
    check(`${label}: login gives a token and its expiry`, () => {
      assert.equal(r[`${prefix}login`].tokenType, 'string');
      assert.ok(r[`${prefix}login`].tokenLength > 0);
      assert.ok(Number.isFinite(Date.parse(r[`${prefix}login`].tokenExpires)));
    });
    check(`${label}: getCourses returns a page`, () => {
      assert.equal(r[`${prefix}getCourses`].count, 5);
      assert.equal(r[`${prefix}getCourses`].msg, 'Success');
    });
    check(`${label}: searchCourses "trac nghiem" finds "Trắc nghiệm"`, () => {
      const t = r[`${prefix}searchCourses`].titles;
      assert.ok(t.length > 0 && t.every((x) => /Trắc nghiệm/i.test(x)));
    });
    check(`${label}: getUser`, () => assert.equal(r[`${prefix}getUser`].sameId, true));
    check(`${label}: createUsers with an invalid row rejects with ValidationError and issues`, () => {
      const e = r[`${prefix}createUsersInvalid`];
      assert.equal(e.isValidation, true);
      assert.equal(e.isLpm, true);
      assert.equal(e.name, 'ValidationError');
      assert.ok(e.issues.some((i) => JSON.stringify(i.path) === '[1,"email"]' && i.code === 'required'));
    });
    check(`${label}: createUsers creates a good account`, () => {
      assert.equal(r[`${prefix}createUsers`].created, 1);
      assert.equal(r[`${prefix}createUsers`].status, 'Success created');
    });
    check(`${label}: ApiError is instanceof in the browser`, () => {
      const e = r[`${prefix}apiError`];
      assert.equal(e.isApi, true);
      assert.equal(e.isLpm, true);
      assert.equal(e.code, '03');
      assert.equal(e.category, 'notFound');
      assert.equal(e.status, 400);
      assert.equal(e.endpoint, 'get-single-user');
    });
    check(`${label}: allCourses iterates every course once`, () => {
      assert.equal(r[`${prefix}allCourses`].count, state.courses);
      assert.equal(r[`${prefix}allCourses`].unique, state.courses);
    });
  }
  check('validators in the browser (Vietnamese messages, Standard Schema)', () => {
    assert.equal(r.validators.standard, 'lpm-client');
    assert.ok(r.validators.issues.some((i) => i.message === 'Bắt buộc nhập email'));
  });
  check('the page finished without a fatal error', () => assert.equal(r.done, true));
  check('the same-origin emulator saw the creates', () => assert.equal(homeState.createCalls, 1));

  // The create-interval guard kept in localStorage holds across a reload and in a second tab.
  const createOnce = (p, tag) => p.evaluate(async ({ token, tag }) => {
    const lpm = await import('/pkg/index.js');
    const c = new lpm.Client({
      baseUrl: `${location.origin}/store`, token, ownToken: true, intervalStore: lpm.webStorageStore(localStorage),
      fetch: (u, i) => fetch(u.replace('/store/manage/', '/manage/'), i),
    });
    try {
      const r = await c.createUsers([{ name: 'Store Test', username: `store${tag}`, email: `store${tag}@example.test`, password: 'secret-123' }]);
      return `created ${r.created}`;
    } catch (e) {
      return e.name;
    }
  }, { token: DEMO.adminToken, tag });
  await page.goto(`${home.url}/blank.html`);
  const first = await createOnce(page, 'a');
  await page.reload();
  const afterReload = await createOnce(page, 'b');
  const tab = await context.newPage();
  await tab.goto(`${home.url}/blank.html`);
  const otherTab = await createOnce(tab, 'c');
  check('webStorageStore(localStorage): the interval holds across a reload and in another tab', () => {
    assert.deepEqual([first, afterReload, otherTab], ['created 1', 'IntervalError', 'IntervalError']);
  });

  // lpm-client/lazy: its import resolves while the wasm is still on its way (held back here), a
  // client made then works (its call waits for the wasm), a synchronous use before ready() says
  // so, a Standard Schema validation waits for it, and after it the client works. (Routing a page turns its HTTP cache off: the wasm is fetched again.)
  const lazyPage = await context.newPage();
  let release;
  const held = new Promise((r) => { release = r; });
  await lazyPage.route('**/pkg/wasm/lpm_client_bg.wasm', async (route) => { await held; await route.continue(); });
  await lazyPage.goto(`${home.url}/blank.html`);
  const imported = lazyPage.evaluate(async ({ token }) => {
    const lpm = await import('/pkg/lazy.js');
    window.lpmLazy = lpm;
    let before;
    try { lpm.validateId('x'); before = 'no error'; } catch (e) { before = `${e.name} ${e.problem}`; }
    window.schemaAnswer = lpm.validateCreateUser['~standard'].validate({ name: 'An' });
    // A client made at once, as a module's top level makes it: its call waits for the wasm.
    const early = new lpm.Client({ baseUrl: location.origin, token, ownToken: true });
    window.earlyCall = early.getCourses({ start: 0, limit: 1 }).then((r) => r.courses.length, (e) => `${e.name} ${e.problem}`);
    let baseUrl;
    try { baseUrl = early.baseUrl; } catch (e) { baseUrl = `${e.name} ${e.problem}`; }
    return { before, waits: window.schemaAnswer instanceof Promise, baseUrl, loaded: await Promise.race([window.earlyCall.then(() => true), new Promise((r) => setTimeout(() => r(false), 0))]) };
  }, { token: DEMO.adminToken });
  const early = await imported;
  release();
  const lazy = await lazyPage.evaluate(async ({ token }) => {
    const lpm = window.lpmLazy;
    await lpm.ready();
    const schema = await window.schemaAnswer;
    const c = new lpm.Client({ baseUrl: location.origin, token, ownToken: true });
    const { courses } = await c.getCourses({ start: 0, limit: 1 });
    return { schemaIssues: schema.issues ? schema.issues.length : 0, courses: courses.length, early: await window.earlyCall };
  }, { token: DEMO.adminToken });
  check('lpm-client/lazy: imported before its wasm, a client made then works, ready() then, a schema waits, a use before says so', () => {
    assert.deepEqual(early, { before: 'ConfigError notLoaded', waits: true, baseUrl: 'ConfigError notLoaded', loaded: false });
    assert.equal(lazy.early, 1, 'the call of the client made before the wasm, answered once it came');
    assert.ok(lazy.schemaIssues > 0, 'the waiting validation found the missing fields');
    assert.equal(lazy.courses, 1);
  });
} catch (e) {
  failed += 1;
  console.log(`FAIL harness: ${e.message}`);
} finally {
  await context?.close().catch(() => {});

  await home.stop();
  await other.stop();
  rmSync(site, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
