// The journals of bulk jobs (`importUsers`, `grantCourses`): where a job's events are kept so
// that it resumes. In every package; the driver (bulk.js) and the engines only in lpm-client-bulk.
import { makeError } from './errors.js';

/** A journal in memory. */
export function memoryJournal(events = []) {
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

/** Runs `fn(store)` in one transaction; resolves with the request's result once committed. */
function withStore(mode, fn) {
  const idb = globalThis.indexedDB;
  if (!idb) return Promise.reject(makeError('config', 'indexedDbJournal needs IndexedDB (a browser)', { problem: 'option', option: 'journal', expected: 'a runtime with IndexedDB' }));
  return new Promise((resolve, reject) => {
    const open = idb.open(DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE, { keyPath: ['journal', 'seq'] });
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(STORE, mode, { durability: 'strict' });
      let result;
      Promise.resolve(fn(tx.objectStore(STORE))).then((r) => { result = r; }, reject);
      tx.oncomplete = () => { db.close(); resolve(result && 'result' in result ? result.result : result); };
      tx.onerror = () => { db.close(); reject(tx.error); };
      tx.onabort = () => { db.close(); reject(tx.error); };
    };
  });
}

/** A journal in IndexedDB, one per `name`. */
export function indexedDbJournal(name) {
  if (typeof name !== 'string' || name === '') {
    throw makeError('config', 'option `name` must be a non-empty string', { problem: 'option', option: 'name', expected: 'a non-empty string' });
  }
  const range = () => IDBKeyRange.bound([name, 0], [name, Number.MAX_SAFE_INTEGER]);
  let count;
  const load = async () => {
    const rows = await withStore('readonly', (s) => s.getAll(range()));
    count = rows.length;
    return rows.map((r) => r.event);
  };
  return {
    load,
    async append(events) {
      if (count === undefined) await load();
      const from = count;
      await withStore('readwrite', (s) => { events.forEach((event, i) => s.put({ journal: name, seq: from + i, event })); });
      count = from + events.length;
    },
    /** Forgets the journal (a finished job). */
    async clear() {
      await withStore('readwrite', (s) => s.delete(range()));
      count = 0;
    },
  };
}
