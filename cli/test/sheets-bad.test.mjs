// Sheets that are not what they say, or far too big: each refused with a clear error (or read as
// documented in README.md's "Sheets"), with bounded memory and nothing sent. Each heavy case runs
// in a child process whose peak RSS is measured. The renamed file, the encrypted workbook, the
// formulas and the #REF! cells are cases of the shared table (sheets-table.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync, openSync, closeSync, ftruncateSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zip } from '../../sheets/src/zip.js';
import { workbook } from '../../tests/sheets/table.mjs';
import { lpm, tempDir } from './helpers.mjs';

const dir = tempDir();
const reader = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../sheets/src/index.js');
const peakRss = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../tests/peak-rss.mjs');
/**
 * Peak RSS allowed for reading any of these (Node alone takes ~40 MiB; ~110 MiB measured on the
 * largest case). The child's heap is capped too, so a reader that kept what it read would die
 * of it rather than pass on a machine whose collector happened to keep up.
 */
const BOUND_MIB = 256;

/** Reads `file` with lpm-sheets in a fresh process: { code (the SheetError's, or 'ok'), rows, mib }. */
function readInChild(file) {
  const code = `
    import { readFileSync } from 'node:fs';
    import { readTable } from ${JSON.stringify(reader)};
    import { peakKiB } from ${JSON.stringify(peakRss)};
    let out;
    try { const t = await readTable(readFileSync(process.argv[1]), { name: process.argv[1] }); out = { code: 'ok', rows: t.records.length, last: t.records.at(-1)?.line }; }
    catch (e) { out = { code: e.code ?? String(e), message: e.message }; }
    out.mib = peakKiB() / 1024;
    console.log(JSON.stringify(out));`;
  return JSON.parse(execFileSync(process.execPath, ['--max-old-space-size=96', '--input-type=module', '-e', code, file], { encoding: 'utf8' }));
}

const X = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
/** A minimal workbook whose one sheet is `sheetXml` (and shared strings `sst`, if given). */
async function rawBook(sheetXml, sst) {
  const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return zip([
    ['_rels/.rels', `${X}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    ['xl/workbook.xml', `${X}<workbook ${NS} xmlns:r="${R}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`],
    ['xl/_rels/workbook.xml.rels', `${X}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/>${sst ? `<Relationship Id="rId2" Type="${R}/sharedStrings" Target="sharedStrings.xml"/>` : ''}</Relationships>`],
    ['xl/worksheets/sheet1.xml', sheetXml],
    ...(sst ? [['xl/sharedStrings.xml', sst]] : []),
  ]);
}

test('a child\'s peak memory is its own, not the larger process\'s that started it', async () => {
  const file = path.join(dir, 'small.csv');
  writeFileSync(file, 'email,username\na@b.vn,a\n');
  // The test's process holds 400 MiB when it starts the child, as a large parent would.
  const held = Buffer.alloc(400 * 2 ** 20, 1);
  const r = readInChild(file);
  assert.equal(held.length, 400 * 2 ** 20);
  assert.equal(r.code, 'ok', JSON.stringify(r));
  assert.ok(r.mib < 200, `peak RSS ${r.mib} MiB for a two-line sheet`);
});

test('a zip bomb (shared strings inflating past 64 MiB, 1000:1) is refused, memory bounded', async () => {
  const file = path.join(dir, 'bomb.xlsx');
  const bytes = await rawBook(`${X}<worksheet ${NS}><sheetData/></worksheet>`, `${X}<sst ${NS}><si><t>${' '.repeat(80 * 2 ** 20)}</t></si></sst>`);
  assert.ok(bytes.length < 200_000, `${bytes.length} bytes`);
  writeFileSync(file, bytes);
  const r = readInChild(file);
  assert.equal(r.code, 'tooBig', JSON.stringify(r));
  assert.match(r.message, /too large to read: an element of xl\/sharedStrings\.xml \(at most 16 MiB\)/);
  assert.ok(r.mib < BOUND_MIB, `peak RSS ${r.mib} MiB`);
});

test('a sheet bomb (text that is no row, inflating without end) stops at the row limit, memory bounded', async () => {
  const file = path.join(dir, 'sheet-bomb.xlsx');
  writeFileSync(file, await rawBook(`${X}<worksheet ${NS}><sheetData>${'\n'.repeat(40 * 2 ** 20)}</sheetData></worksheet>`));
  const r = readInChild(file);
  assert.equal(r.code, 'tooBig', JSON.stringify(r));
  assert.ok(r.mib < BOUND_MIB, `peak RSS ${r.mib} MiB`);
});

test('a sheet of 1,048,576 filled rows is refused past 100,000 rows, memory bounded; nothing sent', async () => {
  const file = path.join(dir, 'million.xlsx');
  const rows = [];
  rows.push('<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c><c r="B1" t="inlineStr"><is><t>Username</t></is></c><c r="C1" t="inlineStr"><is><t>Email</t></is></c><c r="D1" t="inlineStr"><is><t>Password</t></is></c></row>');
  for (let r = 2; r <= 1_048_576; r++) rows.push(`<row r="${r}"><c r="A${r}"><v>${r}</v></c></row>`);
  writeFileSync(file, await rawBook(`${X}<worksheet ${NS}><sheetData>${rows.join('')}</sheetData></worksheet>`));
  const r = readInChild(file);
  assert.equal(r.code, 'tooManyRows', JSON.stringify(r));
  assert.match(r.message, /^more than 100000 rows: split the sheet into files of at most 100000 rows$/);
  assert.ok(r.mib < BOUND_MIB, `peak RSS ${r.mib} MiB`);
  const cli = await lpm(['import', file, '--journal', path.join(dir, 'million.journal'), '--base-url', 'http://127.0.0.1:9'], { env: { LPM_TOKEN: 'x'.repeat(32) } });
  assert.equal(cli.code, 2, cli.stderr);
  assert.match(cli.stderr, /more than \d+ rows: split the sheet/);
});

test('a workbook formatted down to row 1,048,576 with a few rows is read: the rows with a value, their row numbers', async () => {
  const file = path.join(dir, 'formatted.xlsx');
  writeFileSync(file, await workbook([{ rows: [['Name', 'Username', 'Email', 'Password'], ['Lan Anh', 'lananh', 'lan@x.io', 'secret-1'], { r: 1_048_576, cells: ['Cuối', 'cuoi', 'cuoi@x.io', 'secret-2'] }] }]));
  const r = await lpm(['validate', file]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /: 2 rows, sheet "Sheet1"/);
});

test('a 50 MB file is refused before it is read (no more than 32 MiB), nothing sent', async () => {
  for (const name of ['big.csv', 'big.xlsx']) {
    const file = path.join(dir, name);
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 50 * 2 ** 20);
    closeSync(fd);
    const r = await lpm(['validate', file]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /too large to read: 50 MiB \(at most 32 MiB\); split the sheet/);
  }
});

