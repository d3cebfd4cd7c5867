// `lpm sync FILE --courses IDS --journal J` (or a column naming each row's courses): make the
// platform match a sheet through client.syncAccounts, the core's sync engine (look-ups, creates
// through the import engine, grants of what each account lacks, other courses reported; the API
// cannot revoke: report, never guess). Here: the arguments, the sheet, passwords for the rows the
// engine plans to create, and printing. The job runs as import and grant run (job.js): one
// runner per journal, the create interval shared with every lpm process, signals, the report.
// A sync that ran to its end removes its journal, so the same command with the same J later
// syncs afresh (and finds nothing to send when the platform matches).
import { rmSync } from 'node:fs';
import { EXIT, count, usage } from '../exit.js';
import { CREATE_INTERVAL_MS } from '../lpm.js';
import { notTheToken } from '../config.js';
import { formatOption, intOption, langOption } from '../options.js';
import { checkWritable, detail, writeSheet } from '../report.js';
import { checkCourses } from '../courses.js';
import { engineInput, rowIssues } from '../rows.js';
import { readSheet } from '../sheet.js';
import { describeSheet, listIssues } from './validate.js';
import { afterHalt, creatingClient, journalOf, runJob } from '../job.js';
import { PLACEHOLDER, checkResumedPasswords, credentialsFile, fillPasswords } from '../passwords.js';

const NO_PASSWORD = 'no password: one is needed to create this account (give one, or use --generate-passwords)';

const list = (text) => [...new Set(text.split(/[,;\s]+/).map((s) => s.trim()).filter(Boolean))];
/** A header folded as mapColumns compares them: lower case, no diacritics, letters and digits. */
const fold = (h) => h.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[đĐ]/g, 'd').toLowerCase().replace(/[^a-z0-9]/g, '');
/**
 * The headers of a column naming each row's courses (ids separated by commas, semicolons or
 * spaces). Decision: defined here, not in the core's table, as only sync reads it (it is no
 * account field).
 */
const COURSE_HEADERS = new Set(['courses', 'course', 'courseids', 'courseid', 'khoahoc', 'cackhoahoc', 'makhoahoc']);

/** The line of a sync that sends nothing; rows set aside or in conflict are no account of theirs. */
function nothingToSend(aside, conflicts) {
  const but = [aside && `${count(aside, 'row')} set aside`, conflicts && `${count(conflicts, 'row')} whose e-mail or username is another person's`].filter(Boolean);
  return `nothing to send: every account exists and holds the courses${but.length ? `, but for the ${but.join(' and the ')}` : ''}\n`;
}

/** Rows looked up between two lines of the look-ups' progress. */
const LOOKUPS_LINE = 500;

/** What a dry run's plan step throws to stop the job before anything is sent. */
const DRY = Symbol('dry run');

/** The account a report row names: its own, or the other person's it conflicts with. */
const accountOf = (r) => r.result.userId ?? r.result.existing?.userId ?? '';

/** What to show beside a row's result: a grant that failed, else the result's own detail, else
 * the courses it holds beyond its list. */
function rowDetail(r) {
  if (r.grant && r.grant.kind !== 'granted') return `grant ${r.grant.kind}: ${detail(r.grant)}`;
  if (r.result.kind === 'conflict') {
    const e = r.result.existing;
    return `the e-mail or username belongs to account ${e.userId} (${e.username}, ${e.emails.join(' ')}), another person's: not touched`;
  }
  const own = ['exists', 'created'].includes(r.result.kind) ? '' : detail(r.result);
  return own || (r.other.length ? 'holds other courses too: the API cannot revoke them' : '');
}

