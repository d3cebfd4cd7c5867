// lpm-client/validate (issue 37): the validators alone over their own wasm answer exactly as the
// package's, in both languages, as Standard Schemas and extended; and the entry holds nothing of
// the client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lpm } from './helpers.mjs';

const alone = await import('../../pkg/validate-node.js');
const pkg = JSON.parse(readFileSync(new URL('../../pkg/package.json', import.meta.url), 'utf8'));

const INPUTS = {
  validateCreateUser: [
    { name: 'An', username: 'an', email: 'an@example', password: '123' },
    { name: 'Nguyễn Thị Hoa', username: 'hoa2026', email: 'hoa@example.vn', password: 'matkhau123', phone: '0912 345 678' },
    { name: 'x', username: 'ả b', email: 'a@b.c', password: 'p'.repeat(40), confirm: 'x' },
    null,
    'text',
  ],
  validateCreateUsers: [[{ name: 'An', username: 'an', email: 'a@x.vn', password: 'secret1' }, { name: 'An', username: 'an', email: 'a@x.vn', password: 'secret1' }], [], 'x'],
  validateGetUsers: [{ start: -1, limit: 500 }, { start: 0, limit: 100 }, {}],
  validateGetCourses: [{ limit: 0 }, { start: 1.5 }],
  validateSearchUser: [{}, { email: 'a@b.vn' }],
  validateSearchCourses: ['', 'Vật lý', 3],
  validateId: ['..', 'Xq3kPz9LmN2bVc7Rt', ''],
  validateAddCourses: [{ users: [], courses: ['c'] }, { users: ['a', 'a'], courses: ['c'] }],
  validateLogin: [{ email: '', password: '' }, { email: 'a@b.vn', password: 'x' }],
};

test('every validator answers as the package\'s, in English and Vietnamese, strict or not', () => {
  let compared = 0;
  for (const [name, inputs] of Object.entries(INPUTS)) {
    assert.equal(typeof alone[name], 'function', name);
    for (const input of inputs) {
      for (const options of [undefined, { lang: 'vi' }, { lang: 'en', platformRules: false }]) {
        assert.deepEqual(alone[name](input, options), lpm[name](input, options), `${name}(${JSON.stringify(input)}, ${JSON.stringify(options)})`);
        compared += 1;
      }
    }
  }
  assert.ok(compared > 60);
});

test('Standard Schema, withOptions and extend, as the package\'s', async () => {
  const form = { name: 'An', username: 'an', email: 'an@example.vn', password: 'matkhau123', confirmPassword: 'other' };
  const make = (v) => v.withOptions({ lang: 'vi', platformRules: true }).extend({
    confirmPassword: (value, f, lang) => (value === f.password ? undefined : `${lang}: differ`),
  });
  const [a, b] = [make(alone.validateCreateUser), make(lpm.validateCreateUser)];
  assert.deepEqual(a(form), b(form));
  assert.deepEqual(await a['~standard'].validate(form), await b['~standard'].validate(form));
  assert.ok(a(form).some((i) => i.code === 'form' && i.message === 'vi: differ'));
  const good = { ...form, name: 'Nguyễn An', username: 'nguyenan', confirmPassword: form.password };
  assert.deepEqual(await a['~standard'].validate(good), { value: good });
});

test('the entry holds the validators and nothing of the client; package.json maps it for every runtime', () => {
  for (const name of ['Client', 'ready', 'mapColumns', 'ApiError', 'fileStore']) assert.equal(alone[name], undefined, name);
  assert.deepEqual(Object.keys(pkg.exports['./validate']), ['types', 'workerd', 'node', 'default']);
  const wasm = readFileSync(new URL('../../pkg/wasm/lpm_validate_bg.wasm', import.meta.url));
  const exports = WebAssembly.Module.exports(new WebAssembly.Module(wasm)).map((e) => e.name);
  // Its own exports (past the memory and wasm-bindgen's and the runtime's `__` ones) are the
  // validators': any other drags the client's code into this wasm.
  assert.deepEqual(exports.filter((name) => name !== 'memory' && !name.startsWith('__')), ['validate']);
});
