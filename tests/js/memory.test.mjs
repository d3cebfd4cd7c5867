// The wasm's allocator (talc) keeps a long-lived client's
// memory bounded: after a first round of work, the same work again and again grows it no more.
// Own file: it reads this process's wasm memory.
// (First: it sees the glue's FinalizationRegistry as the package creates it.)
import { live } from './live-objects.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import start from '../../pkg/lib.js';
import { lpm, fakeResponse } from './helpers.mjs';

const fixture = (p) => readFileSync(new URL(`../fixtures/${p}`, import.meta.url), 'utf8');
const courses = fixture('get-multi-course/success.json');
const users = fixture('get-multi-user/success.json');

const rows = (n, bad) => Array.from({ length: n }, (_, i) => ({
  name: `Row ${i}`, username: bad && i % 7 === 0 ? 'bad name!' : `row${i}`,
  email: `row${i}@example.test`, password: 'secret-123',
}));

test('a client doing the same work again and again does not grow the wasm memory', async () => {
  const client = new lpm.Client({
    baseUrl: 'http://127.0.0.1:9', token: 'memory-test-token-0123456789',
    fetch: async (url) => fakeResponse(200, url.includes('course') ? courses : users),
  });
  const round = async () => {
    assert.ok((await client.getCourses()).courses.length > 0);
    assert.ok((await client.getUsers({ limit: 50 })).users.length > 0);
    assert.equal(lpm.validateCreateUsers(rows(100, false)).length, 0);
    assert.ok(lpm.validateCreateUsers(rows(100, true), { lang: 'vi' }).length > 0);
    await assert.rejects(client.getUsers({ limit: 500 }), lpm.ValidationError);
    await assert.rejects(client.getUser('u1'), lpm.DecodeError); // a page where one account goes
  };
  const { memory } = start.exports;
  for (let i = 0; i < 20; i += 1) await round();
  const after = memory.buffer.byteLength;
  for (let i = 0; i < 300; i += 1) await round();
  assert.equal(memory.buffer.byteLength, after, 'the memory grew under a repeated workload');
});

test('calls that fail, are aborted, time out or are refused free their wasm side too', async () => {
  // Every way a call can end: a network failure, an abort (before and during the fetch), a
  // timeout, a refused create (the interval guard), a ValidationError at planning, a DecodeError,
  // and a success. Frees are explicit (the glue's FinalizationRegistry is a fallback): a leak
  // would show as a growing memory, and as an object still registered after the call.
  let hang;
  const client = new lpm.Client({
    baseUrl: 'http://127.0.0.1:9', token: 'memory-test-token-0123456789', maxRetries: 0,
    fetch: async (url, init) => {
      if (url.includes('search-user')) throw new TypeError('fetch failed');
      if (url.includes('get-me')) return new Promise((_, reject) => { hang = () => reject(init.signal.reason); init.signal.addEventListener('abort', hang); });
      if (url.includes('create-multi-user')) return fakeResponse(200, '{"respCode":"00","msg":"Success","users":[]}');
      return fakeResponse(200, url.includes('course') ? courses : users);
    },
  });
  const round = async () => {
    await assert.rejects(client.searchUser({ email: 'a@example.test' }), lpm.NetworkError);
    const ctrl = new AbortController();
    const during = client.getMe({ signal: ctrl.signal });
    setTimeout(() => ctrl.abort(new Error('stop')), 0);
    await assert.rejects(during, lpm.AbortError);
    await assert.rejects(client.getMe({ signal: AbortSignal.abort() }), lpm.AbortError);
    await assert.rejects(client.getMe({ timeoutMs: 1 }), lpm.TimeoutError);
    await assert.rejects(client.createUsers(item), lpm.IntervalError);
    await assert.rejects(client.getUsers({ limit: 500 }), lpm.ValidationError);
    await assert.rejects(client.getUser('u1'), lpm.DecodeError);
    assert.ok((await client.getCourses()).courses.length > 0);
  };
  const item = [{ name: 'x', username: 'x', email: 'x@example.test', password: 'secret-123' }];
  // The first create is sent (its answer does not matter here); every later one is refused.
  await client.createUsers(item).catch(() => {});
  const { memory } = start.exports;
  for (let i = 0; i < 10; i += 1) await round();
  const after = memory.buffer.byteLength;
  const objects = live();
  for (let i = 0; i < 150; i += 1) await round();
  assert.equal(memory.buffer.byteLength, after, 'the memory grew under a repeated workload of failing calls');
  assert.equal(live(), objects, 'every call freed its wasm objects');
});
