// @ts-check
// The client of the base URL with the token, and the token file `lpm login` writes. Where the
// base URL and the token come from is sources.js (the token never from the command line, where
// `ps` shows it).
import { chmodSync, mkdirSync, openSync, renameSync, writeSync, fsyncSync, closeSync } from 'node:fs';
import path from 'node:path';
import { Client } from './lpm.js';
import { authError, usage } from './exit.js';
import { transport } from './transport.js';
import { baseUrlOf, tokenOf } from './sources.js';

export { baseUrlOf, defaultTokenFile, tokenOf } from './sources.js';
/** @import { ClientOptions, FetchLike } from 'lpm-client-bulk' */
/** @import { Values } from './types.js' */

/**
 * Writes the token to `file` with mode 0600 (a new file renamed over the old one, flushed).
 * @param {string} file @param {string} token
 */
export function writeToken(file, token) {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, `${token}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/**
 * A client of `--base-url` with the token; `extra` options on top.
 * @param {Values} values @param {Partial<ClientOptions>} [extra] @param {{ needToken?: boolean }} [how]
 * @returns {Client}
 */
export function clientOf(values, extra = {}, { needToken = true } = {}) {
  const baseUrl = baseUrlOf(values);
  // The driver reads an answer's `body.getReader()` when it has one (transport.js's has, and no
  // `arrayBuffer()`); the package's `FetchLike` declares only the `arrayBuffer()` answer.
  const fetch = /** @type {FetchLike | undefined} */ (/** @type {unknown} */ (transport()));
  /** @type {ClientOptions} */
  const options = { baseUrl, ...(fetch ? { fetch } : {}), ...extra };
  if (needToken) options.token = tokenOf(values).token;
  try {
    return new Client(options);
  } catch (/** @type {any} */ e) {
    // ConfigError: its message names the option, never the token's value.
    throw e.kind === 'config' && e.problem === 'baseUrl'
      ? usage(`${values['base-url'] !== undefined ? '--base-url' : 'LPM_BASE_URL'}: ${e.message}`) : authError(e.message);
  }
}

/**
 * Refuses `items` (the values of `option`) holding the API token itself, pasted in the wrong
 * place: it would be sent as an id and kept in the journal and the report. Never echoed.
 */
/** @param {Values} values @param {string[]} items @param {string} option */
export function notTheToken(values, items, option) {
  const { token } = tokenOf(values);
  if (items.some((x) => x === token)) {
    throw usage(`${option} holds the API token (pasted in the wrong place?): give ids there; the token is never written to a journal or a report`);
  }
}
