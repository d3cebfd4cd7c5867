// `lpm sync FILE --courses IDS --journal J` (or a column naming each row's courses): make the
// platform match a sheet. Each row is looked
// up (search-user: e-mail, then username); the missing accounts are created through the import
// engine (chunks, interval, journal, exactly once); then each account is granted the courses it
// lacks (from its `myCourses`) through the grant engine; accounts holding courses outside the
// list are reported (the API cannot revoke: report, never guess). Resumable: J holds the plan
// (which rows to create) so a resume gives the engines the same input; J.import-<digest> and
// J.grant-<digest> are the engines' own journals. A second run finds nothing to send and says so.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileJournal } from '../lpm.js';
import { EXIT, count, usage } from '../exit.js';
import { clientOf, notTheToken } from '../config.js';
import { interruptible } from '../interrupt.js';
import { formatOption, intOption, langOption } from '../options.js';
import { progressView } from '../progress.js';
import { checkWritable, writeAtomic, writeSheet } from '../report.js';
import { checkCourses } from '../courses.js';
import { engineInput, rowIssues, setAside } from '../rows.js';
import { readSheet } from '../sheet.js';
import { describeSheet, listIssues } from './validate.js';
import { afterHalt } from '../job.js';
import { PLACEHOLDER, checkResumedPasswords, credentialsFile, fillPasswords } from '../passwords.js';

const CONTRACT_INTERVAL_MS = 600_000;
const NO_PASSWORD = 'no password: one is needed to create this account (give one, or use --generate-passwords)';
/** The line of a sync that sends nothing; rows set aside are no account that exists. */
const nothingToSend = (aside) => `nothing to send: every account exists and holds the courses${aside ? `, but for the ${aside} row${aside > 1 ? 's' : ''} set aside` : ''}\n`;
/** Look-ups in flight at once: reads, which the contract does not pace. */
const LOOKUPS_AT_ONCE = 4;

const list = (text) => [...new Set(text.split(/[,;\s]+/).map((s) => s.trim()).filter(Boolean))];
/** A header folded as mapColumns compares them: lower case, no diacritics, letters and digits. */
const fold = (h) => h.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[đĐ]/g, 'd').toLowerCase().replace(/[^a-z0-9]/g, '');
/**
 * The headers of a column naming each row's courses (ids separated by commas, semicolons or
 * spaces). Decision: defined here, not in the core's table, as only sync reads it (it is no
 * account field).
 */
const COURSE_HEADERS = new Set(['courses', 'course', 'courseids', 'courseid', 'khoahoc', 'cackhoahoc', 'makhoahoc']);
const digest = (value) => createHash('sha256').update(typeof value === 'string' ? value : JSON.stringify(value)).digest('hex').slice(0, 16);

/** The account of a row (e-mail first, then username, as search-user does), or null. */
async function lookUp(client, user, signal) {
  try {
    const { user: found } = await client.searchUser({ email: user.email, username: user.username }, { signal });
    return found ?? null;
  } catch (e) {
    if (e && e.kind === 'api' && e.category === 'notFound') return null;
    throw e;
  }
}

