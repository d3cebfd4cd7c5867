// lpm-sheets' reader on workbooks as other programs write them: each defect class found against
// LibreOffice's "as shown" text (sheets/README.md) with a small workbook built here, part by
// part, and the number formats one by one. Run: node --test tests/sheets/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readTable } from '../../sheets/src/index.js';
import { formatValue } from '../../sheets/src/numfmt.js';
import { zip } from '../../sheets/src/zip.js';
import { workbook } from './table.mjs';

const X = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const rels = (list) => `${X}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${list.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`).join('')}</Relationships>`;

/**
 * A workbook of hand-written parts: `sheet` the sheetData's inside (or `sheets`: [{ name, xml,
 * type }]), `strings` the shared strings' <si> items, `styles` the styles part; `names` renames
 * parts in the archive (part -> name), `extra` adds parts.
 */
function book({ sheet = '', sheets, strings, styles, names = {}, extra = [] } = {}) {
  const list = sheets ?? [{ name: 'Sheet1', xml: `${X}<worksheet ${NS}><sheetData>${sheet}</sheetData></worksheet>` }];
  const files = [
    ['_rels/.rels', rels([['rId1', 'officeDocument', 'xl/workbook.xml']])],
    ['xl/workbook.xml', `${X}<workbook ${NS}><sheets>${list.map((s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`],
    ['xl/_rels/workbook.xml.rels', rels([
      ...list.map((s, i) => [`rId${i + 1}`, s.type ?? 'worksheet', `${s.type === 'chartsheet' ? 'chartsheets' : 'worksheets'}/sheet${i + 1}.xml`]),
      ...(strings ? [['rIdS', 'sharedStrings', 'sharedStrings.xml']] : []),
      ...(styles ? [['rIdT', 'styles', 'styles.xml']] : []),
    ])],
    ...list.map((s, i) => [`xl/${s.type === 'chartsheet' ? 'chartsheets' : 'worksheets'}/sheet${i + 1}.xml`, s.xml]),
    ...(strings ? [['xl/sharedStrings.xml', `${X}<sst ${NS}>${strings.map((t) => `<si><t>${t}</t></si>`).join('')}</sst>`]] : []),
    ...(styles ? [['xl/styles.xml', styles]] : []),
    ...extra,
  ];
  return zip(files.map(([n, t]) => [names[n] ?? n, t]));
}
const cellsOf = async (bytes, options) => (await readTable(bytes, options)).records.map((r) => r.cells);
const styled = (codes) => `${X}<styleSheet ${NS}><numFmts>${codes.map((c, i) => `<numFmt numFmtId="${164 + i}" formatCode="${c.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"/>`).join('')}</numFmts><cellXfs><xf numFmtId="0"/>${codes.map((c, i) => `<xf numFmtId="${typeof c === 'number' ? c : 164 + i}"/>`).join('')}</cellXfs></styleSheet>`;

test('a 0 before # pads: phones kept as numbers under 0#########, 0### ### ###, "+84 "000 000 000', async () => {
  assert.equal(formatValue(912345678, '0#########'), '0912345678');
  assert.equal(formatValue(912345678, '0### ### ###'), '0912 345 678');
  assert.equal(formatValue(912345678, '"+84 "000 000 000'), '+84 912 345 678');
  const bytes = await workbook([{ rows: [[{ n: 912345678, fmt: '0#########' }, { n: 912345678, fmt: '0### ### ###' }]] }]);
  assert.deepEqual(await cellsOf(bytes), [['0912345678', '0912 345 678']]);
});

test('literal text among digit placeholders keeps its place', () => {
  assert.equal(formatValue(1, '00000\\-0000'), '00000-0001');
  assert.equal(formatValue(123456789, '000-00-0000'), '123-45-6789');
  assert.equal(formatValue(9012345678, '(###) ###-####'), '(901) 234-5678');
});

test('attributes in single quotes are read', async () => {
  const bytes = await book({ strings: ['Name', 'Lan'], sheet: "<row><c t='s'><v>0</v></c><c r='B1'><v>7</v></c></row><row r='2'><c r='A2' t='s'><v>1</v></c></row>" });
  assert.deepEqual(await cellsOf(bytes), [['Name', '7'], ['Lan']]);
});

test('part names in any case and with \\ are found', async () => {
  const upper = await book({ strings: ['Hello'], sheet: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>', names: { 'xl/sharedStrings.xml': 'xl/SharedStrings.xml' } });
  assert.deepEqual(await cellsOf(upper), [['Hello']]);
  const slashes = await book({ sheet: '<row r="1"><c r="A1"><v>1</v></c></row>', names: { 'xl/workbook.xml': 'xl\\workbook.xml', 'xl/worksheets/sheet1.xml': 'xl\\Worksheets\\Sheet1.xml' } });
  assert.deepEqual(await cellsOf(slashes), [['1']]);
});

test('a chart sheet is passed over for the first sheet of cells', async () => {
  const bytes = await book({ sheets: [
    { name: 'Chart1', type: 'chartsheet', xml: `${X}<chartsheet ${NS}><drawing r:id="rId1"/></chartsheet>` },
    { name: 'Data', xml: `${X}<worksheet ${NS}><sheetData><row r="1"><c r="A1"><v>5</v></c></row></sheetData></worksheet>` },
  ] });
  const table = await readTable(bytes);
  assert.equal(table.sheetName, 'Data');
  assert.deepEqual(table.sheetNames, ['Data']);
});

test('dates stored as ISO text (t="d") show through their format', async () => {
  const bytes = await book({ styles: styled(['dd/mm/yyyy hh:mm:ss', 'h:mm AM/PM']), sheet: '<row r="1"><c r="A1" s="1" t="d"><v>2014-01-16T15:59:59.99999979045242400</v></c><c r="B1" s="2" t="d"><v>1899-12-30T16:17:00</v></c><c r="C1" t="d"><v>2020-02-29</v></c></row>' });
  assert.deepEqual(await cellsOf(bytes), [['16/01/2014 16:00:00', '4:17 PM', '43890']]);
});

test('AM/PM formats show the 12-hour clock, built-in formats 18 and 19 too', async () => {
  assert.equal(formatValue(0.67847, 'h:mm AM/PM'), '4:17 PM');
  assert.equal(formatValue(0, 'h:mm AM/PM'), '12:00 AM');
  assert.equal(formatValue(0.5, 'hh:mm:ss A/P'), '12:00:00 P');
  const bytes = await workbook([{ rows: [[{ n: 0.67847, fmt: 18 }, { n: 0.25, fmt: 19 }]] }]);
  assert.deepEqual(await cellsOf(bytes), [['4:17 PM', '6:00:00 AM']]);
});

test('sections for zero and text, conditions, fractions, elapsed time, General\'s digits', async () => {
  assert.equal(formatValue(0, '#,##0 "₫";-#,##0 "₫";"-"'), '-');
  assert.equal(formatValue(-1500, '#,##0 "₫";-#,##0 "₫";"-"'), '-1,500 ₫');
  assert.equal(formatValue(5, ';;;'), '');
  assert.equal(formatValue(0, '0;-0;'), '');
  assert.equal(formatValue(1234567, '[<=9999999]###-####;(###) ###-####'), '123-4567');
  assert.equal(formatValue(9012345678, '[<=9999999]###-####;(###) ###-####'), '(901) 234-5678');
  assert.equal(formatValue(-1, '[<-25]General;[>25]General;General'), '1');
  assert.equal(formatValue(-26, '[<-25]General;[>25]General;General'), '-26');
  assert.equal(formatValue(1.5, '# ?/?'), '1 1/2');
  assert.equal(formatValue(0.25, '?/4'), '1/4');
  // (A denominator of ten digits is found in as many steps as its continued fraction has, not ten billion.)
  assert.equal(formatValue(0.75, '?/??????????'), `3/4${' '.repeat(9)}`);
  assert.equal(formatValue(1.5, '[h]:mm:ss'), '36:00:00');
  assert.equal(formatValue(1e-11, 'General'), '1E-11');
  assert.equal(formatValue(123456789012345680, 'General'), '1.23456789012346E+17');
  assert.equal(formatValue(12345678901234567, '0'), '12345678901234600');
  assert.equal(formatValue(1234, '[$-F800]dddd\\,\\ mmmm\\ dd\\,\\ yyyy'), 'Monday 18 May 1903');
  assert.equal(formatValue(2958466, 'yyyy-mm-dd'), '2958466');
  assert.equal(formatValue(1234567, '#,##0,'), '1,235');
  assert.equal(formatValue(12345, '0.00E+00'), '1.23E+04');
  const bytes = await book({ strings: ['secret', 'x'], styles: styled([';;;', '0;-0;0;"Mr "@']), sheet: '<row r="1"><c r="A1" s="1" t="s"><v>0</v></c><c r="B1" s="2" t="s"><v>1</v></c></row>' });
  assert.deepEqual(await cellsOf(bytes), [['', 'Mr x']]);
});

test('a workbook with UTF-16 parts (Excel Mobile) is read', async () => {
  const utf16 = (s) => {
    const out = new Uint8Array(2 + s.length * 2);
    out.set([0xff, 0xfe]);
    for (let i = 0; i < s.length; i++) { out[2 + 2 * i] = s.charCodeAt(i) & 0xff; out[3 + 2 * i] = s.charCodeAt(i) >> 8; }
    return out;
  };
  const text = `<?xml version="1.0" encoding="UTF-16"?><workbook ${NS}><sheets><sheet name="Trang 1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  // (zip() writes text as UTF-8: this archive is built from bytes.)
  const entries = [['_rels/.rels', rels([['rId1', 'officeDocument', 'xl/workbook.xml']])], ['xl/_rels/workbook.xml.rels', rels([['rId1', 'worksheet', 'worksheets/sheet1.xml']])], ['xl/worksheets/sheet1.xml', `${X}<worksheet ${NS}><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Tiếng Việt</t></is></c></row></sheetData></worksheet>`]];
  const raw = await rawZip([...entries.map(([n, t]) => [n, new TextEncoder().encode(t)]), ['xl/workbook.xml', utf16(text)]]);
  const table = await readTable(raw);
  assert.equal(table.sheetName, 'Trang 1');
  assert.deepEqual(table.records.map((r) => r.cells), [['Tiếng Việt']]);
});

/** A zip of parts given as bytes, stored (method 0): what zip() writes, for bytes that are not UTF-8 text. */
async function rawZip(files) {
  const { zipEntries } = await import('../../sheets/src/zip.js');
  const parts = [];
  const central = [];
  let at = 0;
  const enc = new TextEncoder();
  for (const [name, data] of files) {
    const n = enc.encode(name);
    const head = new Uint8Array(30 + n.length);
    const h = new DataView(head.buffer);
    h.setUint32(0, 0x04034b50, true);
    h.setUint16(4, 20, true);
    h.setUint32(18, data.length, true);
    h.setUint32(22, data.length, true);
    h.setUint16(26, n.length, true);
    head.set(n, 30);
    const c = new Uint8Array(46 + n.length);
    const d = new DataView(c.buffer);
    d.setUint32(0, 0x02014b50, true);
    d.setUint32(20, data.length, true);
    d.setUint32(24, data.length, true);
    d.setUint16(28, n.length, true);
    d.setUint32(42, at, true);
    c.set(n, 46);
    parts.push(head, data);
    central.push(c);
    at += head.length + data.length;
  }
  const size = central.reduce((s, c) => s + c.length, 0);
  const end = new Uint8Array(22);
  const e = new DataView(end.buffer);
  e.setUint32(0, 0x06054b50, true);
  e.setUint16(8, files.length, true);
  e.setUint16(10, files.length, true);
  e.setUint32(12, size, true);
  e.setUint32(16, at, true);
  const all = [...parts, ...central, end];
  const out = new Uint8Array(all.reduce((s, p) => s + p.length, 0));
  let k = 0;
  for (const p of all) { out.set(p, k); k += p.length; }
  assert.equal(zipEntries(out).size, files.length);
  return out;
}

test('what is not a workbook is told per kind, in both languages', async () => {
  const biff4 = new Uint8Array([0x09, 0x04, 0x06, 0x00, 0x00, 0x00, 0x10, 0x00, 0, 0, 0, 0]);
  await assert.rejects(readTable(biff4, { name: 'old.xls' }), (e) => e.code === 'legacyXls' && /Excel 2\.x-4\.0/.test(e.message) && /Excel 2\.x-4\.0/.test(e.messageIn('vi')));
  const numbers = await zip([['Index/Document.iwa', 'x'], ['Metadata/Properties.plist', 'x']]);
  await assert.rejects(readTable(numbers, { name: 'lop.numbers' }), (e) => e.code === 'notXlsx' && e.params.why === 'numbers' && /Apple Numbers/.test(e.message) && /Apple Numbers/.test(e.messageIn('vi')));
  const text = await zip([['mimetype', 'application/vnd.oasis.opendocument.text'], ['content.xml', '<office:document-content/>']]);
  await assert.rejects(readTable(text), (e) => e.params?.why === 'openDocument');
});

test('smaller: an empty <v></v>, CDATA, lower-case references, a repeated row number, CR LF in a cell', async () => {
  const bytes = await book({
    strings: ['<![CDATA[a < b]]>', 'line 1&#13;&#10;line 2', 'x'],
    sheet: '<row r="1"><c r="A1"><v></v></c><c r="B1" t="s"><v>0</v></c></row><row r="2"><c r="b2" t="s"><v>1</v></c></row><row r="3"><c r="A3"><v>1</v></c></row><row r="3"><c r="C3" t="s"><v>2</v></c></row>',
  });
  const table = await readTable(bytes);
  assert.deepEqual(table.records.map((r) => [r.line, r.cells]), [[1, ['', 'a < b']], [2, ['', 'line 1\nline 2']], [3, ['1', '', 'x']]]);
});

test('an OpenDocument spreadsheet (.ods) is read as it shows, repeated and merged cells included', async () => {
  const T = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
  const cell = (v, attrs = '') => `<table:table-cell office:value-type="string"${attrs}><text:p>${v}</text:p></table:table-cell>`;
  const content = `${X}<office:document-content ${T}><office:body><office:spreadsheet>`
    + '<table:table table:name="Ẩn" table:style-name="ta2"><table:table-row><table:table-cell/></table:table-row></table:table>'
    + `<table:table table:name="Lớp 10A"><table:table-row>${cell('Họ tên')}${cell('SĐT')}<table:table-cell table:number-columns-repeated="16382"/></table:table-row>`
    + `<table:table-row>${cell('Lan')}<table:table-cell office:value-type="float" office:value="912345678"><text:p>0912345678</text:p></table:table-cell></table:table-row>`
    + '<table:table-row table:number-rows-repeated="2"><table:table-cell table:number-columns-repeated="2"/></table:table-row>'
    + `<table:table-row>${cell('A<text:s text:c="2"/>B', ' table:number-columns-spanned="2"')}<table:covered-table-cell/></table:table-row>`
    + '<table:table-row><table:table-cell table:formula="of:=NA()" office:value-type="float" calcext:value-type="error"><text:p>#N/A</text:p></table:table-cell></table:table-row>'
    + '<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>'
    + '</table:table></office:spreadsheet></office:body></office:document-content>';
  const styles = '<office:automatic-styles><style:style style:name="ta2" style:family="table"><style:table-properties table:display="false"/></style:style></office:automatic-styles>';
  const bytes = await zip([['mimetype', 'application/vnd.oasis.opendocument.spreadsheet'], ['content.xml', content.replace('<office:body>', `${styles}<office:body>`)]]);
  const table = await readTable(bytes, { name: 'lop.ods' });
  assert.equal(table.format, 'ods');
  assert.equal(table.sheetName, 'Lớp 10A');
  assert.deepEqual(table.sheetNames, ['Ẩn', 'Lớp 10A']);
  assert.deepEqual(table.records.map((r) => [r.line, r.cells, r.problems?.map((p) => p.cell)]), [
    [1, ['Họ tên', 'SĐT'], undefined],
    [2, ['Lan', '0912345678'], undefined],
    [5, ['A  B', 'A  B'], undefined],
    [6, [], ['A6']],
  ]);
  const hidden = await readTable(bytes, { sheet: 'ẩn' });
  assert.deepEqual(hidden.records, []);
});

test('a damaged workbook is refused with the reader\'s own error: bytes of the corpus subset changed at random', async () => {
  const { readFileSync, readdirSync } = await import('node:fs');
  const { SheetError } = await import('../../sheets/src/messages.js');
  const dir = new URL('corpus/', import.meta.url);
  // A fixed seed: the same mutations each run (a failure names its file and round).
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const file of readdirSync(dir).filter((f) => /\.(xls|xlsx|xlsm|ods)$/.test(f)).sort()) {
    const original = readFileSync(new URL(file, dir));
    for (let round = 0; round < 40; round++) {
      const bytes = Uint8Array.from(original);
      for (let i = 1 + Math.floor(random() * 8); i > 0; i--) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      await readTable(bytes, { name: file }).catch((e) => assert.ok(e instanceof SheetError, `${file}, round ${round}: ${e.stack}`));
    }
  }
});

