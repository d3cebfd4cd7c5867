// @ts-check
// Reading a spreadsheet of accounts through lpm-sheets (../sheets), the reader the dashboard uses
// too: CSV (UTF-8 with or without the BOM, UTF-16 "Unicode text"; comma, semicolon or tab; any
// line break) or an .xlsx workbook; the headers mapped to account fields by the package's one
// alias table (mapColumns). Its errors become usage errors naming the file.
import { readFileSync, statSync } from 'node:fs';
import { MAX_BYTES, SheetError, accountRows, fileTooBig, message, problemMessage, readTable } from 'lpm-sheets';
import { REQUIRED_FIELDS, mapColumns } from './lpm.js';
import { usage } from './exit.js';
/** @import { Lang, RowProblem } from 'lpm-sheets' */
/** @import { RowIssue, Sheet } from './types.js' */

/** A usage error naming the file, with the reader's code (`sheetCode`) for tests and callers. */
const sheetUsage = (/** @type {string} */ file, /** @type {string} */ code, /** @type {string} */ text) => Object.assign(usage(`${file}: ${text}`), { sheetCode: code });
const asUsage = (/** @type {string} */ file, /** @type {unknown} */ e) => (e instanceof SheetError ? sheetUsage(file, e.code, e.message) : e);

/** A file's bytes, as a sheet's are read: one past the reader's limit is refused (a usage error)
 * before it is read into memory, and so is one that cannot be read.
 * @param {string} file */
export function readFileBounded(file) {
  try {
    const { size } = statSync(file);
    if (size > MAX_BYTES) throw fileTooBig(size, MAX_BYTES);
    return readFileSync(file);
  } catch (/** @type {any} */ e) {
    if (e instanceof SheetError) throw asUsage(file, e);
    throw usage(`cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'a directory' : e.code || e.message}`);
  }
}

/** The table of a sheet `file` whose `bytes` were read (`readTable` of lpm-sheets): `{ format,
 * delimiter?, sheetName?, records }`.
 * @param {string} file @param {Uint8Array} bytes @param {{ sheet?: string }} [options] */
export async function readTableBytes(file, bytes, { sheet } = {}) {
  try {
    return await readTable(bytes, { name: file, sheet });
  } catch (e) {
    throw asUsage(file, e);
  }
}

/**
 * A sheet file's table (`readTableBytes` of its bounded read).
 * @param {string} file @param {{ sheet?: string }} [options]
 */
export async function readTableFile(file, options) {
  return readTableBytes(file, readFileBounded(file), options);
}

/**
 * Reads a sheet of accounts. Resolves with `{ format, delimiter, sheetName, headers, fields,
 * ignored, skipped, rows }` (`accountRows` of lpm-sheets): `rows` one per data row `{ line,
 * user, problem }`, `line` the line (CSV) or row (xlsx) the sheet shows, `problem` set when the
 * row cannot be read as an account. Rejects with a usage error for an unreadable file, a header
 * without the required columns, or a field named twice.
 * @param {string} file @param {{ sheet?: string, passwords?: boolean }} [options]
 * @returns {Promise<Sheet>}
 */
export async function readSheet(file, { sheet, passwords = false } = {}) {
  const table = await readTableFile(file, { sheet });
  let accounts;
  try {
    accounts = accountRows(table, mapColumns, REQUIRED_FIELDS);
  } catch (e) {
    throw asUsage(file, e);
  }
  if (accounts.twice.length) throw sheetUsage(file, 'twice', message('twice', accounts.twice[0]));
  // `passwords`: the command can do without a password column (--generate-passwords fills the
  // empty cells; sync needs one only to create): each row then has an empty password.
  const missing = passwords ? accounts.missing.filter((f) => f !== 'password') : accounts.missing;
  if (missing.length) {
    const hint = missing.includes('password') ? '; for a sheet without passwords, import or sync it with --generate-passwords' : '';
    throw sheetUsage(file, 'missing', `${message('missing', { fields: missing, headers: accounts.headers })}${hint}`);
  }
  if (accounts.missing.includes('password')) for (const r of accounts.rows) if (!r.problem) r.user.password = '';
  // The required fields are in every row now (their columns are there, a missing password is '').
  return /** @type {Sheet} */ ({ ...accounts, format: table.format, delimiter: table.delimiter, sheetName: table.sheetName });
}

/**
 * The issue of a row that cannot be read (`problem` of readSheet), in the validators' shape; a
 * `warning` (a cell of a column that is no account field) sets no row aside but with --strict.
 * @param {RowProblem} problem @param {Lang} [lang] @param {RowIssue['level']} [level] @returns {RowIssue}
 */
export function problemIssue(problem, lang, level = 'contract') {
  return { path: [], code: problem.code, level, message: problemMessage(problem, lang) };
}
