// Issue 27, item 4: CSV formula injection. A hostile sheet's cells that a spreadsheet would run
// (= + - @, a tab, a CR at the start) come back inert in every CSV lpm writes (the report, the
// export: a leading '), as they were in .xlsx (inline strings, never a formula), and unchanged
// in JSON lines. Before the fix, the report and the export wrote them as they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { readTable } from 'lpm-sheets';
import { emulatorForTests, lpm, tempDir } from './helpers.mjs';

const ctx = emulatorForTests(['--seed', 'empty', '--create-interval-secs', '0']);
const HOSTILE = ['=HYPERLINK("http://x.test","go")', '+cmd|\' /C calc\'!A0', '-2+3+cmd|\' /C calc\'!A0', '@SUM(1+1)*cmd|\' /C calc\'!A0'];

test('report and export: formula-like cells neutralised in CSV, text in .xlsx, as received in JSON lines', async () => {
  const dir = tempDir();
  const stamp = Date.now().toString(36);
  const file = path.join(dir, 'hostile.csv');
  const rows = HOSTILE.map((name, i) => [`"${name.replaceAll('"', '""')}"`, `h${stamp}${i}`, `h${i}.${stamp}@school.test`, 'mat-khau-1', i === 0 ? '+84901000001' : '']);
  writeFileSync(file, `Name,Username,Email,Password,Phone\n${rows.map((r) => r.join(',')).join('\n')}\n`);
  const r = await lpm(['import', file, '--journal', path.join(dir, 'j'), '--interval-ms', '0'], { env: ctx.env });
  assert.equal(r.code, 0, r.stdout + r.stderr);

  const report = readFileSync(path.join(dir, 'hostile.report.csv'), 'utf8');
  const csvOut = path.join(dir, 'users.csv');
  assert.equal((await lpm(['export', 'users', '--out', csvOut], { env: ctx.env })).code, 0);
  const exported = parse(readFileSync(csvOut), { bom: true, columns: true });
  const mine = (username) => username.startsWith(`h${stamp}`);
  assert.deepEqual(exported.filter((u) => mine(u.username)).map((u) => u['profile.name']).sort(), HOSTILE.map((name) => `'${name}`).sort());
  // A plain number stays a number (a spreadsheet never runs it).
  assert.ok(exported.some((u) => u['profile.phone'] === '+84901000001'));
  assert.doesNotMatch(report, /(^|,)"?[=+\-@]/m, 'a formula-like cell in the report');

  const xlsxOut = path.join(dir, 'users.xlsx');
  assert.equal((await lpm(['export', 'users', '--format', 'xlsx', '--out', xlsxOut], { env: ctx.env })).code, 0);
  const table = await readTable(readFileSync(xlsxOut));
  const [col, user] = ['profile.name', 'username'].map((k) => table.records[0].cells.indexOf(k));
  assert.deepEqual(table.records.slice(1).filter((x) => mine(x.cells[user])).map((x) => x.cells[col]).sort(), [...HOSTILE].sort());
  assert.doesNotMatch(readFileSync(xlsxOut).toString('latin1'), /<f>/);

  const jsonl = path.join(dir, 'users.jsonl');
  assert.equal((await lpm(['export', 'users', '--format', 'jsonl', '--out', jsonl], { env: ctx.env })).code, 0);
  const names = readFileSync(jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((u) => mine(u.username)).map((u) => u.profile.name);
  assert.deepEqual(names.sort(), [...HOSTILE].sort());
});
