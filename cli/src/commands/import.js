// `lpm import FILE --journal J`: create a sheet's accounts through client.importUsers.
import { EXIT, count, usage } from '../exit.js';
import { CREATE_INTERVAL_MS } from '../lpm.js';
import { formatOption, intOption, langOption } from '../options.js';
import { checkPermission, creatingClient, journalOf, runJob } from '../job.js';
import { engineInput, engineIssues } from '../rows.js';
import { problemIssue, readSheet } from '../sheet.js';
import { checkSheet, describeSheet, listIssues } from './validate.js';
import { checkResumedPasswords, credentialsFile, fillPasswords } from '../passwords.js';
import { checkWritable, detail, writeSheet } from '../report.js';


/** `students.csv` -> `students.report.csv` (`.xlsx`, `.json` in that format). */
export function defaultReport(file, format = 'csv') {
  return `${file.replace(/\.(csv|tsv|txt|xlsx)$/i, '')}.report.${format}`;
}

function plan(aside, chunk, intervalMs, io) {
  const rows = aside.flatMap((a, i) => (a ? [] : [i]));
  const chunks = [];
  for (let i = 0; i < rows.length; i += chunk) chunks.push(rows.slice(i, i + chunk));
  io.stdout.write(`plan: ${count(rows.length, 'row')} in ${count(chunks.length, 'call')} of up to ${chunk}, one every ${intervalMs / 1000} s\n`);
  chunks.forEach((c, k) => {
    const at = k * intervalMs;
    io.stdout.write(`  chunk ${k + 1}: rows ${c[0] + 1}..${c[c.length - 1] + 1} (${c.length}), at +${Math.floor(at / 60000)} min ${Math.round((at % 60000) / 1000)} s\n`);
  });
  if (chunks.length > 1) io.stdout.write(`the last call goes ${((chunks.length - 1) * intervalMs) / 60000} min after the first\n`);
}

export async function runImport(values, positionals, io) {
  if (positionals.length !== 1) throw usage('import takes one FILE (see lpm import --help)');
  const [file] = positionals;
  const chunkSize = intOption(values, 'chunk', 1, 100) ?? 100;
  const intervalMs = intOption(values, 'interval-ms', 0, 2 ** 31 - 1) ?? CREATE_INTERVAL_MS;
  const lang = langOption(values);
  const retryDelayMs = intOption(values, 'retry-delay-ms', 0, 2 ** 31 - 1);
  const reportAs = formatOption(values);
  if (values['dry-run']) {
    // A dry run generates nothing (with --generate-passwords, a row without one is checked as if it had one).
    const { aside } = await checkSheet(file, values, io);
    plan(aside, chunkSize, intervalMs, io);
    return aside.some(Boolean) ? EXIT.rows : EXIT.ok;
  }
  const reportFile = values.report ?? defaultReport(file, reportAs);
  const inputs = { sheet: file, journal: values.journal };
  checkWritable(reportFile, '--report', inputs);
  if (values.failed) checkWritable(values.failed, '--failed', { ...inputs, report: reportFile });
  if (values['generate-passwords']) checkWritable(credentialsFile(file, values), '--credentials', { ...inputs, report: reportFile, '--failed file': values.failed });
  const journal = journalOf(values);
  const client = creatingClient(values, intervalMs);
  // Fail fast on a token the server refuses, or one without permission, before the job starts
  // (exit 3); asked while the sheet is read.
  const refused = client.getMe().then(() => checkPermission(client)).then(() => null, (e) => e);
  const sheet = await readSheet(file, { sheet: values.sheet, passwords: Boolean(values['generate-passwords']) });
  io.stdout.write(describeSheet(file, sheet));
  checkResumedPasswords(sheet, file, values);
  if (values['generate-passwords']) await fillPasswords(sheet, file, values, io);
  const e = await refused;
  if (e) throw e;
  return runJob({
    kind: 'import',
    verb: 'created',
    total: sheet.rows.length,
    reportFile,
    reportAs,
    lines: sheet.rows.map((r) => r.line),
    io,
    // A row the engine got as null (more cells than columns) is set aside for that reason (the
    // report, one entry per row in input order, is ours: its few such rows are changed in place).
    patch: (report) => {
      sheet.rows.forEach(({ problem }, i) => {
        if (problem) report.rows[i] = { ...report.rows[i], result: { kind: 'setAside', issues: [problemIssue(problem, lang)] } };
      });
      return report;
    },
    // --failed FILE: the rows not created, as the sheet had them, to fix and import again.
    onReport: values.failed && (async (report) => {
      // (A row's cells read once: a CSV line's are split each time they are read.)
      const out = report.rows.filter((r) => ['failed', 'setAside', 'conflict'].includes(r.result.kind))
        .map((r) => {
          const { cells } = sheet.rows[r.row];
          return [...sheet.headers.map((h, k) => cells[k] ?? ''), r.result.kind, detail(r.result)];
        });
      await writeSheet(values.failed, [[...sheet.headers, 'result', 'detail'], ...out], /\.xlsx$/i.test(values.failed) ? 'xlsx' : 'csv', 'Failed rows');
      io.stdout.write(`${count(out.length, 'row')} not created: ${values.failed}\n`);
    }),
    // The rows' issues listed as the engine judged them when the job started (the sheet is
    // validated once, by the engine that guarantees them), before anything is sent.
    onIssues: (listed) => listIssues(sheet, engineIssues(sheet, listed, lang), values.strict, io),
    start: ({ onProgress, onIssues, signal }) => client.importUsers(engineInput(sheet), {
      journal, onProgress, onIssues, signal, chunkSize, intervalMs, lang, ...(retryDelayMs === undefined ? {} : { retryDelayMs }), setAsidePlatform: Boolean(values.strict),
    }),
  });
}
