// Bulk jobs (`importUsers`, `grantCourses`), lpm-client-bulk's only: their public types (the
// client's methods, options and abort errors, which lib.ts re-exports) and, as the default export,
// the driver of the core's resumable engines. The engine decides everything (chunks, the interval,
// look-ups of rows in doubt, when to give up); the driver only persists what it hands out, waits,
// and sends what it asks through the client's own call machinery.
import type {
  GrantOptions, GrantReport, ImportOptions, ImportReport, JournalEvent, NewUser, Progress, RowIssues, SyncReport,
} from './wasm/lpm_client.js';
import { Pending } from './core.js';
import { SliceCheck } from './wasm/lpm_client.js';
import type { BulkJob, Issue, ValidateOptions } from './wasm/lpm_client.js';
import { AbortError, internalError, makeError } from './errors.js';
import { memoryJournal } from './journal.js';
import { configError, core, jsonBytes, optionsJson, toJson } from './options.js';
import type { JournalStore } from './journal.js';
import type { BulkFn } from './internal.js';
import { ANSWER, pause, run } from './driver.js';
import { lastSent, later, seen, storeError, time } from './stores.js';
import { log } from './hooks.js';

/** Options of a bulk job besides its engine's (`chunkSize`, `lang`, ...). */
export interface BulkDriverOptions {
  /** Default: a journal in memory, which does not survive the process. */
  journal?: JournalStore | undefined;
  /** Told after every change: rows done, failed, set aside, remaining, next send, estimated end. */
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Stops the job (an answer in flight is treated as lost: its rows are looked up on resume). */
  signal?: AbortSignal | undefined;
}
/** Options of `importUsers`: the driver's, the import engine's (`chunkSize`, `intervalMs`,
 * `lang`, ...) and `onIssues`. */
export type ImportUsersOptions = BulkDriverOptions & Partial<ImportOptions> & {
  /** Told once, before anything is journaled or sent, the rows with issues (set aside) or
   * warnings (sent anyway) as the job judged them: list them without validating the rows again.
   * Awaited; a throw or rejection stops the job there. */
  onIssues?: ((rows: RowIssues[]) => void | Promise<void>) | undefined;
};
/** Options of `grantCourses`: the driver's and the grant engine's (`chunkSize`, `lang`, ...). */
export type GrantCoursesOptions = BulkDriverOptions & Partial<GrantOptions>;
/** Options of `syncAccounts`: the driver's, the import engine's (its creates and grants take
 * them) and `onPlan`. */
export type SyncAccountsOptions = BulkDriverOptions & Partial<ImportOptions> & {
  /** Told once a run, when the look-ups are done and before anything is created or granted,
   * the rows to create (0-based) and the report as it stands (what exists, conflicts, what each
   * account lacks); may resolve with passwords for those without one (`{[row]: password}`),
   * never journaled. Awaited; a throw or rejection stops the job there (a dry run). */
  onPlan?: ((rows: number[], report: SyncReport) => void | Record<number, string> | Promise<void | Record<number, string>>) | undefined;
};

/** The sheet of `syncAccounts`. */
export interface SyncInput {
  /** The accounts, as `importUsers` takes them (a password is needed only to create one). */
  rows: readonly unknown[];
  /** The course ids each row's account should hold (`courses[i]` for `rows[i]`). */
  courses: readonly (readonly string[])[];
}


/** The accounts and courses of `grantCourses`. */
export interface GrantInput {
  /** Account ids, any number of them. */
  users: readonly string[];
  /** Course ids granted to every account. */
  courses: readonly string[];
}

