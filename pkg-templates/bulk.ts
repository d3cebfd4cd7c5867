// Bulk jobs (`importUsers`, `grantCourses`): the driver of the core's resumable engines, and the
// journal stores. The engine decides everything (chunks, the interval, look-ups of rows in doubt,
// when to give up); this file only persists what it hands out, waits, and sends what it asks
// through the client's own call machinery.
import type { JournalEvent, RowIssues } from './wasm/lpm_client.js';
import type { Pending } from './abi.js';
import { bulkJob, bulkRequest, UsersCheck } from './abi-bulk.js';
import type { BulkJob } from './abi-bulk.js';
import { makeError } from './errors.js';
import { core, toJson } from './options.js';
import { memoryJournal } from './journal.js';
import type { JournalStore } from './journal.js';
import type { BulkFn, Machinery, SlicesFn } from './internal.js';

/** `BulkJob.poll` answers besides a time to poll again at. */
const REQUEST = -1;
const PERSIST = -2;
const DONE = -3;
const LOOKUP = -5;

const journalError = (detail: string, cause?: unknown) => makeError('config', `the journal was refused: ${detail}`, { problem: 'journal', reason: detail }, cause);

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
  signal: AbortSignal | undefined;
}

/** `onIssues` of `importUsers`: told the rows with issues once, before anything is sent. */
type OnIssues = ((rows: RowIssues[]) => void | Promise<void>) | undefined;

/** The options as given: the driver's, and the engine's (checked by the core). */
type BulkOptions = { journal?: JournalStore; onProgress?: Driver['onProgress']; onIssues?: OnIssues; signal?: AbortSignal; [option: string]: unknown };

