// Reading time and peak memory of lpm-sheets on a 10,000-row sheet, .xlsx and CSV: each read in
// a fresh Node process, which reports its own peak RSS (tests/peak-rss.mjs), median of ROUNDS.
// With CANDIDATES=DIR (a folder where read-excel-file, exceljs and xlsx (SheetJS) are installed
// with npm), the same .xlsx is read by each of them too, for the choice in sheets/README.md.
//   node sheets/bench.mjs [ROUNDS] [ROWS]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { workbook } from '../tests/sheets/table.mjs';
import { toCsv } from './src/write.js';
import { zip } from './src/zip.js';

const peak = `import { peakKiB } from ${JSON.stringify(new URL('../tests/peak-rss.mjs', import.meta.url).href)};`;

const here = path.dirname(fileURLToPath(import.meta.url));
const rounds = Number(process.argv[2] ?? 5);
const count = Number(process.argv[3] ?? 10_000);
const dir = mkdtempSync(path.join(tmpdir(), 'lpm-sheets-bench-'));

const header = ['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu', 'Số điện thoại', 'Tỉnh/Thành phố', 'Ngày sinh'];
const rows = Array.from({ length: count }, (_, i) => [`Nguyễn Văn Học Viên ${i}`, `hv${i}`, `hv${i}@truong.edu.vn`, `Matkhau-${i}`, { n: 900000000 + i, fmt: '0000000000' }, ['Hà Nội', 'Huế', 'Đà Nẵng'][i % 3], { n: 38000 + (i % 3000), fmt: 14 }]);
const xlsx = path.join(dir, 'sheet.xlsx');
writeFileSync(xlsx, await workbook([{ name: 'Học viên', rows: [header, ...rows] }]));
// The same rows as an .ods, as LibreOffice writes one: each cell's shown text in <text:p>.
const esc = (v) => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;');
const odsCell = (c) => (typeof c === 'object'
  ? `<table:table-cell office:value-type="float" office:value="${c.n}"><text:p>${c.fmt === 14 ? '' : String(c.n).padStart(10, '0')}</text:p></table:table-cell>`
  : `<table:table-cell office:value-type="string"><text:p>${esc(c)}</text:p></table:table-cell>`);
const odsXml = `<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet><table:table table:name="Học viên">${[header, ...rows].map((r) => `<table:table-row>${r.map(odsCell).join('')}</table:table-row>`).join('')}</table:table></office:spreadsheet></office:body></office:document-content>`;
const ods = path.join(dir, 'sheet.ods');
writeFileSync(ods, await zip([['mimetype', 'application/vnd.oasis.opendocument.spreadsheet'], ['content.xml', odsXml]]));
const csv = path.join(dir, 'sheet.csv');
writeFileSync(csv, `\uFEFF${toCsv([header, ...rows.map((r) => r.map((c) => (typeof c === 'object' ? String(c.n).padStart(10, '0') : c)))])}`);

const ours = `${peak}
  import { readFileSync } from 'node:fs';
  import { readTable } from ${JSON.stringify(path.join(here, 'src/index.js'))};
  const t = performance.now();
  const table = await readTable(readFileSync(process.argv[1]));
  if (table.records.length !== ${count + 1}) throw new Error('rows ' + table.records.length);
  console.log(JSON.stringify({ ms: performance.now() - t, rss: peakKiB() }));`;
const candidates = {
  'read-excel-file 9': `${peak} import { readSheet } from 'read-excel-file/node';
    const t = performance.now(); const rows = await readSheet(process.argv[1]);
    if (rows.length !== ${count + 1}) throw new Error('rows ' + rows.length);
    console.log(JSON.stringify({ ms: performance.now() - t, rss: peakKiB() }));`,
  'exceljs 4': `${peak} import ExcelJS from 'exceljs';
    const t = performance.now(); const wb = new ExcelJS.Workbook(); await wb.xlsx.readFile(process.argv[1]);
    let n = 0; wb.worksheets[0].eachRow(() => n++); if (n !== ${count + 1}) throw new Error('rows ' + n);
    console.log(JSON.stringify({ ms: performance.now() - t, rss: peakKiB() }));`,
  'SheetJS xlsx 0.18.5': `${peak} import XLSX from 'xlsx'; import { readFileSync } from 'node:fs';
    const t = performance.now(); const wb = XLSX.read(readFileSync(process.argv[1]));
    const rows = XLSX.utils.sheet_to_json(wb.Sheets[wb.SheetNames[0]], { header: 1, raw: false });
    if (rows.length !== ${count + 1}) throw new Error('rows ' + rows.length);
    console.log(JSON.stringify({ ms: performance.now() - t, rss: peakKiB() }));`,
};

/** Median time and peak RSS of `rounds` fresh processes running `code` on `file`. */
function measure(code, file, cwd) {
  const runs = [];
  for (let i = 0; i < rounds; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code, file], { cwd, encoding: 'utf8' });
    runs.push(JSON.parse(out.trim().split('\n').pop()));
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { ms: median(runs.map((r) => r.ms)), mib: median(runs.map((r) => r.rss)) / 1024 };
}

const base = measure(`${peak} console.log(JSON.stringify({ ms: 0, rss: peakKiB() }))`, '', here);
console.log(`${count} rows, median of ${rounds} fresh processes; Node's own peak RSS ${base.mib.toFixed(0)} MiB`);
console.log('reader'.padEnd(28) + 'read (ms)'.padStart(10) + 'peak RSS (MiB)'.padStart(16));
const line = (name, r) => console.log(name.padEnd(28) + r.ms.toFixed(0).padStart(10) + r.mib.toFixed(0).padStart(16));
line('lpm-sheets, .xlsx', measure(ours, xlsx, here));
line('lpm-sheets, .ods', measure(ours, ods, here));
line('lpm-sheets, CSV', measure(ours, csv, here));
const where = process.env.CANDIDATES;
if (where) {
  for (const [name, code] of Object.entries(candidates)) {
    const pkg = { 'read-excel-file 9': 'read-excel-file', 'exceljs 4': 'exceljs', 'SheetJS xlsx 0.18.5': 'xlsx' }[name];
    if (existsSync(path.join(where, 'node_modules', pkg))) line(name, measure(code, xlsx, where));
  }
}
