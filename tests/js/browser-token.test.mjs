// A token in a browser page (issue 37): a client given one there refuses unless the app says it
// is the signed-in user's own (`ownToken`, the dashboard's case), as openai-node's
// `dangerouslyAllowBrowser`; a page without a token (a public form, `login`) works as before.
// A browser page is a global `window` with a `document`; this suite makes Node look like one.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { lpm, DEMO } from './helpers.mjs';

const { Client, ConfigError } = lpm;
const baseUrl = 'https://school.example.com';

const asBrowserPage = () => {
  globalThis.window = globalThis;
  globalThis.document = {};
};
afterEach(() => {
  delete globalThis.window;
  delete globalThis.document;
});

const refused = (fn) => assert.throws(fn, (e) => {
  assert.ok(e instanceof ConfigError, String(e));
  assert.equal(e.problem, 'option');
  assert.equal(e.option, 'ownToken');
  assert.match(e.message, /option `ownToken` must be true for a token in a browser page/);
  assert.ok(!JSON.stringify(e).includes(DEMO.adminToken) && !e.message.includes(DEMO.adminToken), 'the token is not in the error');
  return true;
});

test('in a browser page a token is refused, in the constructor and in withToken', () => {
  asBrowserPage();
  refused(() => new Client({ baseUrl, token: DEMO.adminToken }));
  const anonymous = new Client({ baseUrl });
  refused(() => anonymous.withToken(DEMO.adminToken));
});

test('ownToken: the signed-in user\'s own token is taken, and so is one from withToken', () => {
  asBrowserPage();
  const c = new Client({ baseUrl, token: DEMO.adminToken, ownToken: true });
  assert.equal(c.baseUrl, baseUrl);
  const anonymous = new Client({ baseUrl, ownToken: true });
  assert.ok(anonymous.withToken(DEMO.adminToken) instanceof Client);
});

test('outside a browser page (Node, a Worker, a Web Worker: no document) a token needs no ownToken', () => {
  assert.ok(new Client({ baseUrl, token: DEMO.adminToken }) instanceof Client);
  globalThis.window = globalThis; // a window without a document is not a page
  assert.ok(new Client({ baseUrl, token: DEMO.adminToken }) instanceof Client);
});

test('ownToken must be a boolean', () => {
  assert.throws(() => new Client({ baseUrl, ownToken: 'yes' }), (e) => e instanceof ConfigError && e.option === 'ownToken');
});
