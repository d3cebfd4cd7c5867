// `lpm grant --users FILE|IDS --courses IDS --journal J`: client.grantCourses, chunked, journaled.
import { existsSync } from 'node:fs';
import { count, usage } from '../exit.js';
import { clientOf, notTheToken } from '../config.js';
import { formatOption, intOption, langOption } from '../options.js';
import { journalOf, runJob } from '../job.js';
import { readFileBounded, readTableBytes } from '../sheet.js';
import { checkWritable } from '../report.js';
import { checkCourses } from '../courses.js';

const list = (text) => text.split(',').map((s) => s.trim()).filter(Boolean);
const ID_HEADERS = new Set(['id', '_id', 'userid', 'user_id', 'user id', 'account id', 'mã tài khoản']);
/** The columns of `lpm sync`'s report: `account` holds account ids there only (in a sheet of
 * students, "Account" is a login name, as mapColumns reads "Tài khoản"). */
const SYNC_REPORT = ['account', 'result'];
/** The columns of `lpm import`'s report: its created rows' account ids are in `detail`. */
const IMPORT_REPORT = ['row', 'line', 'email', 'username', 'result', 'detail'];

/**
 * The account ids of `--users`: a sheet (CSV or .xlsx: a column headed id/_id/userId, the
 * accounts an `lpm import` report records as created or an `lpm sync` report's, else one id a
 * line), one of lpm's JSON reports, or ids separated
 * by commas. Resolves with { ids, lines, source }. A sheet of several columns none of which
 * holds ids is refused: its first cells are names or e-mails, never ids to send.
 */
export async function usersOf(arg) {
  if (!existsSync(arg)) {
    // Decision: an argument with a path separator or a file extension is a file name (account ids
    // have neither), so a misspelt file is refused rather than granted to an account of its name.
    if (/[/\\]|\.[A-Za-z]{2,4}$/.test(arg)) throw usage(`--users ${arg}: no such file (account ids are given separated by commas)`);
    return { ids: list(arg), lines: [], source: 'the command line' };
  }
  const bytes = readFileBounded(arg);
  if (isJson(arg, bytes)) return jsonUsers(arg, bytes);
  const { records } = await readTableBytes(arg, bytes);
  const heads = records.map((r) => r.cells.map((h) => h.trim().toLowerCase()));
  // The header: among the first ten lines (a title may stand above it), as accounts are read.
  const at = heads.slice(0, 10).findIndex((h) => h.some((c) => ID_HEADERS.has(c)) || [IMPORT_REPORT, SYNC_REPORT].some((r) => r.every((c) => h.includes(c))));
  const pick = (col, keep = () => true) => {
    const rows = records.slice(at + 1).filter(({ cells }) => keep(cells))
      .map(({ cells, line }) => ({ id: (cells[col] ?? '').trim(), line })).filter((r) => r.id);
    return { ids: rows.map((r) => r.id), lines: rows.map((r) => r.line) };
  };
  if (at >= 0) {
    const head = heads[at];
    const col = head.findIndex((h) => ID_HEADERS.has(h));
    // A sync report names in `account` also the other person's account a row conflicts with:
    // only its rows that exist or were created are the sheet's accounts.
    const result = head.indexOf('result');
    if (col < 0 && SYNC_REPORT.every((c) => head.includes(c))) {
      return { ...pick(head.indexOf('account'), (cells) => SYNC_ACCOUNTS.includes(cells[result]?.trim())), source: `${arg} (its accounts that exist or were created)` };
    }
    if (col >= 0) return { ...pick(col), source: arg };
    return { ...pick(head.indexOf('detail'), (cells) => cells[result]?.trim() === 'created'), source: `${arg} (the accounts it records as created)` };
  }
  const wide = records.find((r) => r.cells.filter((c) => c.trim()).length > 1);
  if (wide) {
    throw usage(`${arg}: no column of account ids (headed id, _id, userId or user_id); its columns: ${wide.cells.map((c) => c.trim()).filter(Boolean).join(', ')}. ` +
      'For a sheet of students, `lpm sync FILE --courses IDS` finds their accounts and grants them; or give one id a line');
  }
  const rows = records.map(({ cells, line }) => ({ id: (cells[0] ?? '').trim(), line })).filter((r) => r.id);
  return { ids: rows.map((r) => r.id), lines: rows.map((r) => r.line), source: arg };
}