export async function sync(values, positionals, io) {
  if (positionals.length !== 1) throw usage('sync takes one FILE (see lpm sync --help)');
  const [file] = positionals;
  // A dry run sends nothing: it needs no journal (as import's).
  if (values.resume && !values.journal) throw usage('--resume continues a sync: name its journal with --journal J');
  if (!values.journal && !values['dry-run']) throw usage('--journal FILE is required: it is what makes the sync resumable');
  const courses = list(values.courses ?? '');
  const lang = langOption(values);
  const chunkSize = intOption(values, 'chunk', 1, 100) ?? 100;
  const intervalMs = intOption(values, 'interval-ms', 0, 2 ** 31 - 1) ?? CREATE_INTERVAL_MS;
  const retryDelayMs = intOption(values, 'retry-delay-ms', 0, 2 ** 31 - 1);
  const reportAs = formatOption(values);
  const reportFile = values.report ?? `${file.replace(/\.(csv|tsv|txt|xlsx)$/i, '')}.sync.${reportAs}`;

  const sheet = await readSheet(file, { sheet: values.sheet, passwords: true });
  // Each row's courses: --courses, and those its course column names.
  const courseColumn = sheet.headers.findIndex((h) => COURSE_HEADERS.has(fold(h)));
  if (!courses.length && courseColumn < 0) throw usage(`--courses IDS is required, or a column naming each row's courses (${[...COURSE_HEADERS].slice(0, 2).join(', ')}, Khoá học)`);
  const wanted = sheet.rows.map((r) => [...new Set([...courses, ...(courseColumn < 0 ? [] : list(r.cells[courseColumn] ?? ''))])]);
  // The course column is read (each row's courses), not ignored: said so.
  io.stdout.write(describeSheet(file, courseColumn < 0 ? sheet : {
    ...sheet,
    fields: sheet.fields.map((f, i) => (i === courseColumn ? 'courses' : f)),
    ignored: sheet.ignored.filter((h) => h !== sheet.headers[courseColumn]),
  }));
  // The rows' issues, listed before anything is sent (the engine sets the same rows aside). A
  // password is needed only to create an account: rows without one are listed as if they had one.
  const noPassword = new Set(sheet.rows.flatMap((r, i) => (r.user.password === '' ? [i] : [])));
  for (const i of noPassword) sheet.rows[i].user.password = PLACEHOLDER;
  const aside = listIssues(sheet, rowIssues(sheet, lang), values.strict, io);
  for (const i of noPassword) sheet.rows[i].user.password = '';
  const usable = sheet.rows.flatMap((r, i) => (aside[i] || r.problem ? [] : [i]));

  checkResumedPasswords(sheet, file, values);
  const dry = Boolean(values['dry-run']);
  if (!dry) {
    const inputs = { sheet: file, journal: values.journal };
    checkWritable(reportFile, '--report', inputs);
    if (values['generate-passwords']) checkWritable(credentialsFile(file, values), '--credentials', { ...inputs, report: reportFile });
  }
  // One runner per journal for every kind of job (its lock), taken before anything is sent.
  const journal = dry ? undefined : journalOf(values);
  const client = creatingClient(values, intervalMs);
  notTheToken(values, wanted.flat(), courseColumn < 0 ? '--courses' : `--courses or the column ${sheet.headers[courseColumn]}`);
  await client.getMe();
  // Every course to grant, from --courses or the rows' column, known to the platform.
  const all = [...new Set(usable.flatMap((i) => wanted[i]))];
  await checkCourses(client, all, {
    where: (id) => (courses.includes(id) ? '--courses'
      : `${sheet.headers[courseColumn]}, line ${sheet.rows[usable.find((i) => wanted[i].includes(id))].line}`),
    resumed: values.resume,
  });

  const engine = {
    chunkSize, intervalMs, lang, setAsidePlatform: Boolean(values.strict), ...(retryDelayMs === undefined ? {} : { retryDelayMs }),
  };
  const input = { rows: engineInput(sheet), courses: wanted };
  // The rows to create get passwords (--generate-passwords) once the engine knows which they
  // are; without, a row to create that has none is listed (the import sets it aside).
  let planned = false;
  let shown = 0;
  const onPlan = async (rows, report, openView = async () => {}) => {
    const bare = values['generate-passwords'] ? [] : rows.filter((i) => noPassword.has(i));
    for (const i of bare) io.stdout.write(`row ${i + 1} (line ${sheet.rows[i].line}): password: ${NO_PASSWORD}\n`);
    if (dry) throw Object.assign(new Error('dry run'), { [DRY]: report, rows: rows.filter((i) => !bare.includes(i)), bare: bare.length });
    planned = true;
    const creates = rows.length - bare.length;
    if (creates) io.stdout.write(`creating ${count(creates, 'account')}\n`);
    await openView();
    if (!values['generate-passwords']) return undefined;
    const creating = new Set(rows);
    await fillPasswords(sheet, file, values, io, (i) => creating.has(i));
    return Object.fromEntries(rows.filter((i) => noPassword.has(i)).map((i) => [i, sheet.rows[i].user.password]));
  };

  if (dry) {
    let planned;
    let stopped;
    try {
      stopped = await client.syncAccounts(input, { ...engine, onPlan });
    } catch (e) {
      if (!(e && e[DRY])) throw e;
      planned = e;
    }
    if (!planned) {
      // The look-ups stopped before the plan (a refused token, failures in a row): no plan to show.
      const { code, todo } = afterHalt(stopped?.haltedBy);
      io.stderr.write(`stopped before the plan: ${stopped?.halted ?? 'the look-ups did not finish'}; nothing was sent: ${todo}run the same command again\n`);
      return code;
    }
    const report = planned[DRY];
    const creates = planned.rows.length;
    const rows = report.rows;
    const exist = rows.filter((r) => r.result.kind === 'exists');
    const lacking = exist.filter((r) => r.lacked.length).length;
    const other = exist.filter((r) => r.other.length).length;
    const conflicts = report.counts.conflicts;
    const setAside = report.counts.setAside + planned.bare;
    const chunks = Math.ceil(creates / chunkSize);
    io.stdout.write(`plan: ${count(exist.length, 'account')} ${exist.length === 1 ? 'exists' : 'exist'}, ${creates} to create in ${count(chunks, 'call')} of up to ${chunkSize}` +
      `${chunks > 1 ? ` (the last ${((chunks - 1) * intervalMs) / 60000} min after the first)` : ''}; ` +
      `courses to grant to ${count(lacking + creates, 'account')} (${lacking} existing, ${creates} new); ` +
      `${count(other, 'account')} ${other === 1 ? 'holds' : 'hold'} other courses too; ${count(conflicts, 'row')} whose e-mail or username belongs to another person's account; ${count(setAside, 'row')} set aside\n`);
    if (creates === 0 && lacking === 0) io.stdout.write(nothingToSend(setAside, conflicts));
    return setAside || conflicts ? EXIT.rows : EXIT.ok;
  }

  return runJob({
    kind: 'sync',
    verb: 'done',
    total: sheet.rows.length,
    reportFile,
    io,
    // Before the plan the journal holds look-ups only: nothing was sent, and a stop removes it.
    what: () => (planned ? 'the journal resumes the job' : 'nothing was sent yet'),
    again: () => {
      if (planned) return 'run the same command with --resume to continue';
      rmSync(values.journal, { force: true });
      return 'nothing was sent: run the same command again';
    },
    lateView: true,
    start: ({ onProgress, signal, openView }) => client.syncAccounts(input, {
      ...engine,
      journal,
      signal,
      // Before the plan, the look-ups' progress: a line every 500 rows (the view opens at the plan).
      onProgress: (p) => {
        if (planned) onProgress(p);
        else if (p.done > 0 && p.done % LOOKUPS_LINE === 0 && p.done !== shown) {
          shown = p.done;
          io.stderr.write(`looked up: ${p.done}/${p.done + p.remaining}\n`);
        }
      },
      onPlan: (rows, report) => onPlan(rows, report, openView),
    }),
    write: async (report) => {
      const records = [['row', 'line', 'email', 'username', 'result', 'account', 'granted', 'other courses held', 'detail']];
      for (const r of report.rows) {
        const granted = r.grant?.kind === 'granted' ? r.lacked.join(' ') : '';
        records.push([r.row + 1, sheet.rows[r.row].line, r.email, r.username, r.result.kind, accountOf(r), granted, r.other.join(' '), rowDetail(r)]);
      }
      await writeSheet(reportFile, records, reportAs, 'Sync');
    },
    summary: {
      line: (report) => {
        const c = report.counts;
        return `${count(c.total, 'row')}: ${c.exists} existed, ${c.created} created, ${c.granted} granted courses, ${c.other} hold other courses, ` +
          `${c.setAside} set aside, ${c.conflicts} conflicts, ${c.failed} failed${c.inDoubt + c.notSent ? `, ${c.inDoubt + c.notSent} not done` : ''}; report: ${reportFile}\n`;
      },
      code: (report) => {
        const c = report.counts;
        // Ran to its end: the journal is done with; the same command later syncs afresh.
        rmSync(values.journal, { force: true });
        if (report.nothingToSend) io.stdout.write(nothingToSend(c.setAside, c.conflicts));
        return c.setAside || c.failed || c.conflicts ? EXIT.rows : EXIT.ok;
      },
    },
  });
}
