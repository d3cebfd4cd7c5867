// One runner per job: a lock file beside the journal (`J.lock`), holding who runs the job (pid,
// host, since), made with an atomic link() so that two processes cannot both create it, and
// removed when the command ends. A holder on this host whose process is gone (SIGKILL, a crash,
// a reboot) left a stale lock: it is taken over.
//
// Decision: a lock file rather than an OS lock (flock and fcntl are not in Node's fs): it names
// its holder in the message a second runner gets, and works the same on every OS. A holder on
// another host (a journal on a shared drive) cannot be checked: it is refused, and the message
// says which file to delete once that runner is known to be gone.
import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { CliError, EXIT, systemReason, usage } from './exit.js';

/** The errors of a disk that takes no more (space, quota, a file size limit). */
const FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/** Whether process `pid` of this host is alive (EPERM: alive, another user's). */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** The holder written in a lock file, or null when it cannot be read as one. */
function holderOf(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const h = JSON.parse(text);
    return h && Number.isInteger(h.pid) && typeof h.host === 'string' && typeof h.since === 'string' ? h : null;
  } catch {
    return null;
  }
}

const same = (a, b) => a && b && a.pid === b.pid && a.host === b.host && a.since === b.since;

/**
 * Takes the lock file `file` for process `pid` of `host` when it is free or stale: resolves
 * { release } (also run when the process exits), or { holder } (null: a lock file that names no
 * runner) when another live process has it.
 */
export function tryLock(file, { host = hostname(), pid = process.pid } = {}) {
  const me = { pid, host, since: new Date().toISOString() };
  const tmp = `${file}.${pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(me)}\n`);
  } catch (e) {
    // (A full disk may leave the file made and empty.)
    rmSync(tmp, { force: true });
    throw e;
  }
  try {
    for (let tries = 0; ; tries++) {
      try {
        linkSync(tmp, file);
        break;
      } catch (e) {
        if (e.code !== 'EEXIST') throw e;
      }
      const holder = holderOf(file);
      if (holder === undefined) continue; // released meanwhile: try again
      const stale = holder !== null && holder.host === host && holder.pid !== pid && !alive(holder.pid);
      if (!stale || tries > 5) return { holder };
      // A stale lock: moved aside (only one process can move it), then checked to be the one seen
      // stale; a lock another process took meanwhile is put back.
      const aside = `${file}.${pid}.stale`;
      try {
        renameSync(file, aside);
      } catch (e) {
        if (e.code === 'ENOENT') continue;
        throw e;
      }
      if (!same(holderOf(aside), holder)) {
        try { linkSync(aside, file); } catch { /* a third runner has it: the next turn names it */ }
      }
      unlinkSync(aside);
    }
  } finally {
    unlinkSync(tmp);
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    // Only our own lock is removed (never one a later runner took after ours was judged stale).
    try {
      if (same(holderOf(file), me)) unlinkSync(file);
    } catch {
      // Gone already, or unreadable: a later run judges it.
    }
  };
  process.on('exit', release);
  return { release };
}

/**
 * Takes the lock of `journal` for this process until it exits; returns `release()`. Throws a
 * usage error naming the holder when another live process has it.
 */
export function lockJournal(journal) {
  const file = `${journal}.lock`;
  let got;
  try {
    got = tryLock(file);
  } catch (e) {
    const message = `--journal ${journal}: cannot create its lock file ${file}: ${systemReason(e)}`;
    // A full disk stops the command as a journal it cannot take does (exit 4), not as misuse.
    if (FULL.has(e && e.code)) throw new CliError(EXIT.halted, `${message}; free the space, then run the same command again`);
    throw usage(message);
  }
  if (got.release) return got.release;
  const { holder } = got;
  const who = holder ? `process ${holder.pid} on ${holder.host}, since ${holder.since}` : 'a lock file that names no runner';
  throw usage(`the journal ${journal} is in use by ${who}: one job has one runner. ` +
    `Wait for it to end, or, if that runner is gone, delete ${file} and run again`);
}
