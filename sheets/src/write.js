// Results as sheets: CSV and .xlsx from rows of cells, for the command line's reports and exports
// and the dashboard's downloads. Both keep a cell's text a text: in CSV a cell that a spreadsheet
// would run as a formula (starting with = + - @, a tab or a CR) gets a leading apostrophe (OWASP
// "CSV Injection"), except a plain number such as -5 or +84901000001, which a spreadsheet reads
// as a number and never runs; in .xlsx every text is an inline string, never a formula, and keeps
// its leading zeros. JSON outputs are not sheets and stay as they are.
import { zip } from './zip.js';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const QUOTE = /[",\r\n]/;

/** A cell's text as written: '' for undefined or null, numbers in decimal, the rest as strings. */
const textOf = (v) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** `text` made inert for a spreadsheet: a leading apostrophe when it would start a formula. */
export function neutralise(text) {
  const c = text.charCodeAt(0);
  // = + - @ tab CR
  if ((c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13) && !NUMBER.test(text)) return `'${text}`;
  return text;
}

/** One CSV cell: neutralised, then quoted when it holds a comma, a quote or a line break. */
export function csvCell(value) {
  if (typeof value === 'number') return String(value);
  const text = neutralise(textOf(value));
  return QUOTE.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV of `records` (arrays of cells), comma-separated, `\n` after each record. */
export function toCsv(records) {
  const lines = new Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    let line = '';
    for (let k = 0; k < r.length; k++) line += (k ? ',' : '') + csvCell(r[k]);
    lines[i] = `${line}\n`;
  }
  return lines.join('');
}

const XML_ESCAPE = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Text for XML: escaped, characters XML 1.0 cannot hold as `_xHHHH_`, a literal `_xHHHH_` kept. */
function xmlText(s) {
  return s
    .replace(/_x[0-9A-Fa-f]{4}_/g, (m) => `_x005F${m}`)
    .replace(/[&<>"]/g, (c) => XML_ESCAPE[c])
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (c) => `_x${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}_`);
}

const colName = (col) => {
  let s = '';
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
};

/**
 * An .xlsx workbook of one sheet named `sheetName` holding `records` (the first is the header):
 * numbers as numbers, every other cell as text (an inline string: never a formula, leading zeros
 * kept). Resolves with its bytes.
 */
export async function toXlsx(records, { sheetName = 'Sheet1' } = {}) {
  const widths = [];
  const rows = records.map((r, i) => {
    let cells = '';
    for (let k = 0; k < r.length; k++) {
      const v = r[k];
      const ref = `${colName(k)}${i + 1}`;
      if (typeof v === 'number' && Number.isFinite(v)) {
        cells += `<c r="${ref}"><v>${v}</v></c>`;
        widths[k] = Math.max(widths[k] ?? 8, String(v).length);
      } else {
        const text = textOf(v);
        if (text === '') continue;
        cells += `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlText(text)}</t></is></c>`;
        widths[k] = Math.max(widths[k] ?? 8, Math.min(text.length, 60));
      }
    }
    return `<row r="${i + 1}">${cells}</row>`;
  });
  const cols = widths.length ? `<cols>${widths.map((w, k) => `<col min="${k + 1}" max="${k + 1}" width="${(w ?? 8) + 2}" customWidth="1"/>`).join('')}</cols>` : '';
  const name = xmlText(sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1');
  const X = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return zip([
    ['[Content_Types].xml', `${X}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`],
    ['_rels/.rels', `${X}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    ['xl/workbook.xml', `${X}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${R}"><sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`],
    ['xl/_rels/workbook.xml.rels', `${X}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`],
    ['xl/worksheets/sheet1.xml', `${X}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${cols}<sheetData>${rows.join('')}</sheetData></worksheet>`],
  ]);
}
