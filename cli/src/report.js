// @ts-check
// The final report file of a bulk job: one line per input row (CSV, or an .xlsx sheet, or the
// whole report as JSON when the file name ends in .json), written to a new file renamed over the
// old one. CSV and .xlsx through lpm-sheets' writers: no cell is read back as a formula.
import { closeSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toCsv, toXlsx } from 'lpm-sheets/write';
import { CliError, EXIT, systemReason, usage } from './exit.js';
import { formatOf } from './options.js';
/** @import { PathSegment } from 'lpm-client-bulk' */
/** @import { Cell } from 'lpm-sheets/write' */

// A row's result and a report are an import's, a grant's or a sync's (each its own shape, the
// sync's made by the command line): read here by their `kind` and the members each kind has.
/** @typedef {any} RowResult */
/** @typedef {{ rows: any[] }} Report */

/**
 * What to show of a row's result beside its kind.
 * @param {RowResult} result @returns {string}
 */
export function detail(result) {
  switch (result.kind) {
    case 'created': return result.userId;
    case 'failed': return result.status;
    case 'setAside': return result.issues.map((/** @type {{ path: PathSegment[], message: string }} */ i) => `${fieldOf(i)}${i.message}`).join('; ');
    case 'conflict': return `account ${result.existing.userId} (${result.existing.username}, ${result.existing.emails.join(' ')}) already holds this e-mail or username`;
    case 'inDoubt':
    case 'notSent': return result.reason;
    default: return '';
  }
}

/**
 * `field: ` of an issue whose path names a field (`[3, "email"]` or `["email"]`).
 * @param {{ path: PathSegment[] }} issue
 */
export function fieldOf(issue) {
  const keys = issue.path.filter((s) => typeof s === 'string');
  return keys.length ? `${keys.join('.')}: ` : '';
}

/**
 * The format of a report file: `format` when given, else its extension's (csv by default).
 * @param {string} file @param {string | undefined} format
 */
export function reportFormat(file, format) {
  return format || formatOf(file, ['json', 'xlsx']) || 'csv';
}

const tmpOf = (/** @type {string} */ file) => `${file}.${process.pid}.tmp`;

/** Whether two paths name one file: the same inode once both exist, else the same path. */
/** @param {string} a @param {string} b */
function sameFile(a, b) {
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.ino === y.ino && x.dev === y.dev;
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

/**
 * Refuses (exit 2) a file the command would write at its end (a report, `--failed`, the
 * credentials sheet) that cannot be written, before anything is sent: found after a job, it
 * would cost the report of rows already created. `option` names it in the message.
 * @param {string} file @param {string} option @param {Record<string, string | undefined>} [others]
 */
export function checkWritable(file, option, others = {}) {
  // (`others`: the files the command reads or writes besides, by what they are: never written over.)
  for (const [what, other] of Object.entries(others)) {
    if (other !== undefined && sameFile(file, other)) throw usage(`${option} ${file} is the ${what}: name another file, or it would be written over`);
  }
  let dir = false;
  try { dir = statSync(file).isDirectory(); } catch { /* a new file */ }
  if (dir) throw usage(`${option} ${file}: a directory; name a file in it`);
  const tmp = tmpOf(file);
  try {
    closeSync(openSync(tmp, 'w'));
    rmSync(tmp);
  } catch (e) {
    throw usage(`${option} ${file}: cannot write it: ${systemReason(e)}`);
  }
}

/**
 * Writes `bytes` or text to `file` through a temporary file renamed over it; `mode` is the new
 * file's from its creation (credentials: 0600, never readable by others for a moment). A
 * failure (a full disk) leaves no temporary file and says which file, in words (exit 4).
 * @param {string} file @param {string | Uint8Array} data @param {{ mode?: number }} [options]
 */
export function writeAtomic(file, data, { mode = 0o666 } = {}) {
  const tmp = tmpOf(file);
  try {
    writeFileSync(tmp, data, { mode });
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new CliError(EXIT.halted, `cannot write ${file}: ${systemReason(e)}`);
  }
}

/**
 * Writes `records` (the first the header) to `file` as CSV (with the BOM Excel needs), .xlsx, or
 * JSON (an array of objects keyed by the header).
 * @param {string} file @param {Cell[][]} records @param {string} format @param {string} sheetName
 * @param {{ mode?: number }} [options]
 */
export async function writeSheet(file, records, format, sheetName, options) {
  let data;
  if (format === 'xlsx') data = await toXlsx(records, { sheetName });
  else if (format === 'json') {
    const [head, ...rows] = records;
    data = `${JSON.stringify(rows.map((r) => Object.fromEntries((head ?? []).map((h, i) => [h, r[i]]))), null, 1)}\n`;
  } else data = `\uFEFF${toCsv(records)}`;
  writeAtomic(file, data, options);
}

/**
 * Writes `report` (an ImportReport or GrantReport) to `file` as `format` (csv, xlsx or json;
 * default: from the file's extension); `lines` the sheet line of each row (or nothing).
 * @param {string} file @param {Report} report
 * @param {{ lines?: number[], kind?: string, format?: string }} [options]
 */
export async function writeReport(file, report, { lines = [], kind = 'import', format } = {}) {
  let text;
  const as = reportFormat(file, format);
  if (as === 'json') {
    text = `${JSON.stringify(report, null, 1)}\n`;
  } else {
    const head = kind === 'import'
      ? ['row', 'line', 'email', 'username', 'result', 'detail', 'warnings']
      : ['row', 'line', 'user_id', 'result', 'detail'];
    const records = new Array(report.rows.length + 1);
    records[0] = head;
    report.rows.forEach((r, i) => {
      records[i + 1] = kind === 'import'
        ? [r.row + 1, lines[r.row] ?? '', r.email, r.username, r.result.kind, detail(r.result),
          r.warnings ? r.warnings.map((/** @type {{ path: PathSegment[], message: string }} */ w) => `${fieldOf(w)}${w.message}`).join('; ') : '']
        : [r.row + 1, lines[r.row] ?? '', r.userId, r.result.kind, detail(r.result)];
    });
    // The BOM makes Excel read the Vietnamese in it as UTF-8.
    text = as === 'xlsx' ? await toXlsx(records, { sheetName: 'Report' }) : `\uFEFF${toCsv(records)}`;
  }
  writeAtomic(file, text);
}
