// Reading the first (or a named) sheet of an .xlsx workbook into records of cell texts, each as
// the cell shows it: shared and inline strings, numbers and dates through their number format
// (numfmt.js), booleans as TRUE/FALSE. A formula cell is read as the value Excel saved with it; a
// cell showing an error (#REF!, #N/A, ...) or a formula never calculated is a problem of its row.
// Merged cells: the value shows across the merged area, so every cell of it reads that value.
// The sheet's XML is read as it inflates, and reading stops past the row limit.
import { SheetError } from './messages.js';
import { builtinFormat, formatText, formatValue } from './numfmt.js';
import { inflateText, partName, partText, zipEntries } from './zip.js';

/** Limits (bytes once inflated): a sheet's XML, the shared strings, any other part. */
export const XLSX_LIMITS = { sheetBytes: 512 * 2 ** 20, stringsBytes: 64 * 2 ** 20, partBytes: 16 * 2 ** 20, rowBytes: 16 * 2 ** 20 };

const ENTITY = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/**
 * XML text unescaped: CDATA sections kept as they are, line breaks normalised as an XML parser
 * does (CR LF and CR read as LF), entities, and OOXML's `_xHHHH_` escapes of control characters.
 */
export function unescape(s) {
  if (s.includes('<![CDATA[')) return s.split(/<!\[CDATA\[([\s\S]*?)\]\]>/).map((p, i) => (i % 2 ? p.replace(/\r\n?/g, '\n') : unescape(p))).join('');
  if (s.includes('\r')) s = s.replace(/\r\n?/g, '\n');
  if (s.includes('&')) {
    s = s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e) => {
      if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
      return ENTITY[e] ?? m;
    });
  }
  if (s.includes('_x')) s = s.replace(/_x([0-9A-Fa-f]{4})_/g, (m, h) => String.fromCharCode(parseInt(h, 16)));
  // Decision: a line break written as CR LF (`&#13;&#10;`, `_x000D_` and a break) is one, as Excel shows it.
  if (s.includes('\r\n')) s = s.replace(/\r\n/g, '\n');
  return s;
}

const attrRes = new Map();
export const attr = (attrs, name) => {
  let re = attrRes.get(name);
  // Either quote: XML allows both, and some writers use single quotes.
  if (!re) attrRes.set(name, (re = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)));
  const m = re.exec(attrs);
  return m ? unescape(m[1] ?? m[2]) : undefined;
};

/**
 * `s` as a string of its own. V8 keeps a substring of 13 characters or more as a view of the text
 * it was cut from, so every shared string kept its whole chunk of the part's XML alive. A
 * concatenation is copied into one string of its own when first read (`charCodeAt` flattens it);
 * an engine that does not copy keeps the view, as before.
 */
export const own = (s) => {
  if (s.length < 13) return s;
  const copy = s[0] + s.slice(1);
  copy.charCodeAt(0);
  return copy;
};

