// `--generate-passwords`: rows without a password get a random one meeting the platform's rules,
// written (mode 0600) to the credentials sheet with a warning, before anything is sent; the
// accounts are created with them (a login proves it); no password is in the journal, the report
// or the output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readTable, randomPassword, PASSWORD_LENGTH } from 'lpm-sheets';
import { validateCreateUser } from '../src/lpm.js';
import { emulatorForTests, lpm, sheet, tempDir } from './helpers.mjs';

const ctx = emulatorForTests(['--create-interval-secs', '0']);

test('randomPassword: the platform\'s rules, letters and digits only, never twice', () => {
  const seen = new Set();
  for (let i = 0; i < 2000; i++) {
    const p = randomPassword();
    assert.equal(p.length, PASSWORD_LENGTH);
    assert.match(p, /^[a-zA-Z2-9]+$/);
    assert.doesNotMatch(p, /[0O1lI]/);
    assert.deepEqual(validateCreateUser({ name: 'Học Viên', username: 'hocvien', email: 'a@b.co', password: p }, { strictPlatformRules: true }), []);
    seen.add(p);
  }
  assert.equal(seen.size, 2000);
});

test('import --generate-passwords: a credentials sheet, a warning, logins that work, no password anywhere else', async () => {
  const dir = tempDir();
  const stamp = Date.now().toString(36);
  const file = path.join(dir, 'moi.csv');
  writeFileSync(file, sheet(['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu'], [
    ['Học Viên Một', `mot${stamp}`, `mot.${stamp}@school.test`, ''],
    ['Học Viên Hai', `hai${stamp}`, `hai.${stamp}@school.test`, 'da-co-mat-khau'],
    ['Học Viên Ba', `ba${stamp}`, `ba.${stamp}@school.test`, ''],
  ]));
  const journal = path.join(dir, 'moi.journal');
  const r = await lpm(['import', file, '--journal', journal, '--interval-ms', '0', '--generate-passwords'], { env: ctx.env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const creds = path.join(dir, 'moi.credentials.xlsx');
  assert.match(r.stderr, new RegExp(`WARNING: 2 passwords generated and written to ${creds.replace(/[.]/g, '\\.')} \\(mode 0600\\)\\. Anyone who reads it can sign in`));
  assert.equal(statSync(creds).mode & 0o777, 0o600);
  const { records } = await readTable(readFileSync(creds));
  assert.deepEqual(records[0].cells, ['line', 'name', 'username', 'email', 'password']);
  assert.deepEqual(records.slice(1).map((x) => x.cells.slice(0, 4)), [['2', 'Học Viên Một', `mot${stamp}`, `mot.${stamp}@school.test`], ['4', 'Học Viên Ba', `ba${stamp}`, `ba.${stamp}@school.test`]]);
  const passwords = records.slice(1).map((x) => x.cells[4]);
  // Each account signs in with its password from the sheet.
  for (const [k, p] of passwords.entries()) {
    const email = records[k + 1].cells[3];
    const res = await fetch(`${ctx.emu.url}/manage/api/users/login-user`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: p }) });
    assert.equal((await res.json()).respCode, '00', email);
  }
  const elsewhere = [r.stdout, r.stderr, readFileSync(journal, 'utf8'), readFileSync(path.join(dir, 'moi.report.csv'), 'utf8')].join('\n');
  for (const p of passwords) assert.ok(!elsewhere.includes(p), 'a generated password outside the credentials sheet');
});
