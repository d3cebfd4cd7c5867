// Validation without a client: the validators, their options, and each one as a Standard Schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lpm } from './helpers.mjs';

const good = { name: 'Alice Nguyen', username: 'alice01', email: 'alice01@example.test', password: 'secret-123' };
const pathsCodes = (issues) => issues.map((i) => [JSON.stringify(i.path), i.code]);
const has = (issues, path, code) => assert.ok(
  issues.some((i) => JSON.stringify(i.path) === JSON.stringify(path) && i.code === code),
  `expected ${JSON.stringify(path)} ${code} in ${JSON.stringify(pathsCodes(issues))}`,
);

test('validateCreateUsers: a good batch has no issues', () => {
  assert.deepEqual(lpm.validateCreateUsers([good, { ...good, username: 'bob02', email: 'bob02@example.test', phone: '0901234567', gender: 'Nữ' }]), []);
});

test('validateCreateUsers: paths name the row and the field', () => {
  const rows = [good, { ...good, username: 'b2', email: 'b2@example.test' }, good,
    { name: 'Carl Carlsen', username: 'carl03', email: 'not-an-email', password: 'secret-123' },
    { name: 'Dan Danson', username: 'dan04', password: 'secret-123' }];
  const issues = lpm.validateCreateUsers(rows);
  has(issues, [1, 'username'], 'too_short');
  has(issues, [2, 'email'], 'duplicate_email');
  has(issues, [2, 'username'], 'duplicate_username');
  has(issues, [3, 'email'], 'invalid_email');
  has(issues, [4, 'email'], 'required');
  for (const i of issues) {
    assert.ok(['contract', 'platform'].includes(i.level));
    assert.equal(typeof i.message, 'string');
    assert.ok(i.message.length > 0);
  }
  assert.equal(issues.find((i) => i.code === 'required').level, 'contract');
  assert.equal(issues.find((i) => i.code === 'too_short').level, 'platform');
});

test('validateCreateUsers: whole-input findings have an empty path', () => {
  has(lpm.validateCreateUsers([]), [], 'empty');
  has(lpm.validateCreateUsers('nope'), [], 'not_array');
  const many = Array.from({ length: 101 }, (_, i) => ({ ...good, username: `user${i}x`, email: `u${i}@example.test` }));
  has(lpm.validateCreateUsers(many), [], 'too_many');
  assert.deepEqual(lpm.validateCreateUsers(many.slice(0, 100)), []);
});

test('messages in English and Vietnamese ({lang: "vi"}); never echo the value', () => {
  const row = [{ name: 'Bob Bobson', username: 'bob05', password: 'secret-123' }];
  const en = lpm.validateCreateUsers(row);
  const vi = lpm.validateCreateUsers(row, { lang: 'vi' });
  assert.equal(en[0].message, 'Email is required');
  assert.equal(vi[0].message, 'Bắt buộc nhập email');
  assert.deepEqual(vi.map((i) => [i.path, i.code]), en.map((i) => [i.path, i.code]));
  const secretish = lpm.validateCreateUser({ ...good, email: 'SECRET-VALUE-not-an-email' });
  assert.ok(secretish.length > 0);
  assert.ok(!secretish.some((i) => i.message.includes('SECRET-VALUE')));
  const viLogin = lpm.validateLogin({ email: '', password: '' }, { lang: 'vi' });
  assert.deepEqual(viLogin.map((i) => i.message), ['Bắt buộc nhập email', 'Bắt buộc nhập mật khẩu']);
});

test('platformRules: false keeps only the contract findings', () => {
  const weak = { name: 'Al', username: 'a b', email: 'al@example.test', password: '123' };
  const strict = lpm.validateCreateUser(weak);
  has(strict, ['name'], 'too_short');
  has(strict, ['username'], 'invalid_chars');
  has(strict, ['password'], 'too_short');
  assert.ok(strict.every((i) => i.level === 'platform'));
  assert.deepEqual(lpm.validateCreateUser(weak, { platformRules: false }), []);
  has(lpm.validateCreateUser({ name: 'Al' }, { platformRules: false }), ['username'], 'required');
});

test('validateCreateUser: paths start with the field', () => {
  const issues = lpm.validateCreateUser({ name: 'Alice A' });
  assert.deepEqual(pathsCodes(issues), [['["username"]', 'required'], ['["email"]', 'required'], ['["password"]', 'required']]);
  assert.deepEqual(lpm.validateCreateUser(good), []);
  const notObject = lpm.validateCreateUser(null);
  assert.ok(notObject.length > 0, 'null is refused');
});