function bulkOptions(m: Machinery, options: unknown): Driver & { onIssues: OnIssues; engine: Record<string, unknown> } {
  if (options !== undefined && (options === null || typeof options !== 'object')) throw m.configError('options', 'an object');
  const { journal = memoryJournal(), onProgress, onIssues, signal, ...engine } = (options ?? {}) as BulkOptions;
  if (!journal || typeof journal.load !== 'function' || typeof journal.append !== 'function') {
    throw m.configError('journal', 'an object with load() and append(events)');
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') throw m.configError('onProgress', 'a function');
  if (onIssues !== undefined && typeof onIssues !== 'function') throw m.configError('onIssues', 'a function');
  return { journal, onProgress, onIssues, signal, engine };
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
 * (`create`: the job's create, not a look-up or a grant) and resolves `{status, body}` or
 * rejects with the package's error.
 */
interface JobIo {
  hold(): Promise<number>;
  sleep(ms: number, signal: AbortSignal | undefined): Promise<void>;
  send(create: boolean, signal: AbortSignal | undefined): Promise<{ status: number; body: Uint8Array }>;
}

/** Drives `job` to its end through `io`; `handed(fn)` runs a handing back of an answer (what the
 * job throws, an `internal` error of the driver's misuse, as the package's error: the client's
 * `guard`). */
async function runJob(job: BulkJob, io: JobIo, { journal, onProgress, signal }: Driver, name: string, handed: Machinery['guard']): Promise<unknown> {
  const tell = () => {
    for (let p; (p = job.text(3)) !== undefined;) {
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
  const take = () => { unwritten += job.text(0)!; };
  const persist = async () => {
    if (unwritten === '') return;
    const lines = unwritten;
    unwritten = '';
    try {
      if (journal.appendLines) await journal.appendLines(lines);
      else await journal.append(lines.split('\n').slice(0, -1).map((l) => JSON.parse(l) as JournalEvent));
    } catch (e) {
      // Not persisted: stop here; the journal on disk resumes the job.
      throw journalError(`journal.append failed: ${e && (e as Error).message !== undefined ? (e as Error).message : e}`, e);
    }
  };
  const aborted = async (reason: unknown) => {
    // What the abort changed (rows in doubt) is persisted when it can be; the journal resumes
    // either way.
    try {
      if (job.poll(Date.now()) === PERSIST) take();
      await persist();
    } catch {
      // The journal as it stands resumes the job.
    }
    tell();
    const report = JSON.parse(job.text(1)!);
    return makeError('abort', `${name}: the job was aborted; its journal resumes it`, { report }, reason);
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
      if (next === PERSIST) {
        take();
      } else if (next === DONE) {
        await persist();
        tell();
        return JSON.parse(job.text(1)!);
      } else if (next === REQUEST || next === LOOKUP) {
        await persist();
        let answer;
        try {
          answer = await io.send(next === REQUEST, signal);
        } catch (e) {
          const kind = failureKind(e);
          if (kind === undefined) throw e;
          handed(() => job.handleFailure(Date.now(), kind));
          if (kind === 'abort') throw await aborted(signal ? signal.reason : undefined);
          continue;
        }
        handed(() => job.handleResponse(Date.now(), answer.status, answer.body));
      } else if (next >= 0) {
        await persist();
        await io.sleep(next - now, signal);
      } else {
        // A request out (-4) while the loop waits for none: the driver's defect, not the journal's.
        throw makeError('internal', `${name}: the job was driven out of order (a defect of the driver)`, { reason: 'drivenOutOfOrder' });
      }
    }
  } finally {
    job.free();
    if (typeof journal.close === 'function') await journal.close();
  }
}

/**
 * `client.importUsers` (`kind` import) and `client.grantCourses` (grant): `m` is the client's
 * machinery (its core, settings, `run` of one call, the interval store's helpers).
 */
export const bulk: BulkFn = async (m: Machinery, kind, name, input, options) => {
  const { journal, onProgress, onIssues, signal, engine } = bulkOptions(m, options);
  const text = m.toJson(engine);
  if (text === undefined) throw m.configError('options', 'an object of JSON values');
  const loaded = await loadJournal(journal);
  const { cfg, core } = m;
  // Read before the job exists: a throw here leaves nothing to free.
  const key = m.guard(() => core.guardKey);
  const job = m.guard(() => bulkJob(core, kind, m.toJson(input) ?? '', text, loaded));
  if (onIssues !== undefined) {
    // The rows as the engine judged them (no second validation); a throw or rejection stops
    // the job here, before anything is journaled or sent.
    try {
      await onIssues(JSON.parse(job.text(2)!) as RowIssues[]);
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
      if (kind !== 'import') return Number.NaN;
      let last;
      try {
        last = await m.lastSent(cfg.store, key);
      } catch (e) {
        throw m.storeError('get', e, String);
      }
      return m.guard(() => core.nextCreateAllowedAt(Date.now(), last));
    },
    // The client's own wait (timers beyond 2^31 ms cut and polled again); an abort ends it early
    // and the loop's next turn reports it.
    sleep: (ms, sig) => m.pause(ms, sig, () => undefined).catch(() => undefined),
    send: async (create, sig) => {
      const pending: Pending | undefined = m.guard(() => bulkRequest(core, job));
      if (pending === undefined) throw m.internalError(new Error('no request is ready'));
      if (kind === 'import' && create) {
        // The client's other creates keep the interval from this one (in this realm and the
        // store); a store that fails stops the job before the create leaves.
        const now = Date.now();
        m.seen.set(key, now);
        try {
          if (cfg.store) await cfg.store.set(key, now);
        } catch (e) {
          pending.free();
          throw m.storeError('set', e, String);
        }
      }
      return m.run(cfg, () => pending, { signal: sig }, m.ANSWER);
    },
  };
  return runJob(job, io, { journal, onProgress, signal }, name, m.guard);
};

/** `validateCreateUsersInSlices` (schema.ts): one check of the core's for the whole list, freed
 * when the loop over the slices ends (also by a `break` or a throw). */
export const slices: SlicesFn | undefined = function* (given, options, rows) {
  const check = new UsersCheck(options, rows);
  try {
    for (const slice of given) yield JSON.parse(core(() => check.check(toJson(slice))));
  } finally {
    check.free();
  }
};
