// Where the create intervals are kept beyond one call: this realm's record (`seen`) and the
// caller's store (Web Storage, a file, their own), read and written by the driver.
import type { IntervalStore } from './wasm/lpm_client.js';
import { makeError } from './errors.js';
import type { LpmError } from './errors.js';
import type { JournalStore } from './journal.js';
import { cleanCause, message } from './untrusted.js';
import { configError } from './options.js';

export const isThenable = (v: unknown): v is PromiseLike<unknown> => !!v && typeof (v as PromiseLike<unknown>).then === 'function';

/** When each guard key last sent, as this realm knows it: the default store, and the floor of any
 * other (a second call in this realm sees the first before an asynchronous store has written). */
export const seen = new Map<string, number>();

/** The later of two times, NaN standing for none. */
export const later = (a: number, b: number): number => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b));
export const time = (v: unknown): number => (typeof v === 'number' ? v : Number.NaN);

/** When `key` last sent: the later of this realm's record and the store's (NaN: never). A store
 * answering synchronously is not awaited, so two calls in this realm cannot both pass the guard. */
export function lastSent(store: IntervalStore | undefined, key: string): number | Promise<number> {
  const v = store ? store.get(key) : undefined;
  const floor = () => time(seen.get(key));
  return isThenable(v) ? v.then((t) => later(time(t), floor())) as Promise<number> : later(time(v), floor());
}

/** A store that threw or rejected: a ConfigError naming it, the store's error as its cause. */
export function storeError(op: string, e: unknown, redact: (text: unknown) => string): LpmError {
  const detail = redact(message(e));
  // Its cause a copy: what the store threw is not trusted to be read later (a logger's inspect).
  return makeError('config', `intervalStore.${op} failed: ${detail}`, { problem: 'option', option: 'intervalStore', expected: 'a store whose get and set work' }, cleanCause({ redact }, e, true));
}

/** A store over Web Storage (`localStorage`, `sessionStorage`, or anything with getItem/setItem). */
export function webStorageStore(
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void },
  prefix = 'lpm-client:',
): IntervalStore {
  if (!storage || typeof storage.getItem !== 'function' || typeof storage.setItem !== 'function') throw configError('storage', 'a Web Storage (localStorage or sessionStorage)');
  return {
    get(key: string) {
      const v = storage.getItem(prefix + key);
      return v == null ? undefined : Number(v);
    },
    set(key: string, atMs: number) {
      storage.setItem(prefix + key, String(atMs));
    },
  };
}

/** An interval store in a JSON file (Node, Deno, Bun; other runtimes throw ConfigError): a
 * restarted script keeps the intervals. */
export function fileStore(path: string): IntervalStore {
  throw configError('intervalStore', 'a store this runtime supports: fileStore needs the package\'s `node` entry (Node, Deno, Bun)');
}

/** A journal in a file of JSON lines, appended and fsync'ed before each send (Node, Deno, Bun;
 * other runtimes throw ConfigError). A torn last line (a process killed mid-write) is ignored. */
export function fileJournal(path: string): JournalStore {
  throw configError('journal', 'a journal this runtime supports: fileJournal needs the package\'s `node` entry (Node, Deno, Bun)');
}
