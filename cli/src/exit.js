// @ts-check
// The exit codes of `lpm` (documented in README.md) and the errors that carry them.

export const EXIT = {
  /** Everything done: every row created or granted, every row valid, the command succeeded. */
  ok: 0,
  /** Done, but some rows were not: refused, set aside, conflicts, in doubt (see the report). */
  rows: 1,
  /** Bad usage: unknown option, unreadable or malformed file, missing columns, journal misuse
   * (another file's, in use by another runner, a line failing its checksum). */
  usage: 2,
  /** Authentication or configuration: no base URL, no token, token refused or expired, no
   * permission (also when the platform refuses them mid-job: the report's `haltedBy`). */
  auth: 3,
  /** The run stopped before the end (server unreachable, failing, closing on a request; the
   * journal not writable); `--resume` continues it. */
  halted: 4,
  /** Interrupted by Ctrl-C (SIGINT) or SIGTERM; the journal resumes it. */
  interrupted: 130,
};

/** An error that ends the command with `code` and prints `message` (no stack). */
export class CliError extends Error {
  /** @param {number} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export const usage = (/** @type {string} */ message) => new CliError(EXIT.usage, message);
export const authError = (/** @type {string} */ message) => new CliError(EXIT.auth, message);

/**
 * What a system error (`ENOENT`, `EACCES`, ...) means, in words a user acts on; else its code.
 * @param {any} e
 */
export function systemReason(e) {
  /** @type {Record<string, string>} */
  const words = {
    ENOENT: 'no such file or directory',
    ENOTDIR: 'a part of the path is not a directory',
    EISDIR: 'a directory',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'a read-only file system',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'the disk quota is used up',
    EPIPE: 'its reader closed it',
  };
  return (e && words[e.code]) || (e && (e.code || e.message)) || String(e);
}

/** What to do about a token the platform refused (expired, invalid, or without permission). */
export const FIX_TOKEN = 'fix the token (lpm login, LPM_TOKEN or --token-file)';

/**
 * A network failure's cause (the socket's error code) in words.
 * @param {any} e
 */
export function networkReason(e) {
  const code = e?.cause?.cause?.code ?? e?.cause?.code;
  /** @type {Record<string, string>} */
  const words = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'no such host',
    EAI_AGAIN: 'the host name could not be looked up',
    ECONNRESET: 'the connection was reset',
    ETIMEDOUT: 'the connection timed out',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    EPROTO: 'no TLS answer at that address, perhaps an http:// server',
  };
  return words[code] ?? code;
}

/** `1 row`, `2 rows`: a count and its noun, in the number the count needs. */
export const count = (/** @type {number} */ n, /** @type {string} */ noun) => `${n} ${n === 1 ? noun : `${noun}s`}`;
