// The reader against LibreOffice's "as shown" text: each workbook of a folder read sheet by sheet
// and compared, cell by cell, with the CSV LibreOffice exported for that sheet (`ref/NAME-SHEET.csv`
// beside the workbooks; see tests/sheets/corpus/README.md for how they are made). Prints the
// agreement (files whose every cell is identical, cells identical) and, with --verbose, the cells
// that differ. With --numfmt DIR (a folder where npm's numfmt is installed), numbers are shown by
// numfmt instead of src/numfmt.js, for the choice in sheets/README.md.
// With --fields, the cells that differ under a header mapped to an account field (by the command
// line's mapColumns: needs lpm-client-bulk built) are counted and listed apart.
//   node sheets/corpus.mjs [DIR] [--verbose] [--numfmt DIR] [--fields] [--json]
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readTable } from './src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const dir = path.resolve(args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--numfmt')) ?? path.join(here, '../tests/sheets/corpus'));
const verbose = flag('--verbose');

let numberFormat;
if (option('--numfmt')) {
  // (numfmt 4's package names a CommonJS build it does not ship: its ES module is imported by path.)
  const nf = await import(pathToFileURL(path.join(path.resolve(option('--numfmt')), 'node_modules/numfmt/dist/index.mjs')).href);
  numberFormat = (value, code, date1904) => nf.format(code ?? 'General', value, { dateSystem: date1904 ? 2 : 1, nbsp: false, throws: false, invalid: String(value) });
}

/** Every record of a CSV as LibreOffice writes it (comma, quotes, LF), empty ones too. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let i = 0;
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' && cell === '') {
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q === -1) { cell += text.slice(j); j = text.length; break; }
        cell += text.slice(j, q);
        if (text[q + 1] === '"') { cell += '"'; j = q + 2; } else { j = q + 1; break; }
      }
      i = j;
      continue;
    }
    if (ch === ',') { row.push(cell); cell = ''; i += 1; continue; }
    if (ch === '\n' || ch === '\r') {
      row.push(cell); rows.push(row); row = []; cell = '';
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    cell += ch;
    i += 1;
  }
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

const mapColumns = flag('--fields') ? (await import('../cli/src/lpm.js')).mapColumns : null;
const fieldDiffs = [];

/** The account field of each column of a reference sheet: its header, the first of the first ten
 * records naming two fields (as table.js finds it), and the header's line. */
function fieldsOf(ref) {
  const at = ref.slice(0, 10).findIndex((r) => mapColumns(r.map((c) => c.trim())).filter(Boolean).length >= 2);
  return at === -1 ? null : { line: at + 1, fields: mapColumns(ref[at].map((c) => c.trim())) };
}

/**
 * Why a cell differs where LibreOffice is not what Excel shows (undefined: a difference of the
 * reader's): it recalculated a formula or lacks a function ('recalculated'), it shows an .xls
 * boolean as 1 or 0 ('boolean'), or a date before 1 March 1900 (Excel shows a negative serial as
 * its number and counts a 29 February 1900 that never was: 'before 1900').
 */