/** The results of a sync report's rows whose `account` is the sheet's own. */
const SYNC_ACCOUNTS = ['exists', 'created'];

/** A file that holds JSON: named .json, or starting with `{` or `[` (lpm's own JSON reports). */
function isJson(file, bytes) {
  if (/\.json$/i.test(file)) return true;
  const text = new TextDecoder().decode(bytes.subarray(0, 64)).replace(/^\uFEFF/, '').trimStart();
  return text.startsWith('{') || text.startsWith('[');
}

/**
 * The account ids of one of `lpm`'s JSON reports: an import's (the rows it created), a grant's
 * (its accounts), a sync's (its accounts that exist or were created). Other JSON is refused: read
 * as a sheet, its lines would be sent as ids.
 */
function jsonUsers(file, bytes) {
  let data;
  try {
    data = JSON.parse(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ''));
  } catch {
    throw usage(`${file}: not JSON (a report lpm wrote as JSON, a sheet, or ids separated by commas)`);
  }
  const str = (v) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  let ids;
  let which;
  if (Array.isArray(data?.rows)) {
    // An import's rows carry `result.userId` when created; a grant's carry `userId`.
    ids = data.rows.map((r) => (r?.result?.kind === 'created' ? str(r.result.userId) : str(r?.userId)));
    which = data.rows.some((r) => r?.userId !== undefined) ? 'its accounts' : 'the accounts it records as created';
  } else if (Array.isArray(data) && data.every((r) => r && typeof r === 'object' && 'account' in r && 'result' in r)) {
    ids = data.map((r) => (SYNC_ACCOUNTS.includes(r.result) ? str(r.account) : undefined));
    which = 'its accounts that exist or were created';
  } else {
    throw usage(`${file}: JSON, but not a report of lpm import, grant or sync: give a sheet with an id column, or ids separated by commas`);
  }
  return { ids: ids.filter(Boolean), lines: [], source: `${file} (${which})` };
}

export async function grant(values, positionals, io) {
  // (The argument is not echoed: a token pasted there would be printed.)
  if (positionals.length) throw usage('grant takes no argument besides its options: the accounts go in --users (see lpm grant --help)');
  if (!values.users) throw usage('--users FILE|IDS is required');
  if (!values.courses) throw usage('--courses IDS is required');
  const courses = list(values.courses);
  const { ids, lines, source } = await usersOf(values.users);
  if (ids.length === 0) throw usage(`no account ids in ${source}`);
  const chunkSize = intOption(values, 'chunk', 1, 100) ?? 100;
  const intervalMs = intOption(values, 'interval-ms', 0, 2 ** 31 - 1) ?? 0;
  const lang = langOption(values);
  const retryDelayMs = intOption(values, 'retry-delay-ms', 0, 2 ** 31 - 1);
  const reportFile = values.report ?? `${values.journal}.report.${formatOption(values)}`;
  if (values.journal) checkWritable(reportFile, '--report', { journal: values.journal, '--users sheet': existsSync(values.users) ? values.users : undefined });
  const journal = journalOf(values);
  const client = clientOf(values);
  notTheToken(values, ids, '--users');
  notTheToken(values, courses, '--courses');
  await client.getMe();
  await checkCourses(client, courses, { resumed: values.resume });
  io.stdout.write(`granting ${count(courses.length, 'course')} to ${count(ids.length, 'account')} from ${source}\n`);
  return runJob({
    kind: 'grant',
    verb: 'granted',
    total: ids.length,
    reportFile,
    reportAs: formatOption(values),
    lines,
    io,
    start: ({ onProgress, signal }) => client.grantCourses({ users: ids, courses }, {
      journal, onProgress, signal, chunkSize, intervalMs, lang, ...(retryDelayMs === undefined ? {} : { retryDelayMs }),
    }),
  });
}
