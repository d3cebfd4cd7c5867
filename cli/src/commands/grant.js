// `lpm grant --users FILE|IDS --courses IDS --journal J`: client.grantCourses, chunked, journaled.
import { existsSync } from 'node:fs';
import { usage } from '../exit.js';
import { clientOf } from '../config.js';
import { formatOption, intOption, langOption } from '../options.js';
import { journalOf, runJob } from '../job.js';
import { readTableFile } from '../sheet.js';
import { checkWritable } from '../report.js';

const list = (text) => text.split(',').map((s) => s.trim()).filter(Boolean);
const ID_HEADERS = new Set(['id', '_id', 'userid', 'user_id', 'user id', 'account id', 'mã tài khoản']);

/**
 * The account ids of `--users`: a sheet (CSV or .xlsx: a column headed id/_id/userId, else the
 * first cell of each line) or ids separated by commas. Resolves with { ids, lines, source }.
 */
export async function usersOf(arg) {
  if (!existsSync(arg)) return { ids: list(arg), lines: [], source: 'the command line' };
  const { records } = await readTableFile(arg);
  const head = records[0]?.cells.map((h) => h.trim().toLowerCase()) ?? [];
  let col = head.findIndex((h) => ID_HEADERS.has(h));
  const body = col >= 0 ? records.slice(1) : records;
  if (col < 0) col = 0;
  const rows = body.map(({ cells, line }) => ({ id: (cells[col] ?? '').trim(), line })).filter((r) => r.id);
  return { ids: rows.map((r) => r.id), lines: rows.map((r) => r.line), source: arg };
}

export async function grant(values, positionals, io) {
  if (positionals.length) throw usage(`grant takes no positional argument (got ${positionals[0]}); see lpm grant --help`);
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
  if (values.journal) checkWritable(reportFile, '--report');
  const journal = journalOf(values);
  const client = clientOf(values);
  await client.getMe();
  io.stdout.write(`granting ${courses.length} course(s) to ${ids.length} accounts from ${source}\n`);
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