/** The text of a string item (`<si>`, `<is>`): its runs' `<t>`, without phonetic runs. */
function runsText(xml) {
  // One plain <t> (nearly every item): cut out without the regular expressions below.
  if (xml.startsWith('<t') && xml.endsWith('</t>') && (xml[2] === '>' || xml[2] === ' ')) {
    const open = xml.indexOf('>') + 1;
    if (xml.indexOf('<', open) === xml.length - 4) return own(unescape(xml.slice(open, -4)));
  }
  const body = xml.includes('rPh') ? xml.replace(/<(\w+:)?rPh\b[\s\S]*?<\/(\w+:)?rPh>/g, '') : xml;
  let out = '';
  for (const m of body.matchAll(/<(?:\w+:)?t(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?t>/g)) out += m[1];
  return own(unescape(out));
}

/**
 * Text as it inflates, cut into the complete elements `re` (global) matches: `each(match)` for
 * each, in order. Pieces are joined only when one may close an element (`closing` seen), so text
 * that holds no element (a bomb of spaces) is never copied; past `XLSX_LIMITS.rowBytes` of it,
 * the part is refused. `end` (a regex) marks where the elements end: what follows goes to
 * `rest(text)`.
 */
export function elements(re, closing, each, what, end, rest) {
  let pieces = [];
  let size = 0;
  let last = '';
  let over = false;
  const cut = () => {
    const text = pieces.length === 1 ? pieces[0] : pieces.join('');
    re.lastIndex = 0;
    let done = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      each(m);
      done = re.lastIndex;
    }
    let tail = text.slice(done);
    const stop = end ? tail.search(end) : -1;
    if (stop !== -1) {
      over = true;
      rest?.(tail.slice(stop));
      tail = '';
    }
    if (tail.length > XLSX_LIMITS.rowBytes) throw new SheetError('tooBig', { what: 'element', ...what, limitMib: XLSX_LIMITS.rowBytes / 2 ** 20 });
    pieces = [tail];
    size = tail.length;
  };
  const push = (chunk) => {
    if (over) return rest?.(chunk);
    pieces.push(chunk);
    size += chunk.length;
    const near = last + chunk.slice(0, 16);
    last = chunk.slice(-16);
    if (closing.some((c) => chunk.includes(c) || near.includes(c)) || size > XLSX_LIMITS.rowBytes) cut();
  };
  // The end of the part: what is left is cut too.
  push.flush = () => over || cut();
  return push;
}

const CELL_ATTR = /(?:^|\s)([rts])\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
/** A cell's `r`, `t` and `s` attributes in one pass (a sheet has a million cells; none of the
 * three holds an entity). */
function cellAttrs(a, out) {
  out.r = undefined;
  out.t = 'n';
  out.s = 0;
  CELL_ATTR.lastIndex = 0;
  for (let m = CELL_ATTR.exec(a); m; m = CELL_ATTR.exec(a)) {
    const v = m[2] ?? m[3];
    if (m[1] === 'r') out.r = v;
    else if (m[1] === 't') out.t = v;
    else out.s = Number(v);
  }
  return out;
}

/** A cell reference's column (0-based), -1 when it is none ("BC12", "bc12", "$BC$12" -> 54). */
function colOf(ref) {
  if (ref === undefined) return -1;
  let col = 0;
  let i = ref.charCodeAt(0) === 36 ? 1 : 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 32;
    if (c < 97 || c > 122) break;
    col = col * 26 + (c - 96);
  }
  return col > 0 && col <= 16384 && i < ref.length ? col - 1 : -1;
}

/** "BC12" (or "bc12", or "$BC$12") -> { col: 54, row: 12 } (0-based column). */
export function cellRef(ref) {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(ref ?? '');
  if (!m) return null;
  let col = 0;
  for (const ch of m[1].toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { col: col - 1, row: Number(m[2]) };
}

export const colName = (col) => {
  let s = '';
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
};

/** A part's target resolved against the folder of the part whose rels name it. */
function resolve(base, target = '') {
  target = target.replace(/\\/g, '/');
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const p of target.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.') parts.push(p);
  }
  return parts.join('/');
}

function relsOf(xml) {
  const map = new Map();
  for (const m of xml.matchAll(/<(?:\w+:)?Relationship\b([^>]*)\/?>/g)) map.set(attr(m[1], 'Id'), { target: attr(m[1], 'Target'), type: attr(m[1], 'Type') ?? '' });
  return map;
}

const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);
/**
 * The serial of a date written as ISO 8601 text (`t="d"`, as Excel's Strict Open XML and some
 * libraries save dates): `2014-01-16T15:59:59.999`, a date alone or a time alone (`T15:59:59`,
 * `15:59:59`). Undefined when it is not one.
 */
