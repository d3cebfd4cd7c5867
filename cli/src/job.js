// What `import` and `grant` share: the journal file's rules, running the job with progress and
// interruption, the report file, the summary and the exit code.
import { existsSync, statSync } from 'node:fs';
import { EXIT, FIX_TOKEN, count, usage } from './exit.js';
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
 * Runs `start({ onProgress, onIssues, signal })` (client.importUsers or grantCourses) with a
 * progress view, writes the report (through `patch`) to `reportFile`, prints the summary;
 * resolves with the exit code. With `onIssues(rows)` (an import), the job's list of rows with
 * issues goes to it before the view starts (a bar on a terminal would be written over);
 * `onReport(report)` is given the final report once it is written.
 */
export async function runJob({ start, total, verb, reportFile, reportAs, lines, kind, io, patch = (r) => r, onIssues, onReport }) {
  let view;
  const open = async () => { view = await progressView({ total, verb, stream: io.stderr }); };
  if (!onIssues) await open();
  const stop = interruptible(io);
  let report;
  let interrupted = false;
  try {
    report = await start({
      onProgress: (p) => view.update(p),
      onIssues: onIssues && (async (rows) => { onIssues(rows); await open(); }),
      signal: stop.signal,
    });
  } catch (e) {
    if (e && e.kind === 'abort' && e.report) {
      report = e.report;
      interrupted = true;
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
  await writeReport(reportFile, report, { lines, kind, format: reportAs });
  await onReport?.(report);
  const c = report.counts;
  const parts = kind === 'import'
    ? [`created ${c.created}`, `failed ${c.failed}`, `set aside ${c.setAside}`, `conflicts ${c.conflicts}`, `in doubt ${c.inDoubt}`, `not sent ${c.notSent}`]
    : [`granted ${c.granted}`, `failed ${c.failed}`, `set aside ${c.setAside}`, `not sent ${c.notSent}`];
  io.stdout.write(`${count(c.total, 'row')}: ${parts.join(', ')}; report: ${reportFile}\n`);
  if (interrupted) {
    io.stderr.write('interrupted: run the same command with --resume to continue\n');
    return EXIT.interrupted;
  }
  if (report.halted) {
    const { code, todo } = afterHalt(report.haltedBy);
    io.stderr.write(`stopped before the end: ${report.halted}; ${todo}run the same command with --resume to continue\n`);
    return code;
  }
  const good = kind === 'import' ? c.created : c.granted;
  return good === c.total ? EXIT.ok : EXIT.rows;
}