/** The bulk jobs of a `Client` of lpm-client-bulk (lpm-client's `Client` has neither). */
export interface BulkMethods {
  /**
   * Imports any number of accounts (bulk work beyond 100 rows): rows with contract-level issues
   * and repeats are set aside (never blocking the others), the rest are created in chunks of at
   * most `chunkSize` (100), one create call per create interval (the contract's 10 minutes,
   * also kept against this client's other creates). Every event is appended to `journal` before
   * the request it announces leaves, so a job interrupted anywhere (a killed process, a closed
   * laptop, a dropped connection) resumes from the same rows and journal without creating an
   * account twice: rows whose answer was lost are looked up (`search-user`) before anything is
   * sent again.
   *
   * @param rows The accounts to create (`NewUser`-shaped objects; a row that is not one is set
   * aside with its issues).
   * @param options The journal, progress and issue callbacks, the signal, and the engine's
   * options (`chunkSize`, `intervalMs`, `lang`, ...).
   * @returns A report of every row (created, failed, set aside, conflict, ...) and the counts.
   * @throws `ConfigError`: Unusable options, a journal of another input, or an `intervalMs`
   * shorter than the client's guarded `createInterval`.
   * @throws `ImportAbortError`: `signal` fired: its `report` holds the rows as they stood; the
   * same rows and journal resume the job.
   * @example
   * ```ts
   * import { Client, ImportAbortError, fileJournal } from "lpm-client-bulk";
   *
   * const stop = new AbortController();
   * process.once("SIGINT", () => stop.abort());
   * try {
   *   const report = await client.importUsers(rows, { journal: fileJournal("./import.jsonl"), signal: stop.signal });
   *   console.log(`${report.counts.created} created`);
   * } catch (e) {
   *   if (e instanceof ImportAbortError) console.log(`stopped at ${e.report.counts.created} created: run again to resume`);
   *   else throw e;
   * }
   * ```
   */
  // Decision: rows are typed as accounts, so a misspelt key does not compile; the engine still
  // checks every row at run time (a sheet's rows, cast by their reader, and JavaScript callers).
  importUsers(rows: readonly NewUser[], options?: ImportUsersOptions): Promise<ImportReport>;
  /**
   * Grants `courses` to any number of accounts: add-courses in chunks of at most 100 accounts,
   * journaled and resumable like `importUsers` (a chunk whose answer was lost is sent again:
   * granting twice is harmless).
   *
   * @param input The account ids and the course ids.
   * @param options The journal, progress callback, signal, and the engine's options.
   * @returns A report of every account (granted, failed, ...) and the counts.
   * @throws `ConfigError`: Unusable options or a journal of another input.
   * @throws `GrantAbortError`: `signal` fired: its `report` holds the accounts as they stood.
   * @example
   * ```ts
   * const report = await client.grantCourses({ users: ids, courses: [courseId] }, { journal: fileJournal("./grant.jsonl") });
   * console.log(`${report.counts.granted} granted, ${report.counts.failed} failed`);
   * ```
   */
  grantCourses(input: GrantInput, options?: GrantCoursesOptions): Promise<GrantReport>;
  /**
   * Makes the platform match a sheet: each row is looked up (`search-user`), the missing
   * accounts are created as `importUsers` creates them (chunks, interval, exactly once), each
   * account is granted the listed courses it lacks (accounts that lack the same share calls), and
   * accounts holding other courses are reported (the API cannot revoke). A row whose e-mail or
   * username belongs to another person's account is a conflict, never touched. One journal,
   * resumable like `importUsers`; a second sync of a matched sheet sends nothing
   * (`nothingToSend`).
   *
   * @param input The rows and each row's course ids.
   * @param options The journal, progress and plan callbacks, the signal, and the engine's options.
   * @returns A report of every row (exists, created, conflict, set aside, ...; what it lacked and
   * its grant; other courses) and the counts.
   * @throws `ConfigError`: Unusable options or a journal of another sheet or other courses.
   * @throws `SyncAbortError`: `signal` fired: its `report` holds the rows as they stood.
   * @example
   * ```ts
   * const report = await client.syncAccounts({ rows, courses: rows.map(() => [courseId]) }, { journal: fileJournal("./sync.jsonl") });
   * console.log(report.nothingToSend ? "already matched" : `${report.counts.created} created, ${report.counts.granted} granted`);
   * ```
   */
  syncAccounts(input: SyncInput, options?: SyncAccountsOptions): Promise<SyncReport>;
}

/** `importUsers` was stopped by its `signal`. `report` holds every row as it stood; the same rows
 * and journal resume the job. An `AbortError`, with the import's report. */
export class ImportAbortError extends AbortError {
  /** @internal Its name survives minification. */
  static override name = 'ImportAbortError';
  /** Every row as it stood when the job stopped. */
  declare readonly report: ImportReport;
}

/** `grantCourses` was stopped by its `signal`. `report` holds every account as it stood; the
 * same input and journal resume the job. An `AbortError`, with the grant's report. */
export class GrantAbortError extends AbortError {
  /** @internal Its name survives minification. */
  static override name = 'GrantAbortError';
  /** Every account as it stood when the job stopped. */
  declare readonly report: GrantReport;
}

/** `syncAccounts` was stopped by its `signal`. `report` holds every row as it stood; the same
 * input and journal resume the sync. An `AbortError`, with the sync's report. */