function fair(ours, lo) {
  const error = /^(#NAME\?|#MACRO\?|#VALUE!|#REF!|#N\/A|#NULL!|#NUM!|#DIV\/0!|Err:\d+)$/;
  if (error.test(lo) || error.test(ours)) return 'recalculated';
  if ((ours === 'TRUE' && lo === '1') || (ours === 'FALSE' && lo === '0')) return 'boolean';
  if (/18[0-9]{2}|1900/.test(lo) && (/^-/.test(ours) || /1900|^0?0[/-]/.test(ours) || /18[0-9]{2}/.test(lo))) return 'before 1900';
  return undefined;
}
const fairCounts = {};
let fairFiles = 0;

const refDir = path.join(dir, 'ref');
const refs = existsSync(refDir) ? readdirSync(refDir) : [];
const files = readdirSync(dir).filter((f) => /\.(xlsx|xlsm|ods|xls)$/i.test(f)).sort();
const total = { files: 0, same: 0, refused: 0, cells: 0, sameCells: 0, sheets: 0 };
const byKind = {};
const report = [];

const colName = (col) => {
  let s = '';
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
};

for (const file of files) {
  const base = file.replace(/\.[^.]+$/, '');
  const kind = path.extname(file).slice(1).toLowerCase();
  // (A reference past 20 MB is left out: such a file is a limit's case, not a display's.)
  const mine = refs.filter((r) => r.startsWith(`${base}-`) && r.endsWith('.csv') && statSync(path.join(refDir, r)).size < 20e6);
  if (mine.length === 0) continue;
  const k = (byKind[kind] ??= { files: 0, same: 0, refused: 0, cells: 0, sameCells: 0 });
  total.files += 1;
  k.files += 1;
  const bytes = readFileSync(path.join(dir, file));
  let first;
  try {
    first = await readTable(bytes, { name: file, numberFormat });
  } catch (e) {
    total.refused += 1;
    k.refused += 1;
    report.push({ file, refused: e.code ?? e.message, why: e.params?.why });
    continue;
  }
  const names = first.sheetNames ?? [];
  let fileCells = 0;
  let fileSame = 0;
  let fileFair = 0;
  const diffs = [];
  for (const refName of mine) {
    const sheet = refName.slice(base.length + 1, -4);
    if (!names.includes(sheet)) {
      // A sheet LibreOffice exports that the reader does not list (a chart sheet: LibreOffice writes it empty).
      const ref = parseCsv(readFileSync(path.join(refDir, refName), 'utf8'));
      if (ref.every((r) => r.every((c) => c === ''))) continue;
      diffs.push({ sheet, missing: true });
      fileCells += 1;
      continue;
    }
    total.sheets += 1;
    let table;
    try {
      table = await readTable(bytes, { name: file, sheet, numberFormat });
    } catch (e) {
      diffs.push({ sheet, refused: e.code });
      fileCells += 1;
      continue;
    }
    const ref = parseCsv(readFileSync(path.join(refDir, refName), 'utf8'));
    const ours = new Map();
    for (const r of table.records) {
      const cells = r.cells.slice();
      for (const p of r.problems ?? []) if (p.code === 'errorCell') cells[p.col] = p.value;
      ours.set(r.line, cells);
    }
    const covered = new Set((table.merges ?? []).flatMap(([a, b]) => {
      const out = [];
      for (let row = a.row; row <= b.row && out.length < 1e5; row++) for (let col = a.col; col <= b.col; col++) if (row !== a.row || col !== a.col) out.push(`${row}:${col}`);
      return out;
    }));
    const header = mapColumns ? fieldsOf(ref) : null;
    const lines = Math.max(ref.length, ...[...ours.keys(), 0]);
    for (let line = 1; line <= lines; line++) {
      const a = ours.get(line) ?? [];
      const b = ref[line - 1] ?? [];
      for (let col = 0; col < Math.max(a.length, b.length); col++) {
        const x = a[col] ?? '';
        const y = b[col] ?? '';
        if (x === '' && y === '') continue;
        if (y === '' && covered.has(`${line}:${col}`)) continue;
        fileCells += 1;
        if (x === y) fileSame += 1;
        else {
          const why = fair(x, y);
          if (why) {
            fileFair += 1;
            fairCounts[why] = (fairCounts[why] ?? 0) + 1;
          }
          const d = { sheet, cell: `${colName(col)}${line}`, ours: x, libreoffice: y, ...(why ? { fair: why } : {}) };
          if (diffs.length < 2000) diffs.push(d);
          const field = header && line > header.line ? header.fields[col] : null;
          if (field) fieldDiffs.push({ file, field, ...d });
        }
      }
    }
  }
  total.cells += fileCells;
  total.sameCells += fileSame;
  k.cells += fileCells;
  k.sameCells += fileSame;
  if (fileCells === fileSame + fileFair) fairFiles += 1;
  if (fileCells === fileSame) {
    total.same += 1;
    k.same += 1;
  } else report.push({ file, cells: fileCells, differ: fileCells - fileSame, diffs });
}

const pct = (a, b) => (b ? ((100 * a) / b).toFixed(1) : '-');
if (flag('--json')) console.log(JSON.stringify({ total, byKind, fairFiles, fairCounts, report, fieldDiffs }, null, 1));
else {
  console.log(`${dir}: ${total.files} workbooks, ${total.sheets} sheets${numberFormat ? ' (numbers by npm numfmt)' : ''}`);
  console.log(`every cell identical: ${total.same}/${total.files} files (${pct(total.same, total.files)}%), refused ${total.refused}; cells identical ${total.sameCells}/${total.cells} (${pct(total.sameCells, total.cells)}%)`);
  for (const [kind, v] of Object.entries(byKind)) console.log(`  .${kind}: ${v.same}/${v.files} files, refused ${v.refused}, cells ${pct(v.sameCells, v.cells)}%`);
  console.log(`identical but where LibreOffice is not Excel: ${fairFiles}/${total.files} files (${pct(fairFiles, total.files)}%); such cells: ${Object.entries(fairCounts).map(([w, n]) => `${w} ${n}`).join(', ') || 'none'}`);
  if (mapColumns) {
    console.log(`cells of an account field's column that differ: ${fieldDiffs.length}`);
    for (const d of fieldDiffs) console.log(`  ${d.file} ${d.sheet}!${d.cell} (${d.field}): ${JSON.stringify(d.ours)}, LibreOffice ${JSON.stringify(d.libreoffice)}`);
  }
  for (const r of report) {
    if (r.refused) console.log(`refused  ${r.file}: ${r.refused}${r.why ? ` (${r.why})` : ''}`);
    else {
      console.log(`differs  ${r.file}: ${r.differ} of ${r.cells} cells`);
      if (verbose) for (const d of r.diffs.slice(0, 8)) console.log(`    ${JSON.stringify(d)}`);
    }
  }
}
