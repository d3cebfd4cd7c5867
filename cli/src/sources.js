// @ts-check
// Where the base URL and the token come from, without the package (main.js names them in its
// messages without loading it): `--token-file F`, else `LPM_TOKEN`, else the file `lpm login`
// wrote.
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { authError, systemReason } from './exit.js';
/** @import { Values } from './types.js' */

// Decision: `lpm login` keeps the token in $XDG_CONFIG_HOME/lpm/token (~/.config/lpm/token), mode 0600, as gh and docker keep theirs under ~/.config.
/** @param {NodeJS.ProcessEnv} [env] */
export function defaultTokenFile(env = process.env) {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), '.config');
  return path.join(base, 'lpm', 'token');
}

/** @param {Values} values @param {NodeJS.ProcessEnv} [env] @returns {string} */
export function baseUrlOf(values, env = process.env) {
  const url = values['base-url'] ?? env.LPM_BASE_URL;
  if (!url) throw authError('no base URL: pass --base-url URL or set LPM_BASE_URL');
  return url;
}

/**
 * The token and where it came from (for messages: never the token itself).
 * @param {Values} values @param {NodeJS.ProcessEnv} [env] @returns {{ token: string, from: string }}
 */
export function tokenOf(values, env = process.env) {
  if (values['token-file'] !== undefined) return { token: readToken(values['token-file']), from: values['token-file'] };
  if (env.LPM_TOKEN) return { token: env.LPM_TOKEN.trim(), from: 'LPM_TOKEN' };
  const file = defaultTokenFile(env);
  let exists = true;
  try { statSync(file); } catch { exists = false; }
  if (exists) return { token: readToken(file), from: file };
  throw authError('no token: set LPM_TOKEN, pass --token-file FILE, or run `lpm login`');
}

/** @param {string} file */
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
