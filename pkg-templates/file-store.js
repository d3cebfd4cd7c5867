// The create-interval store in a JSON file, for Node (and Deno and Bun through the `node` entry):
// a restarted script, or a second process on the same machine, still keeps the interval.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { makeError } from './errors.js';

function read(path) {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8'));
    return v && typeof v === 'object' ? v : {};
  } catch (e) {
    if (e && e.code === 'ENOENT') return {};
    // A file that is not ours (or half-written by hand) is not overwritten blindly.
    throw makeError('config', `intervalStore file ${path} cannot be read as JSON: ${e && e.message}`, { problem: 'option', option: 'intervalStore', expected: 'a JSON file of key to time' });
  }
}

/** A store of `{key: atMs}` in `path`: read on every guarded call, written by replacing the file
 * (write beside it, then rename) so a reader never sees half a file. Two processes starting a
 * create at the same instant can both pass: the store narrows that race, it cannot lock. */
export function fileStore(path) {
  if (typeof path !== 'string' || path === '') {
    throw makeError('config', 'option `path` must be a file path', { problem: 'option', option: 'path', expected: 'a file path' });
  }
  return {
    get(key) {
      const at = read(path)[key];
      return typeof at === 'number' ? at : undefined;
    },
    set(key, atMs) {
      const all = read(path);
      all[key] = atMs;
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(all));
      renameSync(tmp, path);
    },
  };
}