function serialOf(text, date1904) {
  const m = /^(?:(\d{4,})-(\d\d)-(\d\d))?(?:T?(\d\d):(\d\d)(?::(\d\d(?:\.\d+)?))?)?(Z|[+-]\d\d:?\d\d)?$/.exec(text);
  if (!m || (m[1] === undefined && m[4] === undefined)) return undefined;
  const time = ((Number(m[4] ?? 0) * 60 + Number(m[5] ?? 0)) * 60 + Number(m[6] ?? 0)) / 86400;
  if (m[1] === undefined) return time;
  const day = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (!Number.isFinite(day)) return undefined;
  let days = (day - (date1904 ? EPOCH_1904 : EPOCH_1900)) / 86400000;
  // Excel's 1900 system counts a 29 February 1900 that never was: serials before 1 March 1900 are one less.
  if (!date1904 && days > 0 && days < 61) days -= 1;
  return days + time;
}

/**
 * Reads `bytes` (an .xlsx) and resolves with `{ sheetName, sheetNames, records }`: `records` one
 * per row that has a cell, `{ cells, line, problems? }`, `line` the row's number in the sheet,
 * `problems` (absent: none) the cells the row cannot be read from (`{ code: 'errorCell'|'formula', cell, value }`).
 * `sheet` names the sheet to read (default: the first that is not hidden). At most `maxRows` rows.
 */