test('an .ods whose few bytes repeat a cell millions of times is refused, its memory bounded', async () => {
  const T = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
  const row = '<table:table-row table:number-rows-repeated="1000"><table:table-cell table:number-columns-repeated="16384" office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>';
  const content = `${X}<office:document-content ${T}><office:body><office:spreadsheet><table:table table:name="S">${row}</table:table></office:spreadsheet></office:body></office:document-content>`;
  const bytes = await zip([['mimetype', 'application/vnd.oasis.opendocument.spreadsheet'], ['content.xml', content]]);
  await assert.rejects(readTable(bytes), (e) => e.code === 'tooBig' && e.params.what === 'cells' && /5000000 cells/.test(e.message) && /5000000 ô/.test(e.messageIn('vi')));
});

test('merged areas are spread over 2 million cells at most in all', async () => {
  // Three areas of a million cells each, side by side: a few bytes of XML each.
  const merges = Array.from({ length: 3 }, (_, k) => `<mergeCell ref="${colOf(k * 1000)}1:${colOf(k * 1000 + 999)}1000"/>`).join('');
  const anchors = Array.from({ length: 3 }, (_, k) => `<c r="${colOf(k * 1000)}1"><v>${k}</v></c>`).join('');
  const xml = `${X}<worksheet ${NS}><sheetData><row r="1">${anchors}</row></sheetData><mergeCells>${merges}</mergeCells></worksheet>`;
  const table = await readTable(await book({ sheets: [{ name: 'S', xml }] }));
  let filled = 0;
  for (const r of table.records) for (const c of r.cells) if (c !== '') filled += 1;
  // (Two areas and the third's own anchor.)
  assert.equal(filled, 2e6 + 1);
  assert.equal(table.records.length, 1000);
});

function colOf(c) {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

test('an .xls whose shared string runs past the last record is read, not thrown over', async () => {
  const { readFileSync } = await import('node:fs');
  // tafia/calamine/tests/biff5-rich-text-string.xls (MIT: corpus/LICENSE-calamine-MIT.md) with bytes
  // changed at random: a string's rich-text runs reach past the end of its SST and CONTINUE records.
  const bytes = readFileSync(new URL('fixtures/damaged-sst.xls', import.meta.url));
  const table = await readTable(bytes, { name: 'damaged-sst.xls' });
  assert.equal(table.format, 'xls');
});
