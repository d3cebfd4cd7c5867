// Where the base URL and the token come from. The token is never taken from the command line
// (where `ps` shows it): `--token-file F`, else `LPM_TOKEN`, else the file `lpm login` wrote.
import { chmodSync, mkdirSync, openSync, readFileSync, renameSync, writeSync, fsyncSync, closeSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { Client } from './lpm.js';
import { authError, systemReason, usage } from './exit.js';
import { transport } from './transport.js';

// Decision: `lpm login` keeps the token in $XDG_CONFIG_HOME/lpm/token (~/.config/lpm/token), mode 0600, as gh and docker keep theirs under ~/.config.
export function defaultTokenFile(env = process.env) {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), '.config');
  return path.join(base, 'lpm', 'token');
}

export function baseUrlOf(values, env = process.env) {
  const url = values['base-url'] ?? env.LPM_BASE_URL;
  if (!url) throw authError('no base URL: pass --base-url URL or set LPM_BASE_URL');
  return url;
}

/** The token and where it came from (for messages: never the token itself). */
export function tokenOf(values, env = process.env) {
  if (values['token-file'] !== undefined) return { token: readToken(values['token-file']), from: values['token-file'] };
  if (env.LPM_TOKEN) return { token: env.LPM_TOKEN.trim(), from: 'LPM_TOKEN' };
  const file = defaultTokenFile(env);
  let exists = true;
  try { statSync(file); } catch { exists = false; }
  if (exists) return { token: readToken(file), from: file };
  throw authError('no token: set LPM_TOKEN, pass --token-file FILE, or run `lpm login`');
}

function readToken(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw authError(`cannot read the token file ${file}: ${systemReason(e)}`);
  }
  const token = text.trim();
  if (!token) throw authError(`the token file ${file} is empty`);
  return token;
}

/** Writes the token to `file` with mode 0600 (a new file renamed over the old one, flushed). */
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

/** A client of `--base-url` with the token; `extra` options on top. */
export function clientOf(values, extra = {}, { needToken = true } = {}) {
  const baseUrl = baseUrlOf(values);
  const fetch = transport();
  const options = { baseUrl, ...(fetch ? { fetch } : {}), ...extra };
  if (needToken) options.token = tokenOf(values).token;
  try {
    return new Client(options);
  } catch (e) {
    // ConfigError: its message names the option, never the token's value.
    throw e.kind === 'config' && e.problem === 'baseUrl'
      ? usage(`${values['base-url'] !== undefined ? '--base-url' : 'LPM_BASE_URL'}: ${e.message}`) : authError(e.message);
  }
}
