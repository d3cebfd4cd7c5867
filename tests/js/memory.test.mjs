// The wasm's allocator (wasm-alloc/: size classes, each a free list) keeps a long-lived client's
// memory bounded: after a first round of work, the same work again and again grows it no more.
// Own file: it reads this process's wasm memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initSync } from '../../pkg/abi.js';
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
  const { memory } = initSync({ module: new Uint8Array() });
  for (let i = 0; i < 20; i += 1) await round();
  const after = memory.buffer.byteLength;
  for (let i = 0; i < 300; i += 1) await round();
  assert.equal(memory.buffer.byteLength, after, 'the memory grew under a repeated workload');
});