/** Looks up `rows` (indices into sheet.rows), a few at a time; resolves with a Map row -> account|null. */
async function lookUpAll(client, sheet, rows, signal, io, what) {
  const found = new Map();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < rows.length) {
      const i = rows[next++];
      found.set(i, await lookUp(client, sheet.rows[i].user, signal));
      done += 1;
      if (!io.stderr.isTTY && done % 500 === 0) io.stderr.write(`${what}: ${done}/${rows.length}\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUPS_AT_ONCE, rows.length) }, worker));
  return found;
}

/**
 * Runs one engine job (`start({ onProgress })`) with a progress view; resolves with
 * `{ report, interrupted }`: an interrupted job's report is the one its abort carried.
 */
async function engineJob(total, verb, io, start) {
  const view = await progressView({ total, verb, stream: io.stderr });
  try {
    return { report: await start({ onProgress: (p) => view.update(p) }), interrupted: false };
  } catch (e) {
    if (e && e.kind === 'abort' && e.report) return { report: e.report, interrupted: true };
    throw e;
  } finally {
    view.stop();
  }
}

const held = (account) => new Set((account?.myCourses ?? []).map((c) => c.courseId));
/** An account found by the row's username that holds another e-mail: someone else's, never granted. */
const otherPerson = (user, account) => Boolean(account) && !(account.emails ?? []).some((e) => e.address.toLowerCase() === user.email.toLowerCase());

/** The sync's own state file (J): the plan a resume continues. */
function readState(file) {
  if (!existsSync(file)) return null;
  try {
    const state = JSON.parse(readFileSync(file, 'utf8'));
    if (state.kind !== 'sync') throw new Error('not a sync');
    return state;
  } catch {
    throw usage(`${file} is not the journal of an lpm sync: name another file`);
  }
}

export async function sync(values, positionals, io) {
  if (positionals.length !== 1) throw usage('sync takes one FILE (see lpm sync --help)');
  const [file] = positionals;
  // A dry run sends nothing: it needs no journal (as import's), but reads one given to it.
  if (!values.journal && !values['dry-run']) throw usage('--journal FILE is required: it is what makes the sync resumable');
  const courses = list(values.courses ?? '');
  const lang = langOption(values);
  const chunkSize = intOption(values, 'chunk', 1, 100) ?? 100;
  const intervalMs = intOption(values, 'interval-ms', 0, 2 ** 31 - 1) ?? CONTRACT_INTERVAL_MS;
  const retryDelayMs = intOption(values, 'retry-delay-ms', 0, 2 ** 31 - 1);
  const retry = retryDelayMs === undefined ? {} : { retryDelayMs };
  const reportAs = formatOption(values);
  const reportFile = values.report ?? `${file.replace(/\.(csv|tsv|txt|xlsx)$/i, '')}.sync.${reportAs}`;
  const stateFile = values.journal;

  const sheet = await readSheet(file, { sheet: values.sheet, passwords: true });
  // Each row's courses: --courses, and those its course column names.
  const courseColumn = sheet.headers.findIndex((h) => COURSE_HEADERS.has(fold(h)));
  if (!courses.length && courseColumn < 0) throw usage(`--courses IDS is required, or a column naming each row's courses (${[...COURSE_HEADERS].slice(0, 2).join(', ')}, Khoá học)`);
  const wanted = sheet.rows.map((r) => [...new Set([...courses, ...(courseColumn < 0 ? [] : list(r.cells[courseColumn] ?? ''))])]);
  // The plan is tied to the sheet as read (before any password is generated).
  const sheetDigest = digest(JSON.stringify([sheet.rows.map((r) => r.user), wanted]));
  // The course column is read (each row's courses), not ignored: said so.
  io.stdout.write(describeSheet(file, courseColumn < 0 ? sheet : {
    ...sheet,
    fields: sheet.fields.map((f, i) => (i === courseColumn ? 'courses' : f)),
    ignored: sheet.ignored.filter((h) => h !== sheet.headers[courseColumn]),
  }));
  // A password is needed only to create an account: rows without one are checked as if they had
  // one, and once the look-ups tell which rows are to be created, those get one
  // (--generate-passwords) or are set aside.
  const noPassword = new Set(sheet.rows.flatMap((r, i) => (r.user.password === '' ? [i] : [])));
  for (const i of noPassword) sheet.rows[i].user.password = PLACEHOLDER;
  const aside = listIssues(sheet, rowIssues(sheet, lang), values.strict, io);
  for (const i of noPassword) sheet.rows[i].user.password = '';
  // A row that cannot be read is set aside too (its issue is listed above).
  const usable = sheet.rows.flatMap((r, i) => (aside[i] || r.problem ? [] : [i]));

  let state = readState(stateFile);
  if (state && state.phase !== 'done' && !values.resume) {
    throw usage(`the journal ${stateFile} holds an unfinished sync: pass --resume to continue it, or name a new file`);
  }
  if (values.resume && stateFile === undefined) throw usage('--resume continues a sync: name its journal with --journal J');
  if (values.resume && !(state && state.phase !== 'done')) throw usage(`--resume: ${stateFile} holds no unfinished sync`);
  if (state && state.phase !== 'done' && (state.sheet !== sheetDigest || state.courses.join() !== courses.join())) {
    throw usage(`--resume: ${stateFile} is the sync of another sheet or other courses`);
  }
  if (state?.phase === 'done') state = null;
  checkResumedPasswords(sheet, file, values);
  if (!values['dry-run']) {
    const inputs = { sheet: file, journal: stateFile };
    checkWritable(reportFile, '--report', inputs);
    if (values['generate-passwords']) checkWritable(credentialsFile(file, values), '--credentials', { ...inputs, report: reportFile });
  }

  const client = clientOf(values, { createInterval: { intervalMs } });
  notTheToken(values, wanted.flat(), courseColumn < 0 ? '--courses' : `--courses or the column ${sheet.headers[courseColumn]}`);
  const result = new Map(); // row -> { kind, account, granted, other, detail }
  let halted = null;
  let haltedBy;
  let interrupted = false;
  // Whether J holds the plan (a resume continues it) or nothing was planned yet (a new run).
  let planned = Boolean(state);
  const stop = interruptible(io, () => (planned ? 'the journal resumes the job' : 'nothing was sent yet'));
  try {
    await client.getMe({ signal: stop.signal });
    // Every course to grant, from --courses or the rows' column, known to the platform.
    const all = [...new Set(usable.flatMap((i) => wanted[i]))];
    await checkCourses(client, all, {
      where: (id) => (courses.includes(id) ? '--courses'
        : `${sheet.headers[courseColumn]}, line ${sheet.rows[usable.find((i) => wanted[i].includes(id))].line}`),
      signal: stop.signal,
      resumed: values.resume,
    });
    // 1. Look-ups: who exists, and what each holds.
    let accounts = new Map();
    if (!state) {
      accounts = await lookUpAll(client, sheet, usable, stop.signal, io, 'looked up');
      let create = usable.filter((i) => !accounts.get(i));
      if (!values['generate-passwords']) {
        for (const i of create.filter((k) => noPassword.has(k))) {
          result.set(i, { kind: 'setAside', detail: NO_PASSWORD });
          // Listed as the sheet's other set-aside rows are, before the plan and its counts.
          io.stdout.write(`row ${i + 1} (line ${sheet.rows[i].line}): password: ${NO_PASSWORD}\n`);
        }
        create = create.filter((k) => !noPassword.has(k));
      }
      // The import engine's journal is named by what it creates: a later sync of a grown sheet
      // with the same J starts a job of its own rather than resuming a finished one.
      const importJournal = `${stateFile}.import-${digest(create.map((i) => [i, sheet.rows[i].user.email]))}`;
      state = { kind: 'sync', sheet: sheetDigest, courses, create, importJournal, phase: 'import' };
    } else {
      io.stdout.write(`resuming the sync of ${stateFile}: ${count(state.create.length, 'account')} to create, phase ${state.phase}\n`);
    }
    const creating = new Set(state.create);
    if (values['generate-passwords'] && !values['dry-run']) await fillPasswords(sheet, file, values, io, (i) => creating.has(i));
    const exist = usable.filter((i) => !creating.has(i) && !result.has(i));
    if (values['dry-run']) {
      const conflicts = exist.filter((i) => otherPerson(sheet.rows[i].user, accounts.get(i)));
      const mine = exist.filter((i) => !conflicts.includes(i));
      const lacking = mine.filter((i) => wanted[i].some((c) => !held(accounts.get(i)).has(c)));
      const other = mine.filter((i) => [...held(accounts.get(i))].some((c) => !wanted[i].includes(c)));
      const chunks = Math.ceil(state.create.length / chunkSize);
      io.stdout.write(`plan: ${count(exist.length, 'account')} ${exist.length === 1 ? 'exists' : 'exist'}, ${state.create.length} to create in ${count(chunks, 'call')} of up to ${chunkSize}` +
        `${chunks > 1 ? ` (the last ${((chunks - 1) * intervalMs) / 60000} min after the first)` : ''}; ` +
        `courses to grant to ${count(lacking.length + state.create.length, 'account')} (${lacking.length} existing, ${state.create.length} new); ` +
        `${count(other.length, 'account')} ${other.length === 1 ? 'holds' : 'hold'} other courses too; ${count(conflicts.length, 'row')} whose username belongs to another person's account; ${count(sheet.rows.length - usable.length + result.size, 'row')} set aside\n`);
      const setAsideRows = sheet.rows.length - usable.length + result.size;
      if (state.create.length === 0 && lacking.length === 0) io.stdout.write(nothingToSend(setAsideRows));
      return setAsideRows ? EXIT.rows : EXIT.ok;
    }
    writeAtomic(stateFile, `${JSON.stringify(state)}\n`);
    planned = true;

    // 2. Creates, through the import engine (its own journal, resumed as it is).
    const created = new Map();
    if (state.phase === 'import' && state.create.length) {
      io.stdout.write(`creating ${count(state.create.length, 'account')}\n`);
      let report;
      ({ report, interrupted } = await engineJob(state.create.length, 'created', io, ({ onProgress }) => client.importUsers(
        engineInput({ rows: state.create.map((i) => sheet.rows[i]) }),
        { journal: fileJournal(state.importJournal), onProgress, signal: stop.signal, chunkSize, intervalMs, lang, ...retry },
      )));
      report.rows.forEach((r, k) => {
        const i = state.create[k];
        if (r.result.kind === 'created') created.set(i, r.result.userId);
        else result.set(i, { kind: r.result.kind, detail: r.result.status ?? r.result.reason ?? (r.result.issues ?? []).map((x) => x.message).join('; ') });
      });
      if (interrupted || stop.signal.aborted) interrupted = true;
      else if (report.halted || report.counts.inDoubt + report.counts.notSent > 0) { halted = report.halted ?? 'rows in doubt'; haltedBy = report.haltedBy; }
    }
    if (!interrupted && !halted) {
      state.phase = 'grant';
      writeAtomic(stateFile, `${JSON.stringify(state)}\n`);
      // 3. Grants: what each account lacks. A fresh run knows it from its look-ups; a resumed one
      // looks every account up again (a grant may have gone through since).
      if (accounts.size === 0 || created.size < [...creating].filter((i) => !result.has(i)).length) {
        accounts = await lookUpAll(client, sheet, usable.filter((i) => !result.has(i)), stop.signal, io, 'looked up');
      }
      const groups = new Map();
      for (const i of usable) {
        if (result.has(i)) continue;
        const account = accounts.get(i);
        if (otherPerson(sheet.rows[i].user, account)) {
          result.set(i, { kind: 'conflict', account: account._id, detail: `the username belongs to account ${account._id} (${(account.emails ?? []).map((e) => e.address).join(' ')}), another e-mail: not granted` });
          continue;
        }
        const id = account?._id ?? created.get(i);
        if (!id) {
          result.set(i, creating.has(i) || !noPassword.has(i)
            ? { kind: 'failed', detail: 'not found after it was created' }
            : { kind: 'setAside', detail: NO_PASSWORD });
          continue;
        }
        const has = held(account);
        const lack = wanted[i].filter((c) => !has.has(c));
        const other = [...has].filter((c) => !wanted[i].includes(c));
        result.set(i, { kind: creating.has(i) ? 'created' : 'exists', account: id, granted: [], other, lack });
        if (lack.length) {
          const key = lack.join(',');
          if (!groups.has(key)) groups.set(key, []);
          groups.get(key).push(i);
        }
      }
      for (const [key, rows] of groups) {
        const lack = key.split(',');
        const users = rows.map((i) => result.get(i).account);
        io.stdout.write(`granting ${lack.join(', ')} to ${count(users.length, 'account')}\n`);
        let report;
        ({ report, interrupted } = await engineJob(users.length, 'granted', io, ({ onProgress }) => client.grantCourses(
          { users, courses: lack },
          { journal: fileJournal(`${stateFile}.grant-${digest({ users, lack })}`), onProgress, signal: stop.signal, chunkSize, intervalMs: 0, lang, ...retry },
        )));
        report.rows.forEach((r, k) => {
          const row = result.get(rows[k]);
          if (r.result.kind === 'granted') row.granted = lack;
          else row.grantFailed = `${r.result.kind}: ${r.result.status ?? r.result.reason ?? ''}`;
        });
        if (interrupted || stop.signal.aborted) { interrupted = true; break; }
        if (report.halted || report.counts.notSent > 0) { halted = report.halted ?? 'grants not sent'; haltedBy = report.haltedBy; break; }
      }
      if (!interrupted && !halted) {
        state.phase = 'done';
        writeAtomic(stateFile, `${JSON.stringify(state)}\n`);
      }
    }
  } catch (e) {
    if (e && e.kind === 'abort') interrupted = true;
    else throw e;
  } finally {
    stop.done();
  }

  // The report: one line per row.
  const records = [['row', 'line', 'email', 'username', 'result', 'account', 'granted', 'other courses held', 'detail']];
  const counts = { exists: 0, created: 0, granted: 0, other: 0, aside: 0, failed: 0, pending: 0 };
  sheet.rows.forEach((r, i) => {
    const res = result.get(i);
    let kind;
    let detail = '';
    if (!usable.includes(i)) { kind = 'setAside'; counts.aside += 1; }
    else if (!res) { kind = 'notDone'; counts.pending += 1; }
    else {
      kind = res.kind;
      detail = res.grantFailed ?? res.detail ?? (res.other?.length ? 'holds other courses too: the API cannot revoke them' : '');
      if (kind === 'exists') counts.exists += 1;
      else if (kind === 'created') counts.created += 1;
      else if (kind === 'setAside') counts.aside += 1;
      else counts.failed += 1;
      if (res.granted?.length) counts.granted += 1;
      if (res.grantFailed) counts.failed += 1;
      if (res.other?.length) counts.other += 1;
    }
    records.push([i + 1, r.line, r.user.email, r.user.username, kind, res?.account ?? '', (res?.granted ?? []).join(' '), (res?.other ?? []).join(' '), detail]);
  });
  await writeSheet(reportFile, records, reportAs, 'Sync');
  io.stdout.write(`${count(sheet.rows.length, 'row')}: ${counts.exists} existed, ${counts.created} created, ${counts.granted} granted courses, ` +
    `${counts.other} hold other courses, ${counts.aside} set aside, ${counts.failed} failed${counts.pending ? `, ${counts.pending} not done` : ''}; report: ${reportFile}\n`);
  const again = planned ? 'run the same command with --resume to continue' : 'nothing was sent: run the same command again';
  if (interrupted) {
    io.stderr.write(`interrupted: ${again}\n`);
    return EXIT.interrupted;
  }
  if (halted) {
    const { code, todo } = afterHalt(haltedBy);
    io.stderr.write(`stopped before the end: ${halted}; ${todo}${again}\n`);
    return code;
  }
  if (counts.created === 0 && counts.granted === 0 && counts.failed === 0) io.stdout.write(nothingToSend(counts.aside));
  return counts.aside || counts.failed ? EXIT.rows : EXIT.ok;
}