export class SyncAbortError extends AbortError {
  /** @internal Its name survives minification. */
  static override name = 'SyncAbortError';
  /** Every row as it stood when the sync stopped. */
  declare readonly report: SyncReport;
}

const journalError = (detail: string, cause?: unknown) => makeError('config', `the journal was refused: ${detail}`, { problem: 'journal', reason: detail, refusal: 'store' }, cause);

/** The engine's failure kind of an error the client's call machinery threw, if it is one. */
function failureKind(e: unknown): 'network' | 'timeout' | 'abort' | undefined {
  switch (e && (e as Error).name) {
    case 'NetworkError': return 'network';
    case 'TimeoutError': return 'timeout';
    case 'AbortError': return 'abort';
    // The server answered; the answer is unreadable to us, as a lost one.
    case 'ResponseTooLargeError': return 'network';
    default: return undefined;
  }
}

/** A bulk call's driver options, checked; the rest are the engine's (`chunkSize`, `lang`, ...). */
interface Driver {
  journal: JournalStore;
  onProgress: ((progress: unknown) => void) | undefined;
  onPlan?: OnPlan;
  signal: AbortSignal | undefined;
}

/** `onIssues` of `importUsers`: told the rows with issues once, before anything is sent. */
type OnIssues = ((rows: RowIssues[]) => void | Promise<void>) | undefined;

/** The options as given: the driver's, and the engine's (checked by the core). */
type BulkOptions = { journal?: JournalStore; onProgress?: Driver['onProgress']; onIssues?: OnIssues; onPlan?: OnPlan; signal?: AbortSignal; [option: string]: unknown };

/** `onPlan` of `syncAccounts`: told the rows to create; may give passwords. */
type OnPlan = SyncAccountsOptions['onPlan'];

