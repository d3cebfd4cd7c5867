// Reading the first (or a named) sheet of an OpenDocument spreadsheet (.ods, LibreOffice's own
// format) into records as xlsx.js does: a zip whose content.xml holds every sheet, each cell with
// the text it shows (`<text:p>`) beside its value. So a cell reads as that text; repeated rows and
// cells are expanded only where they hold something (a sheet ends in a million repeated empty
// cells); merged areas and error cells as in an .xlsx. content.xml is read as it inflates.
import { SheetError } from './messages.js';
import { attr, colName, elements, own, spreadMerges, unescape } from './xlsx.js';
import { inflateText, partName } from './zip.js';

/** Limits (bytes once inflated): content.xml holds every sheet. */
export const ODS_LIMITS = { contentBytes: 512 * 2 ** 20, maxColumns: 16_384, cells: 5_000_000 };

/** The text a cell shows: its paragraphs, one a line, with their spaces, tabs and line breaks. */
function shown(body) {
  let out = [];
  const inner = body.includes('office:annotation') ? body.replace(/<office:annotation\b[\s\S]*?<\/office:annotation>/g, '') : body;
  for (const m of inner.matchAll(/<text:(?:p|h)\b[^>]*?(?:\/>|>([\s\S]*?)<\/text:(?:p|h)>)/g)) {
    let t = m[1] ?? '';
    if (t.includes('<')) {
      t = t
        .replace(/<text:s\b([^>]*?)\/>/g, (x, a) => ' '.repeat(Math.min(Number(attr(a, 'text:c') ?? 1) || 1, 1000)))
        .replace(/<text:tab\b[^>]*\/>/g, '\t')
        .replace(/<text:line-break\b[^>]*\/>/g, '\n')
        .replace(/<text:note\b[\s\S]*?<\/text:note>/g, '')
        .replace(/<[^>]*>/g, '');
    }
    out.push(unescape(t));
  }
  return out.join('\n');
}

const ROW = /<style:style\b([^>]*)>\s*<style:table-properties\b([^>]*)>|<table:table(?=[\s>])([^>]*)>|<\/table:table>|<table:table-row(?=[\s/>])([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-row>)/g;
const CELL = /<table:(table-cell|covered-table-cell)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/table:\1>)/g;

/**
 * Reads `bytes` (an .ods, its parts `entries` by `partName`) and resolves with `{ sheetName,
 * sheetNames, records, merges }` as readXlsx does. `sheet` names the sheet (default: the first
 * that is not hidden). At most `maxRows` rows.
 */
export async function readOds(bytes, entries, { sheet, maxRows }) {
  const content = entries.get(partName('content.xml'));
  if (!content) throw new SheetError('notXlsx', { why: 'noWorkbook' });
  const want = sheet?.trim().toLowerCase();
  const hiddenStyles = new Set();
  const sheets = [];
  let current = null;
  let chosen = null;
  let done = false;
  let line = 0;
  const records = [];
  const areas = [];
  // Cells kept, repeated ones counted each: a few bytes of XML may repeat a cell 16,384 times a
  // row, and a row a million times.
  let kept = 0;
  const keep = (n) => {
    kept += n;
    if (kept > ODS_LIMITS.cells) throw new SheetError('tooBig', { what: 'cells', limit: ODS_LIMITS.cells });
  };

  const readRow = (attrs, body) => {
    const repeat = Math.max(1, Number(attr(attrs, 'table:number-rows-repeated') ?? 1) || 1);
    const first = line + 1;
    line += repeat;
    if (!body) return;
    const cells = [];
    const problems = [];
    let col = 0;
    CELL.lastIndex = 0;
    for (let m = CELL.exec(body); m; m = CELL.exec(body)) {
      const a = m[2];
      const times = Math.max(1, Number(attr(a, 'table:number-columns-repeated') ?? 1) || 1);
      const inner = m[3] ?? '';
      if (m[1] === 'table-cell' && inner !== '' || /office:value-type/.test(a)) {
        const kind = attr(a, 'calcext:value-type') ?? attr(a, 'office:value-type');
        // (A string of its own: a slice would keep its whole chunk of content.xml alive.)
        let text = own(shown(inner));
        if (text === '' && !/<text:p\b/.test(inner)) text = attr(a, 'office:string-value') ?? attr(a, 'office:value') ?? attr(a, 'office:date-value') ?? attr(a, 'office:time-value') ?? '';
        const spanCols = Number(attr(a, 'table:number-columns-spanned') ?? 1) || 1;
        const spanRows = Number(attr(a, 'table:number-rows-spanned') ?? 1) || 1;
        for (let k = 0; k < times && col + k < ODS_LIMITS.maxColumns; k++) {
          if (kind === 'error') problems.push({ code: 'errorCell', cell: `${colName(col + k)}${first}`, col: col + k, value: text });
          else if (text !== '') cells[col + k] = text;
          if (spanCols > 1 || spanRows > 1) areas.push([{ row: first, col: col + k }, { row: first + spanRows - 1, col: col + k + spanCols - 1 }]);
        }
      }
      col += times;
    }
    if (cells.length === 0 && problems.length === 0) return;
    for (let i = 0; i < cells.length; i++) if (cells[i] === undefined) cells[i] = '';
    keep(cells.length);
    // A row repeated with cells in it is that many rows (bounded by the row limit below).
    for (let r = 0; r < repeat; r++) {
      if (r > 0) keep(cells.length);
      const record = { cells: r === 0 ? cells : cells.slice(), line: first + r };
      if (problems.length) record.problems = r === 0 ? problems : problems.map((p) => ({ ...p, cell: `${colName(p.col)}${first + r}` }));
      records.push(record);
      if (maxRows !== undefined && records.length > maxRows) throw new SheetError('tooManyRows', { limit: maxRows });
    }
  };

  const onText = elements(ROW, ['table-row>', '/>', 'table:table>', 'table-properties'], (m) => {
    if (m[1] !== undefined) {
      if (attr(m[1], 'style:family') === 'table' && attr(m[2], 'table:display') === 'false') hiddenStyles.add(attr(m[1], 'style:name'));
    } else if (m[3] !== undefined) {
      current = { name: attr(m[3], 'table:name') ?? '', hidden: hiddenStyles.has(attr(m[3], 'table:style-name')) };
      sheets.push(current);
      line = 0;
      if (!chosen && !done && (want !== undefined ? current.name.trim().toLowerCase() === want : !current.hidden)) chosen = current;
    } else if (m[0].startsWith('</')) {
      if (current === chosen && chosen) done = true;
      current = null;
    } else if (current && current === chosen && !done) readRow(m[4], m[5]);
  }, { part: content.name });
  await inflateText(bytes, content, { limit: ODS_LIMITS.contentBytes, what: { part: content.name }, onText });
  onText.flush();
  const sheetNames = sheets.map((s) => s.name);
  if (!chosen) {
    if (sheet !== undefined) throw new SheetError('noSheet', { name: sheet, names: sheetNames });
    if (sheets.length === 0) throw new SheetError('notXlsx', { why: 'noSheets' });
    // Every sheet hidden: the first is read, as for an .xlsx.
    return readOds(bytes, entries, { sheet: sheets[0].name, maxRows });
  }
  return { sheetName: chosen.name, sheetNames, records: spreadMerges(records, areas), merges: areas };
}
