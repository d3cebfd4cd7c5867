// The create interval shared by every `lpm` process of the user: the client's `intervalStore`,
// a JSON file read and written under a lock file, so that two imports against the same platform
// and token (two journals, two terminals, a cron job) keep the contract's interval between them.
//
// The package's `fileStore` reads and writes without a lock: two processes reading at the same
// instant both see the interval passed, and both create. Here the read that lets a create go also
// reserves the slot, under the lock: a second process then reads a time that holds it back for a
// whole interval; the create's own time replaces the reservation when it leaves.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { tryLock } from './lock.js';

// Decision: kept in $XDG_STATE_HOME/lpm/intervals.json (default ~/.local/state/lpm/): state the
// user's processes share, not configuration; one file for every base URL and token (each a key
// the package makes of the base URL and a hash of the token, never the token).
export function defaultIntervalFile(env = process.env) {
  const base = env.XDG_STATE_HOME || path.join(env.HOME || homedir(), '.local', 'state');
  return path.join(base, 'lpm', 'intervals.json');
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** Runs `fn()` holding `file.lock` (waited for up to `waitMs`; a dead holder's is taken over). */
async function locked(file, fn, waitMs = 10_000) {
  const end = Date.now() + waitMs;
  for (;;) {
    const got = tryLock(`${file}.lock`);
    if (got.release) {
      try {
        return fn();
      } finally {
        got.release();
      }
    }
    if (Date.now() > end) {
      const h = got.holder;
      throw new Error(`the interval store ${file} stayed locked ${waitMs} ms by ${h ? `process ${h.pid} on ${h.host}, since ${h.since}` : 'a lock file that names no process'}; delete ${file}.lock if that process is gone`);
    }
    await sleep(2 + Math.random() * 8);
  }
}

function readAll(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e.code === 'ENOENT') return {};
    throw e;
  }
  try {
    const all = JSON.parse(text);
    return all && typeof all === 'object' && !Array.isArray(all) ? all : {};
  } catch {
    // Not ours or damaged: its times are lost, so each key counts as sent now (never early).
    return null;
  }
}

function writeAll(file, all) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(all));
  renameSync(tmp, file);
}

/** The margin added to a create's time: what the network may add between the request leaving
 * and it reaching the platform, so that the next never arrives early. 1% of the interval, from
 * 20 ms to 5 s (the contract's 10 minutes: 5 s); none without an interval (`--interval-ms 0`:
 * nothing to keep apart, where 20 ms a chunk made 100 chunks 2 s slower). */
export const marginMs = (intervalMs) => (intervalMs > 0 ? Math.min(5000, Math.max(20, Math.round(intervalMs / 100))) : 0);

/**
 * An IntervalStore in `file` for creates `intervalMs` apart. Each key holds `{ at, by, sent }`:
 * the time a create left (`sent`), or a reservation, and the process that made it. `get` answers
 * for this process: a create's time plus `marginMs` (this process's own too); another's
 * reservation as it is; when the interval since it has passed, the slot is reserved for this
 * process (`at` now) and the other's time answered (the create may go). This process's own
 * reservation is not held against it (the client knows its own creates).
 *
 * `set(key, at)` is the client's record, made right before the request is handed to fetch;
 * `left(at)` (the transport's, when the request's last byte is written) moves it to when the
 * request actually left: the interval counts from then, not from before a connection was made.
 */
export function sharedIntervalStore(file, intervalMs, { now = Date.now } = {}) {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const me = `${process.pid}@${Math.random().toString(36).slice(2)}`;
  const margin = marginMs(intervalMs);
  let lastKey;
  // The transport's `left` runs while the answer is awaited; the next `get` waits for it.
  let leaving = Promise.resolve();
  const record = (key, at) => locked(file, () => {
    const all = readAll(file) ?? {};
    const entry = all[key];
    // Never moved back (a create of another process may be later than this one's).
    if (entry && entry.sent && typeof entry.at === 'number' && entry.at >= at) return;
    all[key] = { at, by: me, sent: true };
    writeAll(file, all);
  });
  return {
    async get(key) {
      await leaving;
      return locked(file, () => {
        const all = readAll(file);
        const t = now();
        if (all === null) {
          writeAll(file, { [key]: { at: t, by: 'damaged', sent: true } });
          return t + margin;
        }
        const entry = all[key];
        const at = entry && typeof entry.at === 'number' ? entry.at : undefined;
        let held;
        if (at !== undefined) {
          // This process's own reservation: nothing held against it (the slot is its already).
          if (entry.by === me && !entry.sent) return undefined;
          held = entry.sent ? at + margin : at;
          if (t < held + intervalMs) return held;
        }
        // The interval has passed (since anyone's create, this process's too): the slot is
        // reserved for this process before its create may go.
        all[key] = { at: t, by: me, sent: false };
        writeAll(file, all);
        return held;
      });
    },
    set(key, atMs) {
      lastKey = key;
      return record(key, atMs);
    },
    /** The last create (the key `set` last named) left at `atMs`. */
    left(atMs) {
      if (lastKey === undefined) return;
      const key = lastKey;
      leaving = leaving.then(() => record(key, atMs)).catch(() => {
        // The record made before the request stands (at most the connection's time earlier).
      });
    },
  };
}