test('--sheet reads a named sheet; an unknown name lists the workbook\'s sheets', async () => {
  const file = path.join(dir, 'two.xlsx');
  writeFileSync(file, await workbook([{ name: 'Hướng dẫn', rows: [['Điền bảng ở trang sau']] }, { name: 'Lớp 10A', rows: [['Name', 'Username', 'Email', 'Password'], ['Lan Anh', 'lananh', 'lan@x.io', 'secret-1']] }]));
  const first = await lpm(['validate', file]);
  assert.equal(first.code, 2);
  assert.match(first.stderr, /no column for name, username, email, password/);
  const named = await lpm(['validate', file, '--sheet', 'lớp 10a']);
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stdout, /1 row, sheet "Lớp 10A"/);
  const unknown = await lpm(['validate', file, '--sheet', 'Lớp 11']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no sheet named "Lớp 11" \(the workbook's sheets: Hướng dẫn, Lớp 10A\)/);
});

test('a workbook whose zip gives every part ZIP64 sizes (as some writers do) is read', async () => {
  const plain = await workbook([{ rows: [['Name', 'Username', 'Email', 'Password'], ['Lan Anh', 'lananh', 'lan@x.io', 'secret-1']] }]);
  // Each central directory entry rewritten with 0xFFFFFFFF sizes and offset, and the real ones
  // in a ZIP64 extra field.
  const dv = new DataView(plain.buffer, plain.byteOffset, plain.byteLength);
  const eocd = plain.length - 22;
  const count = dv.getUint16(eocd + 10, true);
  const start = dv.getUint32(eocd + 16, true);
  const entries = [];
  for (let k = 0, at = start; k < count; k++) {
    const n = dv.getUint16(at + 28, true);
    const head = plain.slice(at, at + 46 + n);
    const h = new DataView(head.buffer);
    const extra = new Uint8Array(4 + 24);
    const e = new DataView(extra.buffer);
    e.setUint16(0, 1, true);
    e.setUint16(2, 24, true);
    e.setBigUint64(4, BigInt(h.getUint32(24, true)), true);
    e.setBigUint64(12, BigInt(h.getUint32(20, true)), true);
    e.setBigUint64(20, BigInt(h.getUint32(42, true)), true);
    for (const off of [20, 24, 42]) h.setUint32(off, 0xffffffff, true);
    h.setUint16(30, extra.length, true);
    entries.push(head, extra);
    at += 46 + n + dv.getUint16(at + 30, true) + dv.getUint16(at + 32, true);
  }
  const central = Buffer.concat(entries);
  const end = Buffer.from(plain.slice(eocd));
  end.writeUInt32LE(central.length, 12);
  const file = path.join(dir, 'zip64.xlsx');
  writeFileSync(file, Buffer.concat([Buffer.from(plain.slice(0, start)), central, end]));
  const r = await lpm(['validate', file]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /: 1 row, sheet "Sheet1"/);
});
