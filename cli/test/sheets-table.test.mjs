// The shared table of sheets (tests/sheets/table.mjs; the dashboard's tests read it too) through
// the command line: readSheet gives each case's rows with their lines, and `lpm validate` lists
// the same rows (a problem row by its line) or refuses the file with the case's message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readSheet } from '../src/sheet.js';
import { count } from '../src/exit.js';
import { TOKEN, emulator, lpm, tempDir } from './helpers.mjs';
import { readTable } from 'lpm-sheets';
import { sheetCases, workbook } from '../../tests/sheets/table.mjs';

const dir = tempDir();
const cases = await sheetCases();

/** What the English message of each error code says, whatever its parameters. */
const SAYS = {
  notXlsx: /not an \.xlsx workbook \(.+\): save it from Excel as "Excel Workbook \(\.xlsx\)" or "CSV UTF-8"/,
  encrypted: /the workbook is protected by a password: open it in Excel, remove the password/,
  legacyXls: /an Excel 2\.x-4\.0 worksheet \(\.xls, from before 1995\) is not read/,
  notUtf8: /not UTF-8 text: in Excel, save it as "CSV UTF-8/,
  empty: /the sheet is empty/,
  badQuote: /not readable as CSV \(line 2\): a quoted cell opened on line 2 is never closed/,
  missing: /no column for password \(the header line is: /,
  twice: /columns "Name" and "Họ tên" both stand for name/,
};
const lead = (code) => SAYS[code];

for (const c of cases) {
  const file = path.join(dir, c.file);
  writeFileSync(file, c.bytes);
  test(`sheets table, readSheet: ${c.name}`, async () => {
    if (c.error) {
      await assert.rejects(readSheet(file), (e) => {
        assert.equal(e.code, 2);
        assert.equal(e.sheetCode, c.error);
        assert.match(e.message, lead(c.error));
        return true;
      });
      return;
    }
    const sheet = await readSheet(file);
    assert.deepEqual(sheet.rows.map((r) => (r.problem ? { line: r.line, problem: r.problem.code } : { line: r.line, user: r.user })), c.rows);
  });
  test(`sheets table, lpm validate: ${c.name}`, async () => {
    const r = await lpm(['validate', file]);
    if (c.error) {
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, lead(c.error));
      return;
    }
    const bad = c.rows.filter((row) => row.problem);
    assert.equal(r.code, bad.length ? 1 : 0, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`: ${count(c.rows.length, 'row')}, `));
    c.rows.forEach((row, i) => {
      if (row.problem) assert.match(r.stdout, new RegExp(`^row ${i + 1} \\(line ${row.line}\\): `, 'm'));
    });
    assert.match(r.stdout, new RegExp(`^${count(c.rows.length - bad.length, 'row')} ready, ${bad.length} set aside`, 'm'));
  });
}

test('import --failed FILE.xlsx: the rows not created, with the sheet\'s own columns and cells as text', async () => {
  const emu = await emulator(['--seed', 'empty', '--create-interval-secs', '0']);
  try {
    const d = tempDir();
    const src = path.join(d, 'lop.xlsx');
    const stamp = Date.now().toString(36);
    writeFileSync(src, await workbook([{ rows: [
      ['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu', 'Số điện thoại', 'Ghi chú'],
      ['Nguyễn Lan', `lan${stamp}`, `lan.${stamp}@school.test`, 'mat-khau-1', { n: 901000001, fmt: '0000000000' }, 'ok'],
      ['=1+2', `bad${stamp}`, `bad.${stamp}@school.test`, '', { n: 902000002, fmt: '0000000000' }, 'thiếu mật khẩu'],
    ] }]));
    const failed = path.join(d, 'failed.xlsx');
    const r = await lpm(['import', src, '--journal', path.join(d, 'j'), '--interval-ms', '0', '--failed', failed], { env: { LPM_BASE_URL: emu.url, LPM_TOKEN: TOKEN } });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^1 row not created: /m);
    const table = await readTable(readFileSync(failed));
    assert.deepEqual(table.records.map((x) => x.cells.slice(0, 7)), [
      ['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu', 'Số điện thoại', 'Ghi chú', 'result'],
      ['=1+2', `bad${stamp}`, `bad.${stamp}@school.test`, '', '0902000002', 'thiếu mật khẩu', 'setAside'],
    ]);
  } finally {
    await emu.stop();
  }
});

// Every reason a file is not a workbook, and every kind of "too large", as the reader words it:
// the Vietnamese carries no English detail (the dashboard shows it as is), and neither language
// shows a reason's code. The reasons are read from the declared type, so a reason added there
// without its words fails here.
test('sheets: every refusal is worded in both languages, the Vietnamese without English', async () => {
  const { SheetError } = await import('lpm-sheets');
  const declared = readFileSync(new URL('../../sheets/index.d.ts', import.meta.url), 'utf8');
  const reasons = [.../type NotXlsxReason = ([^;]+);/.exec(declared)[1].matchAll(/'(\w+)'/g)].map((m) => m[1]);
  assert.ok(reasons.length >= 12, reasons.join(' '));
  const english = /(?<!\p{L})(the|a|an|of|part|sheet|file|archive|element|uncompressed|damaged|truncated|renamed|missing|without|uses|compression|method|inflate|document|workbook)(?!\p{L})/iu;
  const params = { part: 'xl/sharedStrings.xml', sheet: 'Học viên', method: 14, limitMib: 16, mib: 40 };
  const errors = [
    ...reasons.map((why) => new SheetError('notXlsx', { why, ...params })),
    ...['file', 'zip64', 'part', 'element'].map((what) => new SheetError('tooBig', { what, ...params })),
    new SheetError('tooBig', { what: 'part', part: 'xl/sharedStrings.xml', limitMib: 64 }),
  ];
  for (const e of errors) {
    const [en, vi] = [e.messageIn('en'), e.messageIn('vi')];
    for (const text of [en, vi]) {
      assert.doesNotMatch(text, /undefined|\[object/, text);
      if (e.params.why) assert.ok(!text.includes(`(${e.params.why})`), `${text} shows the code ${e.params.why}`);
    }
    // Names from the file (a part, a sheet) stay as they are; the words around them are Vietnamese.
    assert.doesNotMatch(vi.replaceAll(params.part, '').replaceAll('Excel Workbook (.xlsx)', '').replace(/OpenDocument|Word|ZIP64|CSV UTF-8/g, ''), english, vi);
    assert.equal(e.message, en);
  }
});

test('sheets: a file just past the size limit is not said to be the limit; an unknown reason keeps the error the reader\'s', async () => {
  const { MAX_BYTES, SheetError, fileTooBig } = await import('lpm-sheets');
  const e = fileTooBig(MAX_BYTES + 300 * 1024, MAX_BYTES);
  assert.equal(e.messageIn('en'), 'too large to read: 32.3 MiB (at most 32 MiB); split the sheet into smaller files');
  assert.equal(e.messageIn('vi'), 'tệp quá lớn: 32.3 MiB (tối đa 32 MiB); hãy chia bảng thành các tệp nhỏ hơn');
  assert.equal(fileTooBig(50 * 2 ** 20, MAX_BYTES).params.mib, 50);
  const later = new SheetError('notXlsx', { why: 'aReasonOfALaterVersion' });
  assert.equal(later.code, 'notXlsx');
  assert.match(later.messageIn('vi'), /^không phải sổ làm việc \.xlsx \(aReasonOfALaterVersion\)/);
});
