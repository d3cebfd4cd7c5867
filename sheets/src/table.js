// A sheet's records as rows of accounts: the header found, mapped to account fields by the
// package's one alias table (`mapColumns`, given by the caller: the command line's and the
// dashboard's builds of lpm-client both have it), each data row with its line and its problem.
import { SheetError } from './messages.js';

/** The most data rows a sheet may hold (an import of that many takes a week at the contract's pace). */
export const MAX_ROWS = 100_000;
/** How far down a title above the header may reach. */
const HEADER_SEARCH = 10;

const blank = (r) => !(r.problems?.length) && r.cells.every((c) => c.trim() === '');

/**
 * The header, as `{ at, end }`: the first record naming at least two account fields among the
 * first ten (a title above it, often a merged cell, is skipped), else the first record; `end`
 * its last line, lower when a header cell is merged down over a second header line (a grouped
 * header: "Địa chỉ" over "Tỉnh/Thành phố" and "Quận/Huyện").
 */
function findHeader(records, mapColumns) {
  let at = 0;
  for (let i = 0; i < Math.min(records.length, HEADER_SEARCH); i++) {
    if (mapColumns(records[i].cells.map((c) => c.trim())).filter(Boolean).length >= 2) {
      at = i;
      break;
    }
  }
  return { at, end: records[at].down ?? records[at].line };
}

/**
 * A data row: `line`, `problem`, and its `cells` and `user` read from its record when asked, so a
 * sheet of 100,000 rows holds each row's text once, not as cells and an account too. `user` is
 * made once and kept (a caller may fill in a password); `account()` is that user when it was
 * made, else a new one that is not kept (validating every row keeps none).
 */
class AccountRow {
  #record;
  #used;
  #user;
  constructor(record, used, problem, warnings) {
    this.line = record.line;
    this.problem = problem;
    if (warnings) this.warnings = warnings;
    this.#record = record;
    this.#used = used;
  }

  get cells() {
    const cells = this.#record.cells;
    // A line break inside a cell (Alt+Enter in Excel) is a space: an account field is one line.
    return cells.some((c) => c.includes('\n') || c.includes('\r')) ? cells.map((c) => c.replace(/[\r\n]+/g, ' ')) : cells;
  }

  get user() {
    return (this.#user ??= this.account());
  }

  account() {
    if (this.#user) return this.#user;
    const cells = this.cells;
    const user = {};
    for (const [i, f, required] of this.#used) {
      const cell = (cells[i] ?? '').trim();
      if (cell !== '' || required) user[f] = cell;
    }
    return user;
  }
}

/**
 * Reads a table (`readTable`) as accounts: `{ headers, fields, ignored, missing, twice, skipped,
 * rows }`. `fields[i]` the field of column i (null: not an account field), `ignored` the named
 * columns that are not fields, `missing` the required fields without a column, `twice` the
 * fields two columns stand for (`{ field, first, second }`), `skipped` the lines above the
 * header, `rows` one per data row: `{ line, cells, user, problem }`, `user` NewUser-shaped (cells
 * trimmed: a space around a spreadsheet value is never meant; a line break inside a cell read as
 * a space; an empty optional cell left out rather than sent as ""), `problem` set when the row cannot be read as an account (a cell
 * of an account field's column showing an error or holding a formula never calculated, more
 * cells than the header has columns), `warnings` (absent: none) such cells of the other columns. Rows whose every cell is blank are
 * left out: a spreadsheet writes them for formatted empty rows. Throws a SheetError for an empty
 * sheet or more than MAX_ROWS data rows. `mapColumns` and `required` (the fields every account
 * needs) are the client package's (`mapColumns`, `REQUIRED_FIELDS`): the one table, in Rust.
 */
export function accountRows(table, mapColumns, required) {
  const records = table.records.filter((r) => !blank(r));
  if (records.length === 0) throw new SheetError('empty');
  const { at, end } = findHeader(records, mapColumns);
  let first = at;
  while (first < records.length && records[first].line <= end) first += 1;
  const band = records.slice(at, first);
  const width = Math.max(...band.map((r) => r.cells.length));
  const headers = [];
  for (let c = 0; c < width; c++) {
    let h = '';
    for (const r of band) {
      const cell = (r.cells[c] ?? '').trim();
      if (cell !== '' && !r.spread?.has(c)) h = cell;
    }
    headers.push(h);
  }
  const fields = mapColumns(headers);
  const seen = new Map();
  const twice = [];
  fields.forEach((f, i) => {
    if (f === null) return;
    if (seen.has(f)) twice.push({ field: f, first: headers[seen.get(f)], second: headers[i] });
    else seen.set(f, i);
  });
  const missing = required.filter((f) => !seen.has(f));
  const ignored = headers.filter((h, i) => fields[i] === null && h !== '');
  const data = records.slice(first);
  if (data.length > MAX_ROWS) throw new SheetError('tooManyRows', { limit: MAX_ROWS });
  // The columns read, each with its field (the first column of a field; plain loops: this runs
  // once a row, up to MAX_ROWS).
  const used = [];
  fields.forEach((f, i) => { if (f !== null && seen.get(f) === i) used.push([i, f, required.includes(f)]); });
  // Decision: a cell that shows an error or a formula never calculated sets its row aside only
  // in a column read into the account; elsewhere (a grade, a fee) it is the row's warning.
  const read = new Set(used.map(([i]) => i));
  const rows = new Array(data.length);
  for (let k = 0; k < data.length; k++) {
    const record = data[k];
    const cells = record.cells;
    let problem = null;
    let warnings;
    for (const p of record.problems ?? []) {
      if (read.has(p.col)) problem ??= p;
      else (warnings ??= []).push(p);
    }
    if (!problem && cells.length > headers.length && cells.slice(headers.length).some((c) => c.trim() !== '')) problem = { code: 'cells', cells: cells.length, columns: headers.length };
    rows[k] = new AccountRow(record, used, problem, warnings);
  }
  return { headers, fields, ignored, missing, twice, skipped: records.slice(0, at).map((r) => r.line), rows };
}
