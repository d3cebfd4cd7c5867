// Import accounts from a JSON file of rows, any number of them, stoppable with Ctrl-C and
// resumable: run it again with the same rows and journal and it goes on where it stopped,
// creating no account twice (rows whose answer was lost are looked up before anything is resent).
//
//   LPM_BASE_URL=… LPM_TOKEN=… node import.js rows.json import.journal
//
// The platform allows one create call (up to 100 rows) per 10 minutes; LPM_CREATE_INTERVAL_MS
// shortens it against a server that allows it (the emulator), and is the one setting for both
// the client's guard and the job. (`examples/typescript/check.sh` runs it against the emulator,
// interrupts it and resumes it.)
import { readFileSync } from 'node:fs';
import { Client, ConfigError, ImportAbortError, fileJournal, type NewUser, type Progress } from 'lpm-client-bulk';

const [rowsFile, journalFile] = process.argv.slice(2);
const baseUrl = process.env.LPM_BASE_URL;
const token = process.env.LPM_TOKEN;
if (!rowsFile || !journalFile || !baseUrl || !token) {
  console.error('usage: LPM_BASE_URL=… LPM_TOKEN=… node import.js rows.json import.journal');
  process.exit(2);
}
const intervalMs = Number(process.env.LPM_CREATE_INTERVAL_MS ?? 600_000);

// The file's rows as accounts: the engine checks each at run time and sets aside one that is not.
const rows = JSON.parse(readFileSync(rowsFile, 'utf8')) as NewUser[];
// The journal holds when each chunk left: a run started again right after Ctrl-C (or a crash)
// still waits out the interval since the last one, as the platform asks.
const client = new Client({ baseUrl, token, createInterval: { intervalMs } });

// Ctrl-C stops the job cleanly: the journal keeps every row's state.
const stop = new AbortController();
process.once('SIGINT', () => stop.abort(new Error('interrupted (Ctrl-C)')));

const time = (ms: number | undefined) => (ms === undefined ? '-' : new Date(ms).toISOString().slice(11, 19));
const progress = (p: Progress) =>
  console.log(`progress: ${p.done} created, ${p.failed} failed, ${p.setAside} set aside, ${p.remaining} to go; next chunk ${time(p.nextSendAt)}`);

try {
  const report = await client.importUsers(rows, {
    journal: fileJournal(journalFile),
    signal: stop.signal,
    intervalMs,
    onIssues: (issues) => {
      for (const r of issues) for (const i of r.issues) console.log(`row ${r.row + 1} set aside: ${i.message}`);
    },
    onProgress: progress,
  });
  const c = report.counts;
  console.log(`done: ${c.created} created, ${c.conflicts} already there, ${c.failed} failed, ${c.setAside} set aside, of ${c.total}`);
  console.log(JSON.stringify({ done: true, ...c }));
} catch (e) {
  if (e instanceof ImportAbortError) {
    // The import's own abort error: its `report` is the import's, every row as it stood.
    const left = e.report.counts.notSent;
    console.log(`stopped: ${left} rows not sent yet. Run the same command again to resume.`);
    console.log(JSON.stringify({ done: false, notSent: left }));
    process.exitCode = 130;
  } else if (e instanceof ConfigError) {
    console.error(`cannot run: ${e.message}`);
    process.exitCode = 2;
  } else {
    throw e;
  }
}