function bulkOptions(options: unknown): Driver & { onIssues: OnIssues; engine: Record<string, unknown> } {
  if (options !== undefined && (options === null || typeof options !== 'object')) throw configError('options', 'an object');
  const { journal = memoryJournal(), onProgress, onIssues, onPlan, signal, ...engine } = (options ?? {}) as BulkOptions;
  if (!journal || typeof journal.load !== 'function' || typeof journal.append !== 'function') {
    throw configError('journal', 'an object with load() and append(events)');
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') throw configError('onProgress', 'a function');
  if (onIssues !== undefined && typeof onIssues !== 'function') throw configError('onIssues', 'a function');
  if (onPlan !== undefined && typeof onPlan !== 'function') throw configError('onPlan', 'a function');
  return { journal, onProgress, onIssues, onPlan, signal, engine };
}

/** The events a journal holds, as the JSON text the core reads. */
async function loadJournal(journal: JournalStore): Promise<string> {
  let events;
  try {
    events = await journal.load();
  } catch (e) {
    throw journalError(`journal.load failed: ${e && (e as Error).message !== undefined ? (e as Error).message : e}`, e);
  }
  if (!Array.isArray(events)) throw journalError('journal.load must give an array of events');
  return JSON.stringify(events);
}

/**
 * What `runJob` asks of the client. `hold()` resolves when the client's interval store lets the
 * next create go (ms, NaN: now); asked only when the job may plan a create (`mayPlan`), so a
 * file store is read once a chunk. `send(create, signal)` sends the request the job handed out
 * (`create`: the job's create, not a look-up or a grant) and resolves `{status, body, date}`
 * (`date`: the answer's `Date` header in ms, the platform's clock; NaN when the runtime hides it)
 * or rejects with the package's error.
 */
interface JobIo {
  hold(): Promise<number>;
  /** After a create's answer (or failure) is handed back: the job's end of that call into the
   * client's interval store. */
  ended(): Promise<void>;
  sleep(ms: number, signal: AbortSignal | undefined): Promise<void>;
  send(create: boolean, signal: AbortSignal | undefined): Promise<{ status: number; body: Uint8Array; date: number }>;
}

/** Drives `job` to its end through `io`; an answer handed back runs in `core` (what the job
 * throws, an `internal` error of the driver's misuse, as the package's error). */
async function runJob(job: BulkJob, io: JobIo, { journal, onProgress, onPlan, signal }: Driver, name: string): Promise<unknown> {
  const tell = () => {
    for (let p; (p = job.progress()) !== undefined;) {
      if (onProgress === undefined) continue;
      try {
        onProgress(JSON.parse(p));
      } catch {
        // A progress callback that throws does not stop the job.
      }
    }
  };
  // Events the engine handed out (JSON lines), appended in one write (one fsync) right before
  // the next request leaves, the job waits or ends: the engine's rule (persisted before anything
  // is sent) holds, with one append per chunk instead of two. A store with `appendLines` gets
  // the text as it is.
  let unwritten = '';
  const take = () => { unwritten += job.events(); };
  const persist = async () => {
    if (unwritten === '') return;
    const lines = unwritten;
    unwritten = '';
    try {
      if (journal.appendLines) await journal.appendLines(lines);
      else await journal.append(lines.split('\n').slice(0, -1).map((l) => JSON.parse(l) as JournalEvent));
    } catch (e) {
      // Not persisted: stop here; the journal on disk resumes the job. The report as things
      // stand goes with the error (`report`), for the caller to write where it can.
      const failed = journalError(`journal.append failed: ${e && (e as Error).message !== undefined ? (e as Error).message : e}`, e);
      (failed as { report?: unknown }).report = JSON.parse(job.report());
      throw failed;
    }
  };
  const aborted = async (reason: unknown) => {
    // What the abort changed (rows in doubt) is persisted when it can be; the journal resumes
    // either way.
    try {
      if (job.poll(Date.now()) === 'persist') take();
      await persist();
    } catch {
      // The journal as it stands resumes the job.
    }
    tell();
    const report = JSON.parse(job.report());
    const Aborted = name === 'importUsers' ? ImportAbortError : name === 'syncAccounts' ? SyncAbortError : GrantAbortError;
    return new Aborted(`${name}: the job was aborted; its journal resumes it`, { report, kind: 'abort' }, reason);
  };
  try {
    for (;;) {
      tell();
      if (signal && signal.aborted) throw await aborted(signal.reason);
      let now = Date.now();
      if (job.mayPlan(now)) {
        const hold = await io.hold();
        if (!Number.isNaN(hold)) job.holdUntil(hold);
        now = Date.now();
      }
      const next = job.poll(now);
      if (next === 'persist') {
        take();
      } else if (next === 'done') {
        await persist();
        tell();
        return JSON.parse(job.report());
      } else if (next === 'plan') {
        // A sync's rows to create: passwords for those without one, never journaled.
        const given = await onPlan?.(JSON.parse(job.planned()) as number[], JSON.parse(job.report()) as SyncReport);
        if (given && typeof given === 'object') {
          for (const [row, password] of Object.entries(given)) {
            if (typeof password === 'string') job.fill(Number(row), password);
          }
        }
      } else if (next === 'request' || next === 'lookup') {
        await persist();
        // A look-up planned in this poll journals nothing (no 'persist' went first): the
        // progress naming the row looked up now is told before its request goes.
        tell();
        let answer;
        try {
          answer = await io.send(job.creates, signal);
        } catch (e) {
          const kind = failureKind(e);
          if (kind === undefined) throw e;
          core(() => job.handleFailure(Date.now(), kind));
          if (next === 'request') await io.ended();
          if (kind === 'abort') throw await aborted(signal ? signal.reason : undefined);
          continue;
        }
        core(() => job.handleResponse(Date.now(), answer.status, answer.body, answer.date));
        if (next === 'request') await io.ended();
      } else if (next === 'wait') {
        await persist();
        // The first poll's progress (the wait it names) is told before the wait, not after.
        tell();
        await io.sleep(job.until - now, signal);
      } else {
        // A request out ('busy') while the loop waits for none: the driver's defect, not the journal's.
        throw makeError('internal', `${name}: the job was driven out of order (a defect of the driver)`, { reason: 'drivenOutOfOrder' });
      }
    }
  } finally {
    job.free();
    if (typeof journal.close === 'function') await journal.close();
  }
}

/**
 * @internal The client's bulk driver (client.ts), left out of lib.ts's `export *`:
 * `client.importUsers` (`kind` import) and `client.grantCourses` (grant) of the client's wasm
 * core (`wasm`) and settings (`cfg`).
 */
export default (async (wasm, cfg, kind, name, input, options) => {
  const { journal, onProgress, onIssues, onPlan, signal, engine } = bulkOptions(options);
  const text = toJson(engine);
  if (text === undefined) throw configError('options', 'an object of JSON values');
  const loaded = await loadJournal(journal);
  // Read before the job exists: a throw here leaves nothing to free.
  const key = core(() => wasm.guardKey);
  const job = core(() => wasm.bulkJob(kind, jsonBytes(input) ?? new Uint8Array(), text, loaded));
  if (onIssues !== undefined) {
    // The rows as the engine judged them (no second validation); a throw or rejection stops
    // the job here, before anything is journaled or sent.
    try {
      await onIssues(JSON.parse(job.issues()) as RowIssues[]);
    } catch (e) {
      job.free();
      if (typeof journal.close === 'function') await journal.close();
      throw e;
    }
  }
  const io: JobIo = {
    // When the client's interval store lets the next create go (it also knows of creates made
    // outside this job).
    hold: async () => {
      if (kind === 'grant') return Number.NaN;
      let last;
      try {
        last = await lastSent(cfg.store, key);
      } catch (e) {
        throw storeError('get', e, String);
      }
      // The store's last create plus the interval, as the store's clock says (not compared with
      // this machine's: the job reads it through the offset it measured, and refuses one far
      // ahead as damaged).
      return core(() => wasm.nextCreateAllowedAt(0, last));
    },
    // The platform counts the interval from when it handled the create: the store keeps the
    // call's end as the job counts it, not only its send. After the answer a store that fails
    // is only logged: the answer is not lost.
    ended: async () => {
      // Imports and syncs create; a grant's calls keep no create interval.
      const at = kind === 'grant' ? Number.NaN : job.lastCallAt;
      if (Number.isNaN(at)) return;
      seen.set(key, later(time(seen.get(key)), at));
      try {
        if (cfg.store) await cfg.store.set(key, at);
      } catch (e) {
        log(cfg, 'error', storeError('set', e, String).message);
      }
    },
    // The client's own wait (timers beyond 2^31 ms cut and polled again); an abort ends it early
    // and the loop's next turn reports it.
    sleep: (ms, sig) => pause(ms, sig, () => undefined).catch(() => undefined),
    send: async (create, sig) => {
      const call = core(() => wasm.bulkRequest(job));
      if (call === undefined) throw internalError(new Error('no request is ready'));
      const pending = new Pending(call);
      if (create) {
        // The client's other creates keep the interval from this one (in this realm and the
        // store); a store that fails stops the job before the create leaves.
        const now = Date.now();
        seen.set(key, now);
        try {
          if (cfg.store) await cfg.store.set(key, now);
        } catch (e) {
          pending.free();
          throw storeError('set', e, String);
        }
      }
      const answer = await run(cfg, () => pending, { signal: sig }, ANSWER);
      let date = Number.NaN;
      try {
        const text = answer.headers && answer.headers.get('date');
        if (typeof text === 'string') date = Date.parse(text);
      } catch {
        // A custom fetch's headers that throw: the platform's clock is not known.
      }
      return { status: answer.status, body: answer.body, date };
    },
  };
  return runJob(job, io, { journal, onProgress, onPlan, signal }, name);
}) satisfies BulkFn;

/**
 * `validateCreateUsers` of a list too long for one call (a sheet's 100,000 rows), given a slice
 * at a time so the wasm never holds it whole: yields each slice's issues as `validateCreateUsers`
 * gives them for those rows of the whole list (paths counted from the list's first row; a repeat
 * of any earlier row's e-mail or username found, in this slice or an earlier one). The list's own
 * issues (`empty`, `too_many`: about one call) are left out. In lpm-client-bulk only.
 * @param users The list's slices, in order (any iterable of arrays).
 * @param options The validators' options (`lang`, `platformRules`).
 * @param rows How many rows the slices hold in all, when known: the check makes its tables for
 * them at once.
 * @returns A generator of each slice's issues; the check is freed when the loop over it ends
 * (also by a `break` or a throw).
 * @example
 * for (const issues of validateCreateUsersInSlices(slices(rows), { lang: "vi" }, rows.length)) {
 *   for (const issue of issues) console.log(`row ${Number(issue.path[0]) + 1}: ${issue.message}`);
 * }
 */
export function* validateCreateUsersInSlices(users: Iterable<readonly unknown[]>, options?: ValidateOptions, rows?: number): Generator<Issue[], void, undefined> {
  const check = core(() => new SliceCheck(optionsJson(options), typeof rows === 'number' && rows > 0 && rows < 2 ** 32 ? Math.floor(rows) : 0));
  try {
    for (const slice of users) yield JSON.parse(core(() => check.check(jsonBytes(slice)))) as Issue[];
  } finally {
    check.free();
  }
}