export async function readXlsx(bytes, { sheet, maxRows, numberFormat = formatValue, entries = zipEntries(bytes) }) {
  // Part names are matched as a zip reader on Windows does: any case, `\` or `/`.
  const parts = { get: (name) => entries.get(partName(name)), has: (name) => entries.has(partName(name)) };
  const text = async (name, limit = XLSX_LIMITS.partBytes) => {
    const entry = parts.get(name);
    return entry ? partText(bytes, entry, limit, { part: name }) : undefined;
  };
  const rootRels = relsOf((await text('_rels/.rels')) ?? '');
  const office = [...rootRels.values()].find((r) => r.type.endsWith('/officeDocument'));
  const bookPath = office ? resolve('', office.target) : 'xl/workbook.xml';
  const book = await text(bookPath);
  if (book === undefined) {
    throw new SheetError('notXlsx', { why: parts.has('word/document.xml') ? 'word' : parts.has('content.xml') ? 'openDocument' : 'noWorkbook' });
  }
  const bookRels = relsOf((await text(resolve(bookPath, '_rels/' + bookPath.split('/').pop() + '.rels'))) ?? '');
  const pr = /<(?:\w+:)?workbookPr\b([^>]*)/.exec(book)?.[1] ?? '';
  const date1904 = /^(1|true)$/.test(attr(pr, 'date1904') ?? '');
  // The sheets that hold cells: a chart sheet (or a dialog sheet) is listed among them but has none.
  const sheets = [...book.matchAll(/<(?:\w+:)?sheet\b([^>]*?)\/?>/g)].map((m) => ({
    name: attr(m[1], 'name') ?? '',
    rel: attr(m[1], 'r:id') ?? (/\s(\w+):id\s*=\s*["']([^"']*)/.exec(m[1])?.[2]),
    hidden: /^(hidden|veryHidden)$/.test(attr(m[1], 'state') ?? ''),
  })).filter((s) => !/\/(chartsheet|dialogsheet)$/.test(bookRels.get(s.rel)?.type ?? ''));
  const sheetNames = sheets.map((s) => s.name);
  let chosen;
  if (sheet !== undefined) {
    const want = sheet.trim().toLowerCase();
    chosen = sheets.find((s) => s.name.trim().toLowerCase() === want);
    if (!chosen) throw new SheetError('noSheet', { name: sheet, names: sheetNames });
  } else {
    chosen = sheets.find((s) => !s.hidden) ?? sheets[0];
    if (!chosen) throw new SheetError('notXlsx', { why: 'noSheets' });
  }
  const rel = bookRels.get(chosen.rel);
  const sheetPath = rel ? resolve(bookPath, rel.target) : 'xl/worksheets/sheet1.xml';
  const sheetEntry = parts.get(sheetPath);
  if (!sheetEntry) throw new SheetError('notXlsx', { why: 'sheetMissing', sheet: chosen.name });

  // Shared strings and number formats, named by the workbook's relationships.
  const relOf = (kind) => [...bookRels.values()].find((r) => r.type.endsWith(`/${kind}`));
  const stringsRel = relOf('sharedStrings');
  const strings = [];
  // (A part the relationships do not name is looked for where Excel puts it.)
  const stringsEntry = parts.get(stringsRel ? resolve(bookPath, stringsRel.target) : 'xl/sharedStrings.xml');
  if (stringsEntry) {
    const onText = elements(/<(?:\w+:)?si\b[^>]*?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?si>)/g, ['si>', '/>'], (m) => strings.push(m[1] ? runsText(m[1]) : ''), { part: stringsEntry.name });
    await inflateText(bytes, stringsEntry, { limit: XLSX_LIMITS.stringsBytes, what: { part: stringsEntry.name }, onText });
    onText.flush();
  }
  const stylesRel = relOf('styles');
  const styles = (await text(stylesRel ? resolve(bookPath, stylesRel.target) : 'xl/styles.xml')) ?? '';
  const custom = new Map();
  for (const m of styles.matchAll(/<(?:\w+:)?numFmt\b([^>]*?)\/?>/g)) custom.set(Number(attr(m[1], 'numFmtId')), attr(m[1], 'formatCode') ?? '');
  const xfs = /<(?:\w+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:\w+:)?cellXfs>/.exec(styles)?.[1] ?? '';
  const formats = [...xfs.matchAll(/<(?:\w+:)?xf\b([^>]*?)\/?>/g)].map((m) => {
    const id = Number(attr(m[1], 'numFmtId') ?? 0);
    return custom.get(id) ?? builtinFormat(id);
  });
  // A text cell shows through its format's text section only where the format has one.
  const textFormats = formats.map((f) => (f.includes(';') || /@./.test(f) || /.@/.test(f) ? f : undefined));

  const records = [];
  let lastRow = 0;
  const rowRe = /<(?:\w+:)?row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?row>)/g;
  const cellRe = /<(?:\w+:)?c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g;
  const valueRe = /<(?:\w+:)?v(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?v>/;
  const readRow = (attrs, body) => {
    const number = Number(attr(attrs, 'r')) || lastRow + 1;
    const again = number === lastRow && records[records.length - 1]?.line === number ? records.pop() : undefined;
    lastRow = number;
    if (!body) {
      if (again) records.push(again);
      return;
    }
    // A row written twice (its number repeated) is one row: its cells are joined.
    const cells = again ? again.cells.slice() : [];
    const problems = again?.problems ?? [];
    let col = -1;
    const at = {};
    cellRe.lastIndex = 0;
    for (let m = cellRe.exec(body); m; m = cellRe.exec(body)) {
      const { r, t: type, s: style } = cellAttrs(m[1], at);
      const c = colOf(r);
      col = c === -1 ? col + 1 : c;
      const inner = m[2] ?? '';
      const raw = valueRe.exec(inner)?.[1];
      let value = '';
      if (type === 'inlineStr') value = runsText(inner);
      else if (raw === undefined) {
        if (/<(?:\w+:)?f\b/.test(inner)) problems.push({ code: 'formula', cell: `${colName(col)}${number}`, col });
      } else if (raw === '') value = '';
      else if (type === 's') value = strings[Number(raw)] ?? '';
      else if (type === 'str') value = unescape(raw);
      else if (type === 'd') {
        const serial = serialOf(unescape(raw).trim(), date1904);
        value = serial === undefined ? unescape(raw) : numberFormat(serial, formats[style] ?? 'General', date1904);
      }
      else if (type === 'b') value = raw.trim() === '1' ? 'TRUE' : 'FALSE';
      else if (type === 'e') problems.push({ code: 'errorCell', cell: `${colName(col)}${number}`, col, value: unescape(raw) });
      else {
        const n = Number(raw);
        value = Number.isFinite(n) ? numberFormat(n, formats[style], date1904) : unescape(raw);
      }
      if (value !== '' && textFormats[style] && (type === 's' || type === 'str' || type === 'inlineStr')) value = formatText(value, textFormats[style]);
      if (value !== '') cells[col] = value;
    }
    if (cells.length === 0 && problems.length === 0) return;
    for (let i = 0; i < cells.length; i++) if (cells[i] === undefined) cells[i] = '';
    // (A copy of its own length: an array grown cell by cell holds room for more; `problems`
    // only where there are some: a sheet's every row holds what is kept here.)
    const record = { cells: cells.slice(), line: number };
    if (problems.length) record.problems = problems;
    records.push(record);
    if (maxRows !== undefined && records.length > maxRows) throw new SheetError('tooManyRows', { limit: maxRows });
  };
  let after = '';
  const onText = elements(rowRe, ['row>', '/>'], (m) => readRow(m[1], m[2]), { sheet: chosen.name }, /<\/(?:\w+:)?sheetData>/, (t) => {
    // What follows the rows (merged cells, then page setup): kept up to a part's limit.
    if (after.length < XLSX_LIMITS.partBytes) after += t;
  });
  await inflateText(bytes, sheetEntry, { limit: XLSX_LIMITS.sheetBytes, what: { sheet: chosen.name }, onText });
  onText.flush();

  // Merged areas (listed after the rows).
  const merges = [...after.matchAll(/<(?:\w+:)?mergeCell\b([^>]*)/g)].map((m) => (attr(m[1], 'ref') ?? '').split(':'));
  const areas = merges.map(([from, to = from]) => [cellRef(from), cellRef(to)]).filter(([a, b]) => a && b);
  return { sheetName: chosen.name, sheetNames, records: spreadMerges(records, areas), merges: areas };
}

/** The columns of a row a merge filled sideways (`has(col)`), as ranges: one a merged area. */
class Spread {
  #ranges = [];
  add(from, to) {
    this.#ranges.push(from, to);
  }

  has(col) {
    for (let i = 0; i < this.#ranges.length; i += 2) if (col >= this.#ranges[i] && col <= this.#ranges[i + 1]) return true;
    return false;
  }
}

/**
 * Merged areas (`[from, to]` cell refs): each cell of one shows the top-left cell's value. The
 * header is found by table.js, which needs to know which header cells a merge filled sideways
 * (`spread`) and how far down a header cell reaches (`down`). Returns `records`, in row order.
 */
export function spreadMerges(records, areas) {
  if (areas.length) {
    const byLine = new Map(records.map((r) => [r.line, r]));
    // Decision: merged areas are spread over 2 million cells at most in all (a sheet of many
    // huge merges would otherwise cost memory its file's size does not bound); past it, not.
    let budget = 2e6;
    for (const [a, b] of areas) {
      const size = (b.row - a.row + 1) * (b.col - a.col + 1);
      if (b.row < a.row || b.col < a.col || size > 1e6 || (budget -= size) < 0) continue;
      const anchor = byLine.get(a.row);
      const value = anchor?.cells[a.col] ?? '';
      if (value === '') continue;
      if (b.row > a.row) anchor.down = Math.max(anchor.down ?? 0, b.row);
      for (let row = a.row; row <= b.row; row++) {
        let r = byLine.get(row);
        if (!r) {
          r = { cells: [], line: row, problems: [] };
          byLine.set(row, r);
          records.push(r);
        }
        for (let col = a.col; col <= b.col; col++) {
          if (row === a.row && col === a.col) continue;
          r.cells[col] = value;
        }
        if (b.col > a.col) (r.spread ??= new Spread()).add(a.col + 1, b.col);
        for (let i = 0; i < r.cells.length; i++) if (r.cells[i] === undefined) r.cells[i] = '';
      }
    }
    records.sort((x, y) => x.line - y.line);
  }
  return records;
}
