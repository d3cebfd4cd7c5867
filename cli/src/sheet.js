// Reading a spreadsheet of accounts: CSV in UTF-8 with or without the BOM Excel writes (or the
// UTF-16 "Unicode text" Excel also saves), the delimiter detected among comma, semicolon and
// tab, the headers mapped to account fields by the package's one alias table (mapColumns).
import { readFileSync } from 'node:fs';
import { mapColumns } from './lpm.js';
import { usage } from './exit.js';
import { lazy } from './lazy.js';

const REQUIRED = ['name', 'username', 'email', 'password'];
/** csv-parse, for a sheet with a quote or mixed line breaks (plainRecords reads the others). */
const csvParse = lazy('csv-parse/sync');
const DELIMITERS = [',', ';', '\t'];

/** The file's text: UTF-8 (a BOM is dropped by the parser), or UTF-16 LE/BE with its BOM. */
export function decode(bytes, file) {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw usage(`${file} is not UTF-8 text: in Excel, save it as "CSV UTF-8 (Comma delimited)"`);
  }
}

/** The delimiter of the header line: the most frequent of , ; and tab outside quotes (comma on a tie). */
export function detectDelimiter(text) {
  const counts = new Map(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch) + 1);
  }
  let best = ',';
  for (const d of DELIMITERS) if (counts.get(d) > counts.get(best)) best = d;
  return best;
}

/**
 * The records of a sheet whose every record is one line, as csv-parse reads it with the options
 * of `records`: no quote (so no line break or delimiter inside a cell) and one kind of line break
 * (csv-parse takes the first one as the record delimiter, so mixed breaks can join lines into a
 * record). Each non-empty line is a record, its cells what lies between delimiters (BOM dropped).
 * Otherwise undefined. A split where csv-parse reads character by character: ~10x cheaper on a
 * 10,000-row sheet (~60 -> ~6 ms); test/sheet.test.mjs holds the two equal on such texts.
 */
export function plainRecords(text, delimiter) {
  if (text.includes('"')) return undefined;
  // Counted with indexOf (splitting a big sheet three times made ~30,000 strings a 10,000 rows).
  const count = (s) => { let n = 0; for (let i = text.indexOf(s); i !== -1; i = text.indexOf(s, i + s.length)) n += 1; return n; };
  const lf = count('\n');
  const cr = count('\r');
  if (!(cr === 0 || (cr === lf && count('\r\n') === lf))) return undefined;
  const brk = cr === 0 ? '\n' : '\r\n';
  const out = [];
  let from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let line = 1; ; line += 1) {
    const found = text.indexOf(brk, from);
    const end = found === -1 ? text.length : found;
    if (end > from) out.push({ cells: text.slice(from, end).split(delimiter), line });
    if (found === -1) return out;
    from = end + brk.length;
  }
}

/** Every record of `text` with its line number, as arrays of cells. */
function records(text, file) {
  const delimiter = detectDelimiter(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const plain = plainRecords(text, delimiter);
  if (plain) return { delimiter, records: plain };
  try {
    const out = csvParse().parse(text, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: true, info: true });
    return { delimiter, records: out.map(({ record, info }) => ({ cells: record, line: info.lines })) };
  } catch (e) {
    throw usage(`${file}: not readable as CSV${e.lines ? ` (line ${e.lines})` : ''}: ${e.message}`);
  }
}

/**
 * Reads a sheet of accounts. Resolves with `{ fields, ignored, delimiter, rows }`: `fields` the
 * field of each column (null: ignored), `rows` one per data record `{ line, user, problem }`:
 * `user` the NewUser-shaped object, `problem` set when the record cannot be read as a row (more
 * cells than the header: a delimiter inside an unquoted cell shifted it). Throws a usage error
 * for an unreadable file, a header without the required columns, or a field named twice.
 */
export function readSheet(file) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw usage(`cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.code || e.message}`);
  }
  const { delimiter, records: all } = records(decode(bytes, file), file);
  if (all.length === 0) throw usage(`${file} is empty: the first line must name the columns`);
  const headers = all[0].cells.map((h) => h.trim());
  const fields = mapColumns(headers);
  const seen = new Map();
  fields.forEach((f, i) => {
    if (f === null) return;
    if (seen.has(f)) throw usage(`${file}: columns "${headers[seen.get(f)]}" and "${headers[i]}" both stand for ${f}`);
    seen.set(f, i);
  });
  const missing = REQUIRED.filter((f) => !seen.has(f));
  if (missing.length) {
    throw usage(`${file}: no column for ${missing.join(', ')} (the header line is: ${headers.join(' | ')})`);
  }
  const ignored = headers.filter((h, i) => fields[i] === null && h !== '');
  const rows = all.slice(1).map(({ cells, line }) => {
    const user = {};
    fields.forEach((f, i) => {
      if (f === null) return;
      // Decision: cells are trimmed (a space around a spreadsheet value is never meant), and an
      // empty optional cell is left out rather than sent as "".
      const cell = (cells[i] ?? '').trim();
      if (cell !== '' || REQUIRED.includes(f)) user[f] = cell;
    });
    const extra = cells.slice(headers.length).some((c) => c.trim() !== '');
    const problem = extra ? { cells: cells.length, columns: headers.length } : null;
    return { line, user, problem };
  });
  return { fields, headers, ignored, delimiter, rows };
}

const CELLS = {
  en: (p) => `this line has ${p.cells} cells but the header has ${p.columns} columns: a delimiter inside a cell? Quote the cell`,
  vi: (p) => `dòng này có ${p.cells} ô nhưng dòng tiêu đề có ${p.columns} cột: có dấu phân cách trong một ô? Hãy đặt ô trong dấu ngoặc kép`,
};

/** The issue of a row that cannot be read (`problem` of readSheet), in the validators' shape. */
export function problemIssue(problem, lang) {
  return { path: [], code: 'cells', level: 'contract', message: (CELLS[lang] ?? CELLS.en)(problem) };
}