test('the other validators', () => {
  assert.deepEqual(lpm.validateGetUsers({ start: 0, limit: 100 }), []);
  has(lpm.validateGetUsers({ start: 0, limit: 0 }), ['limit'], 'too_small');
  has(lpm.validateGetUsers({ start: 0, limit: 101 }), ['limit'], 'too_large');
  assert.deepEqual(lpm.validateGetCourses({ start: 0, limit: 0 }), [], 'courses allow limit 0');
  has(lpm.validateGetCourses({ start: -1, limit: 1 }), ['start'], 'too_small');
  assert.deepEqual(lpm.validateSearchUser({ email: 'a@example.test' }), []);
  assert.deepEqual(lpm.validateSearchUser({ username: 'abc' }), []);
  has(lpm.validateSearchUser({}), [], 'email_or_username_required');
  assert.deepEqual(lpm.validateSearchCourses('trac nghiem'), []);
  has(lpm.validateSearchCourses(''), ['title'], 'required');
  assert.deepEqual(lpm.validateId('fqLMaWn7RqHABmMhr'), []);
  has(lpm.validateId(''), [], 'required');
  assert.deepEqual(lpm.validateAddCourses({ users: ['a1'], courses: ['c1'] }), []);
  has(lpm.validateAddCourses({ users: [], courses: ['c1'] }), ['users'], 'empty');
  assert.ok(lpm.validateAddCourses({ users: Array.from({ length: 101 }, (_, i) => `u${i}`), courses: ['c'] }).length > 0, 'more than 100 accounts');
  assert.ok(lpm.validateAddCourses({ users: ['a'], courses: [] }).length > 0, 'no course');
  assert.deepEqual(lpm.validateLogin({ email: 'a@example.test', password: 'pw-1234' }), []);
  has(lpm.validateLogin({ email: '', password: 'x' }), ['email'], 'required');
});

test('values that cannot be JSON are an issue, not a throw', () => {
  const cyc = {}; cyc.self = cyc;
  has(lpm.validateCreateUser(cyc), [], 'not_json');
  has(lpm.validateCreateUsers([1n]), [], 'not_json');
});

test('Standard Schema: vendor, version 1, {value} or {issues}', () => {
  const validators = ['validateCreateUsers', 'validateCreateUser', 'validateGetUsers', 'validateGetCourses',
    'validateSearchUser', 'validateSearchCourses', 'validateId', 'validateAddCourses', 'validateLogin'];
  for (const name of validators) {
    const std = lpm[name]['~standard'];
    assert.equal(std.version, 1, name);
    assert.equal(std.vendor, 'lpm-client', name);
    assert.equal(typeof std.validate, 'function', name);
    assert.equal(typeof lpm[name].withOptions, 'function', name);
  }
  const s = lpm.validateCreateUser['~standard'];
  const ok = s.validate(good);
  assert.deepEqual(ok, { value: good });
  assert.equal(ok.issues, undefined);
  const bad = s.validate({ name: 'Alice A' });
  assert.ok(!('value' in bad));
  assert.equal(bad.issues.length, 3);
  for (const i of bad.issues) {
    assert.equal(typeof i.message, 'string');
    assert.ok(Array.isArray(i.path));
    for (const seg of i.path) assert.ok(typeof seg === 'string' || typeof seg === 'number');
  }
  const batch = lpm.validateCreateUsers['~standard'].validate([good, { ...good }]);
  has(batch.issues, [1, 'email'], 'duplicate_email');
  assert.deepEqual(lpm.validateGetCourses['~standard'].validate({ start: 0, limit: 0 }), { value: { start: 0, limit: 0 } });
  assert.ok(lpm.validateSearchCourses['~standard'].validate('').issues.length > 0);
});

test('withOptions({lang: "vi", platformRules: false}) for the schema and the call', () => {
  const v = lpm.validateCreateUser.withOptions({ lang: 'vi', platformRules: false });
  const weak = { name: 'Al', username: 'a b', email: 'al@example.test', password: '1' };
  assert.deepEqual(v['~standard'].validate(weak), { value: weak });
  assert.deepEqual(v(weak), []);
  const r = v['~standard'].validate({ name: 'Al' });
  assert.deepEqual(r.issues.map((i) => i.message), ['Bắt buộc nhập tên đăng nhập', 'Bắt buộc nhập email', 'Bắt buộc nhập mật khẩu']);
  assert.equal(v['~standard'].vendor, 'lpm-client');
  // Options merge; the original is unchanged.
  const viOnly = lpm.validateCreateUser.withOptions({ lang: 'vi' });
  const both = viOnly.withOptions({ platformRules: false });
  assert.deepEqual(both(weak), []);
  assert.ok(viOnly(weak).length > 0);
  assert.ok(lpm.validateCreateUser(weak).every((i) => /[a-z]/i.test(i.message)));
  assert.equal(lpm.validateCreateUser({ name: 'Alice A' })[0].message, 'Username is required');
});
