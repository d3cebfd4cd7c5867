// The one table of sheets that the command line's tests (cli/test/sheets-table.test.mjs: readSheet
// and `lpm validate`) and the dashboard's (tests/www/sheets.mjs: the bulk screen's file picker)
// both read, each case with the rows every reader must give (the sheet's line or row number,
// the account fields) or the error it must refuse the file with. The .xlsx files are built here
// part by part as Excel writes them (shared strings, styles with number formats, merged cells,
// formulas with their saved values, error cells), zipped by lpm-sheets' own zip writer.
import { readFileSync } from 'node:fs';
import { zip } from '../../sheets/src/zip.js';

const X = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const colName = (c) => {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * An .xlsx as Excel writes it. `sheets`: [{ name, rows, merges, hidden }], `rows` arrays of cells
 * or `{ r, cells }` for a row number of its own; a cell is a string (a shared string), a number,
 * `{ n, fmt }` (a number under a format code, or a built-in format's id), `{ f, v }` (a formula and its saved value,
 * `v` undefined for none), `{ e: '#REF!' }`, `{ b: true }`, or null.
 */
export async function workbook(sheets, { date1904 = false } = {}) {
  const strings = [];
  const stringIndex = new Map();
  const sst = (s) => {
    if (!stringIndex.has(s)) { stringIndex.set(s, strings.length); strings.push(s); }
    return stringIndex.get(s);
  };
  const fmts = [];
  const xf = (code) => {
    let i = fmts.indexOf(code);
    if (i === -1) { fmts.push(code); i = fmts.length - 1; }
    return i + 1; // style 0 is General
  };
  const sheetXml = sheets.map(({ rows, merges = [] }) => {
    let r = 0;
    const body = rows.map((row) => {
      const { r: at, cells } = Array.isArray(row) ? { r: r + 1, cells: row } : row;
      r = at;
      const cs = cells.map((v, c) => {
        const ref = `${colName(c)}${at}`;
        if (v === null || v === undefined) return '';
        if (typeof v === 'string') return `<c r="${ref}" t="s"><v>${sst(v)}</v></c>`;
        if (typeof v === 'number') return `<c r="${ref}"><v>${v}</v></c>`;
        if ('fmt' in v) return `<c r="${ref}" s="${xf(v.fmt)}"><v>${v.n}</v></c>`;
        if ('f' in v) return typeof v.v === 'string'
          ? `<c r="${ref}" t="str"><f>${esc(v.f)}</f><v>${esc(v.v)}</v></c>`
          : `<c r="${ref}"><f>${esc(v.f)}</f>${v.v === undefined ? '' : `<v>${v.v}</v>`}</c>`;
        if ('e' in v) return `<c r="${ref}" t="e"><v>${esc(v.e)}</v></c>`;
        if ('b' in v) return `<c r="${ref}" t="b"><v>${v.b ? 1 : 0}</v></c>`;
        if ('inline' in v) return `<c r="${ref}" t="inlineStr"><is><t>${esc(v.inline)}</t></is></c>`;
        throw new Error(`cell ${JSON.stringify(v)}`);
      }).join('');
      return `<row r="${at}">${cs}</row>`;
    }).join('');
    const m = merges.length ? `<mergeCells count="${merges.length}">${merges.map((ref) => `<mergeCell ref="${ref}"/>`).join('')}</mergeCells>` : '';
    return `${X}<worksheet ${NS}><sheetData>${body}</sheetData>${m}</worksheet>`;
  });
  const styles = `${X}<styleSheet ${NS}><numFmts count="${fmts.length}">${fmts.map((f, i) => (typeof f === 'number' ? '' : `<numFmt numFmtId="${164 + i}" formatCode="${esc(f)}"/>`)).join('')}</numFmts><cellXfs count="${fmts.length + 1}"><xf numFmtId="0"/>${fmts.map((f, i) => `<xf numFmtId="${typeof f === 'number' ? f : 164 + i}" applyNumberFormat="1"/>`).join('')}</cellXfs></styleSheet>`;
  const sharedStrings = `${X}<sst ${NS} count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join('')}</sst>`;
  const book = `${X}<workbook ${NS}>${date1904 ? '<workbookPr date1904="1"/>' : '<workbookPr/>'}<sheets>${sheets.map((s, i) => `<sheet name="${esc(s.name ?? `Sheet${i + 1}`)}" sheetId="${i + 1}"${s.hidden ? ' state="hidden"' : ''} r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`;
  const n = sheets.length;
  const bookRels = `${X}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((s, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}<Relationship Id="rId${n + 1}" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId${n + 2}" Type="${REL}/styles" Target="styles.xml"/></Relationships>`;
  return zip([
    ['[Content_Types].xml', `${X}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets.map((s, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`],
    ['_rels/.rels', `${X}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    ['xl/workbook.xml', book],
    ['xl/_rels/workbook.xml.rels', bookRels],
    ['xl/styles.xml', styles],
    ['xl/sharedStrings.xml', sharedStrings],
    ...sheetXml.map((xml, i) => [`xl/worksheets/sheet${i + 1}.xml`, xml]),
  ]);
}

const enc = (s) => new TextEncoder().encode(s);
const utf16 = (s) => {
  const out = new Uint8Array(2 + s.length * 2);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let i = 0; i < s.length; i++) { out[2 + i * 2] = s.charCodeAt(i) & 0xff; out[3 + i * 2] = s.charCodeAt(i) >> 8; }
  return out;
};

const VI = ['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu', 'Số điện thoại'];
const lan = { name: 'Nguyễn Thị Lan', username: 'lannguyen', email: 'lan@school.test', password: 'mat-khau-1', phone: '0901000001' };
const minh = { name: 'Trần Văn Minh', username: 'minhtran', email: 'minh@school.test', password: 'mat-khau-2', phone: '0912000002' };
const cellsOf = (u) => [u.name, u.username, u.email, u.password, u.phone];
const csv = (lines, sep = ',', br = '\r\n') => lines.map((l) => l.join(sep)).join(br) + br;

/** A compound (OLE) file whose directory names `stream` (UTF-16), as an encrypted .xlsx or a .xls. */
function compound(stream) {
  const out = new Uint8Array(4096);
  out.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  out.set([...stream].flatMap((c) => [c.charCodeAt(0), 0]), 1024);
  return out;
}

/**
 * The cases: `{ name, file, bytes, rows }` (rows: `{ line, user }` or `{ line, problem }` with
 * the problem's code) or `{ name, file, bytes, error }` (a SheetError code), and `sheet` for a
 * named sheet. Resolves once the .xlsx files are built.
 */
export async function sheetCases() {
  const two = [{ line: 2, user: lan }, { line: 3, user: minh }];
  // examples/sheets/: the same five students in both formats, a title above the header.
  const example = (name) => readFileSync(new URL(`../../examples/sheets/${name}`, import.meta.url));
  const students = [
    ['Nguyễn Thị Lan', 'lannguyen', 'lan.nguyen@truong.edu.vn', 'Lan@2024-hk2', '0901000001', 'Hà Nội'],
    ['Trần Văn Minh', 'minhtran', 'minh.tran@truong.edu.vn', 'Minh@2024-hk2', '0912000002', 'Huế'],
    ['Lê Hoàng Anh', 'anhle', 'anh.le@truong.edu.vn', 'Anh@2024-hk2', '0983000003', 'Đà Nẵng'],
    ['Phạm Thu Hà', 'hapham', 'ha.pham@truong.edu.vn', 'Ha@2024-hk2', '0904000004', 'TP. Hồ Chí Minh'],
    ['Võ Đức Dũng', 'dungvo', 'dung.vo@truong.edu.vn', 'Dung@2024-hk2', '0935000005', 'Cần Thơ'],
  ].map(([name, username, email, password, phone, city], i) => ({ line: i + 3, user: { name, username, email, password, phone, city } }));
  // Workbooks written by other programs (fixtures/make.mjs): the same two rows from each.
  const fixture = (name) => readFileSync(new URL(`fixtures/${name}`, import.meta.url));
  const byOthers = ['sheetjs', 'exceljs', 'write-excel-file'].map((w) => ({ name: `a workbook written by ${w}`, file: `${w}.xlsx`, bytes: fixture(`${w}.xlsx`), rows: two }));
  return [
    ...byOthers,
    { name: 'examples/sheets/hoc-vien.xlsx', file: 'example.xlsx', bytes: example('hoc-vien.xlsx'), rows: students },
    { name: 'examples/sheets/hoc-vien.csv', file: 'example.csv', bytes: example('hoc-vien.csv'), rows: students },
    { name: 'CSV UTF-8, comma, CRLF', file: 'hoc-vien.csv', bytes: enc(csv([VI, cellsOf(lan), cellsOf(minh)])), rows: two },
    { name: 'CSV with BOM, semicolons', file: 'hoc-vien-bom.csv', bytes: enc(`\uFEFF${csv([VI, cellsOf(lan), cellsOf(minh)], ';')}`), rows: two },
    { name: 'UTF-16 tab-separated (Unicode text)', file: 'hoc-vien.txt', bytes: utf16(csv([VI, cellsOf(lan), cellsOf(minh)], '\t')), rows: two },
    {
      name: 'mixed line breaks: a CRLF header, LF and CR lines',
      file: 'mixed.csv',
      bytes: enc(`${VI.join(',')}\r\n${cellsOf(lan).join(',')}\n${cellsOf(minh).join(',')}\r`),
      rows: two,
    },
    {
      name: 'quoted cells: a delimiter, a quote and a line break inside (read as a space)',
      file: 'quoted.csv',
      bytes: enc(`${VI.join(',')}\r\n"Lê, ""Bé""\r\nAn","lean","an@school.test","p-w",0903000003\r\n${cellsOf(minh).join(',')}\r\n`),
      rows: [{ line: 2, user: { name: 'Lê, "Bé" An', username: 'lean', email: 'an@school.test', password: 'p-w', phone: '0903000003' } }, { line: 4, user: minh }],
    },
    {
      name: 'CSV: blank and empty lines skipped, a title line above the header',
      file: 'title.csv',
      bytes: enc(csv([['Danh sách lớp 10A'], VI, cellsOf(lan), [',,,,'], [], cellsOf(minh), [',,,,']])),
      rows: [{ line: 3, user: lan }, { line: 6, user: minh }],
    },
    {
      name: 'CSV: a line with more cells than the header is set aside',
      file: 'extra.csv',
      bytes: enc(csv([VI, cellsOf(lan), [...cellsOf(minh), 'Hà Nội, Việt Nam']])),
      rows: [{ line: 2, user: lan }, { line: 3, problem: 'cells' }],
    },
    {
      name: 'xlsx: shared strings, a phone number under the format 0000000000 and one as text',
      file: 'hoc-vien.xlsx',
      bytes: await workbook([{ name: 'Học viên', rows: [VI, [...cellsOf(lan).slice(0, 4), { n: 901000001, fmt: '0000000000' }], cellsOf(minh)] }]),
      rows: two,
    },
    {
      name: 'xlsx: a merged title above, a grouped header merged over two lines, empty trailing rows',
      file: 'grouped.xlsx',
      bytes: await workbook([{
        name: 'Lớp 10A',
        rows: [
          ['DANH SÁCH HỌC VIÊN LỚP 10A'],
          ['Họ và tên', 'Tài khoản', null, 'Mật khẩu', 'Liên hệ'],
          [null, 'Tên đăng nhập', 'Email', null, 'SĐT'],
          cellsOf(lan),
          cellsOf(minh),
          { r: 9, cells: [null, null] },
          { r: 40, cells: [''] },
        ],
        merges: ['A1:E1', 'A2:A3', 'B2:C2', 'D2:D3'],
      }]),
      rows: [{ line: 4, user: lan }, { line: 5, user: minh }],
    },
    {
      name: 'xlsx: numbers and dates as the cells show them, a formula\'s saved value, TRUE',
      file: 'typed.xlsx',
      bytes: await workbook([{
        rows: [
          [...VI, 'Ngày sinh', 'Nghề nghiệp'],
          ['An Khang', { n: 2024001, fmt: '0' }, 'khang@school.test', 123456, { f: '"0"&TEXT(904000004,"0")', v: '0904000004' }, { n: 38718, fmt: 14 }, { b: true }],
        ],
      }]),
      rows: [{ line: 2, user: { name: 'An Khang', username: '2024001', email: 'khang@school.test', password: '123456', phone: '0904000004', job: 'TRUE' } }],
    },
    {
      name: 'xlsx: a #REF! cell and a formula never calculated set their rows aside',
      file: 'errors.xlsx',
      bytes: await workbook([{ rows: [VI, cellsOf(lan), [...cellsOf(minh).slice(0, 4), { e: '#REF!' }], ['Ba', 'ba', { f: 'A4&"@school.test"' }, 'secret-3']] }]),
      rows: [{ line: 2, user: lan }, { line: 3, problem: 'errorCell' }, { line: 4, problem: 'formula' }],
    },
    {
      name: 'xlsx: an error or an uncalculated formula in a column that is no account field is a warning, not a row set aside',
      file: 'grades.xlsx',
      bytes: await workbook([{ rows: [[...VI, 'Điểm TB'], [...cellsOf(lan), { e: '#N/A' }], [...cellsOf(minh), { f: 'AVERAGE(X1:X9)' }]] }]),
      rows: two,
    },
    {
      name: 'xlsx: a hidden first sheet is passed over',
      file: 'hidden.xlsx',
      bytes: await workbook([{ name: 'Ghi chú', hidden: true, rows: [['không đọc']] }, { name: 'Học viên', rows: [VI, cellsOf(lan), cellsOf(minh)] }]),
      rows: two,
    },
    { name: 'a file of another kind renamed .xlsx', file: 'renamed.xlsx', bytes: enc(csv([VI, cellsOf(lan)])), error: 'notXlsx' },
    { name: 'a Word document renamed .xlsx', file: 'word.xlsx', bytes: await zip([['word/document.xml', '<w:document/>'], ['[Content_Types].xml', '<Types/>']]), error: 'notXlsx' },
    { name: 'a workbook encrypted with a password', file: 'locked.xlsx', bytes: compound('EncryptionInfo'), error: 'encrypted' },
    { name: 'an Excel 4.0 worksheet (BIFF4) .xls', file: 'old.xls', bytes: new Uint8Array([0x09, 0x04, 0x06, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00]), error: 'legacyXls' },
    { name: 'a legacy code page (Windows-1258)', file: 'cp1258.csv', bytes: new Uint8Array([...enc('Name,Username,Email,Password\nNguy'), 0xea, 0x6e, ...enc(',a,b@c.d,pw\n')]), error: 'notUtf8' },
    { name: 'an empty file', file: 'empty.csv', bytes: new Uint8Array(0), error: 'empty' },
    { name: 'a quoted cell never closed', file: 'unclosed.csv', bytes: enc('Name,Username,Email,Password\n"unclosed,a,b,c\n'), error: 'badQuote' },
    { name: 'no password column', file: 'nopass.xlsx', bytes: await workbook([{ rows: [['Họ tên', 'Tài khoản', 'Email'], ['A B C', 'abc', 'a@b.co']] }]), error: 'missing' },
    { name: 'two columns for one field', file: 'twice.csv', bytes: enc('Name,Họ tên,Username,Email,Password\n'), error: 'twice' },
  ];
}
