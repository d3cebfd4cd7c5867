// What `import`, `grant` and `sync` share: the journal file's rules (one runner per journal), the
// create interval shared by every lpm process, running the job with progress and interruption,
// the report file, the summary and the exit code.
import { existsSync, statSync } from 'node:fs';
import { EXIT, FIX_TOKEN, count, usage } from './exit.js';
import { clientOf } from './config.js';
import { transport } from './transport.js';
import { defaultIntervalFile, sharedIntervalStore } from './intervals.js';
import { interruptible } from './interrupt.js';
import { lockJournal } from './lock.js';
import { checkedJournal } from './journal.js';
import { progressView } from './progress.js';
import { writeReport } from './report.js';

/** The journal store of `--journal` (its lines checksummed), locked for this process (until it
 * exits), checked against `--resume`. */
export function journalOf(values) {
  const file = values.journal;
  if (!file) throw usage('--journal FILE is required: it is what makes the job resumable');
  lockJournal(file);
  const used = existsSync(file) && statSync(file).size > 0;
  if (used && !values.resume) throw usage(`the journal ${file} already holds a job: pass --resume to continue it, or name a new file`);
  if (!used && values.resume) throw usage(`--resume: the journal ${file} does not exist or is empty`);
  return checkedJournal(file);
}

/**
 * The client of a job that creates accounts (import, sync): its creates keep `intervalMs` apart
 * with every other `lpm` process of the user (intervals.js). The store gets each create's send
 * (the transport tells when it left; LPM_TRANSPORT=fetch cannot: from the call) and then, from
 * the bulk driver, the call's end, from which the platform counts. `extra`: more client options.
 */
export function creatingClient(values, intervalMs, extra = {}) {
  const intervalStore = sharedIntervalStore(defaultIntervalFile(), intervalMs);
  const base = transport();
  const fetch = base && ((url, init) => base(url, /\/create-multi-user(\?|$)/.test(String(url)) && init && init.method === 'POST'
    ? { ...init, onSent: (at) => intervalStore.left(at) } : init));
  return clientOf(values, { ...extra, createInterval: { intervalMs }, intervalStore, ...(fetch ? { fetch } : {}) });
}

/**
 * Rejects with the platform's refusal when the token lacks permission, before anything is sent:
 * a refused create would otherwise be the first word of it (a resume's included).
 * Decision: the contract has no call that tells a token's permissions; a read that needs them
 * (the first account of the list, one item) is asked instead.
 */
export async function checkPermission(client, signal) {
  await client.getUsers({ start: 0, limit: 1 }, { signal });
}

/**
 * The exit code of a job the platform stopped (`haltedBy`, the category of its answer) and what
 * to do before `--resume`: a refused token (expired mid-job) or permission exits 3 as any other
 * command refused so; a platform out of accounts needs its limit raised, or a resume fails again.
 */
export function afterHalt(haltedBy) {
  if (haltedBy === 'authentication' || haltedBy === 'permission') return { code: EXIT.auth, todo: `${FIX_TOKEN}, then ` };
  if (haltedBy === 'capacity') return { code: EXIT.halted, todo: 'the platform holds as many accounts as it may: have its limit raised (or free accounts), then ' };
  return { code: EXIT.halted, todo: '' };
}

/**
 * Runs `start({ onProgress, onIssues, signal })` (client.importUsers, grantCourses or
 * syncAccounts) with a progress view, writes the report (through `patch`) to `reportFile`,
 * prints the summary; resolves with the exit code. With `onIssues(rows)` (an import), the job's
 * list of rows with issues goes to it before the view starts (a bar on a terminal would be
 * written over); `onReport(report)` is given the final report once it is written. A sync gives
 * its own `write(report)` (its report file) and `summary` (`line(report)`, and `code(report)`:
 * the exit code of a job that ran to its end); `what` says what an interruption keeps, `again()`
 * what to do after a stop; with `lateView` the progress view opens when `start` calls `openView`.
 */
export async function runJob({ start, total, verb, reportFile, reportAs, lines, kind, io, patch = (r) => r, onIssues, onReport, write, summary, what, again = () => 'run the same command with --resume to continue', lateView = false }) {
  let view;
  const open = async () => { view ??= await progressView({ total, verb, stream: io.stderr }); };
  if (!onIssues && !lateView) await open();
  const stop = interruptible(io, what);
  let report;
  let interrupted = false;
  let unwritten;
  try {
    report = await start({
      onProgress: (p) => view?.update(p),
      onIssues: onIssues && (async (rows) => { onIssues(rows); await open(); }),
      openView: open,
      signal: stop.signal,
    });
  } catch (e) {
    if (e && e.kind === 'abort' && e.report) {
      report = e.report;
      interrupted = true;
    } else if (e && e.kind === 'config' && e.problem === 'journal' && e.report) {
      // The journal could not be written (a full disk): the report still is, where it can be,
      // then the error ends the command (exit 4).
      report = e.report;
      unwritten = e;
    } else {
      throw e;
    }
  } finally {
    view?.stop();
    stop.done();
  }
  // A job that settles after the signal fired (rather than rejecting) was interrupted too.
  interrupted ||= stop.signal.aborted;
  report = patch(report);
  try {
    if (write) await write(report);
    else await writeReport(reportFile, report, { lines, kind, format: reportAs });
  } catch (e) {
    if (!unwritten) throw e;
    io.stderr.write(`${e.message}\n`);
  }
  if (unwritten) throw unwritten;
  await onReport?.(report);
  const c = report.counts;
  if (summary) {
    io.stdout.write(summary.line(report));
  } else {
    const parts = kind === 'import'
      ? [`created ${c.created}`, `failed ${c.failed}`, `set aside ${c.setAside}`, `conflicts ${c.conflicts}`, `in doubt ${c.inDoubt}`, `not sent ${c.notSent}`]
      : [`granted ${c.granted}`, `failed ${c.failed}`, `set aside ${c.setAside}`, `not sent ${c.notSent}`];
    io.stdout.write(`${count(c.total, 'row')}: ${parts.join(', ')}; report: ${reportFile}\n`);
  }
  if (interrupted) {
    io.stderr.write(`interrupted: ${again()}\n`);
    return EXIT.interrupted;
  }
  if (report.halted) {
    const { code, todo } = afterHalt(report.haltedBy);
    io.stderr.write(`stopped before the end: ${report.halted}; ${todo}${again()}\n`);
    return code;
  }
  if (summary) return summary.code(report);
  const good = kind === 'import' ? c.created : c.granted;
  return good === c.total ? EXIT.ok : EXIT.rows;
}
