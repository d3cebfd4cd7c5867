// The journals of bulk jobs (`importUsers`, `grantCourses`): where a job's events are kept so
// that it resumes. In every package; the driver (bulk.js) and the engines only in lpm-client-bulk.
import type { JournalEvent } from './wasm/lpm_client.js';
import { makeError } from './errors.js';

/** Where a bulk job's events are kept: `load` gives back every event appended so far, in order
 * (empty for a new job), `append` stores events durably (flushed) before it resolves. A job
 * started with a journal that holds events resumes from them. */
export interface JournalStore {
  /** Every event appended so far, in order (empty for a new job). */
  load(): readonly JournalEvent[] | Promise<readonly JournalEvent[]>;
  /** Stores `events` durably (flushed) before it resolves. */
  append(events: readonly JournalEvent[]): void | Promise<void>;
  /** The same as `append`, given the events as JSON lines (each event's JSON text and `\n`):
   * a store that keeps text has it, and the job hands its events over without building objects.
   * Optional. */
  appendLines?(lines: string): void | Promise<void>;
  /** Called when the job ends (e.g. to close a file); optional. */
  close?(): void | Promise<void>;
}

/** A journal in memory (tests, short jobs); `events` is what it holds. */
export function memoryJournal(events: readonly JournalEvent[] = []): JournalStore & { readonly events: JournalEvent[] } {
  const held = [...events];
  return {
    events: held,
    load() {
      return held.slice();
    },
    append(more) {
      held.push(...more);
    },
  };
}

const DB = 'lpm-client-journals';
const STORE = 'events';

/** One event as stored: keyed by its journal's name and its place in it. */
interface Row {
  journal: string;
  seq: number;
  event: JournalEvent;
}

/** Runs `fn(store)` in one transaction; resolves with the request's result once committed. */
function withStore<T>(mode: IDBTransactionMode, fn: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> {
  const idb = globalThis.indexedDB;
  if (!idb) return Promise.reject(makeError('config', 'indexedDbJournal needs IndexedDB (a browser)', { problem: 'option', option: 'journal', expected: 'a runtime with IndexedDB' }));
  return new Promise((resolve, reject) => {
    const open = idb.open(DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE, { keyPath: ['journal', 'seq'] });
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(STORE, mode, { durability: 'strict' });
      let result: IDBRequest<T> | void;
      Promise.resolve(fn(tx.objectStore(STORE))).then((r) => { result = r; }, reject);
      tx.oncomplete = () => { db.close(); resolve(result && 'result' in result ? result.result : undefined); };
      tx.onerror = () => { db.close(); reject(tx.error); };
      tx.onabort = () => { db.close(); reject(tx.error); };
    };
  });
}

/** A journal in IndexedDB (browsers): database `lpm-client-journals`, one journal per `name`;
 * `clear()` forgets it (a finished job). */
export function indexedDbJournal(name: string): JournalStore & { clear(): Promise<void> } {
  if (typeof name !== 'string' || name === '') {
    throw makeError('config', 'option `name` must be a non-empty string', { problem: 'option', option: 'name', expected: 'a non-empty string' });
  }
  const range = () => IDBKeyRange.bound([name, 0], [name, Number.MAX_SAFE_INTEGER]);
  let count: number | undefined;
  const load = async () => {
    const rows = (await withStore('readonly', (s) => s.getAll(range()) as IDBRequest<Row[]>)) ?? [];
    count = rows.length;
    return rows.map((r) => r.event);
  };
  return {
    load,
    async append(events) {
      if (count === undefined) await load();
      const from = count ?? 0;
      await withStore('readwrite', (s) => { events.forEach((event, i) => s.put({ journal: name, seq: from + i, event } satisfies Row)); });
      count = from + events.length;
    },
    /** Forgets the journal (a finished job). */
    async clear() {
      await withStore('readwrite', (s) => s.delete(range()));
      count = 0;
    },
  };
}
