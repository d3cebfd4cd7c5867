// The create-interval store in a JSON file, for Node (and Deno and Bun through the `node` entry):
// a restarted script, or a second process on the same machine, still keeps the interval.
import { readFileSync, renameSync, writeFileSync, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { IntervalStore } from './wasm/lpm_client.js';
import type { JournalStore } from './journal.js';
import type { JournalEvent } from './wasm/lpm_client.js';
// From the shared module as the entries load it (lib.js, not errors.ts bundled again): one
// ConfigError class, so `instanceof` holds.
import { ConfigError } from './lib.js';

/** A ConfigError, as `makeError('config', ...)` in errors.ts makes it. */
const configError = (message: string, data: object) => new ConfigError(message, { ...data, kind: 'config' });

/** A Node error's `code` (`ENOENT`), if it has one. */
const code = (e: unknown) => (e as NodeJS.ErrnoException | undefined)?.code;

function read(path: string): Record<string, unknown> {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8'));
    return v && typeof v === 'object' ? v : {};
  } catch (e) {
    if (code(e) === 'ENOENT') return {};
    // A file that is not ours (or half-written by hand) is not overwritten blindly.
    throw configError(`intervalStore file ${path} cannot be read as JSON: ${e && (e as Error).message}`, { problem: 'option', option: 'intervalStore', expected: 'a JSON file of key to time' });
  }
}

/** A store of `{key: atMs}` in `path`: read on every guarded call, written by replacing the file
 * (write beside it, then rename) so a reader never sees half a file. Two processes starting a
 * create at the same instant can both pass: the store narrows that race, it cannot lock. */
export function fileStore(path: string): IntervalStore {
  if (typeof path !== 'string' || path === '') {
    throw configError('option `path` must be a file path', { problem: 'option', option: 'path', expected: 'a file path' });
  }
  return {
    get(key: string) {
      const at = read(path)[key];
      return typeof at === 'number' ? at : undefined;
    },
    set(key: string, atMs: number) {
      const all = read(path);
      all[key] = atMs;
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(all));
      renameSync(tmp, path);
    },
  };
}

/** A bulk job's journal in a file of JSON lines: each append is written and fsync'ed before it
 * resolves (so a `chunkSending` event is on disk before its request leaves). A torn last line (a
 * process killed mid-write) is dropped on load, and cut from the file before the next append. */
export function fileJournal(path: string): JournalStore {
  if (typeof path !== 'string' || path === '') {
    throw configError('option `path` must be a file path', { problem: 'option', option: 'path', expected: 'a file path' });
  }
  const refused = (reason: string) => configError(`the journal was refused: ${reason}`, { problem: 'journal', reason, refusal: 'damaged' });
  let size: number | undefined;
  let fh: FileHandle | undefined;
  return {
    async load() {
      let text: string;
      try {
        text = await fsp.readFile(path, 'utf8');
      } catch (e) {
        if (code(e) === 'ENOENT') { size = 0; return []; }
        throw e;
      }
      const lines = text.split('\n');
      const events: JournalEvent[] = [];
      let good = 0;
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!;
        const last = i === lines.length - 1;
        if (line === '') { if (!last) good += 1; continue; }
        try {
          events.push(JSON.parse(line));
        } catch {
          // Only the last line may be torn; damage inside the file is not guessed around.
          if (last) break;
          throw refused(`${path} line ${i + 1} is not JSON`);
        }
        // A complete line ends with a newline; the last one without it is torn.
        if (last) { events.pop(); break; }
        good += Buffer.byteLength(line, 'utf8') + 1;
      }
      size = good;
      return events;
    },
    append(events) {
      return this.appendLines!(events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    },
    async appendLines(text) {
      if (size === undefined) await this.load();
      if (fh === undefined) {
        fh = await fsp.open(path, 'a+');
        // Cut a torn tail before writing after it.
        if ((await fh.stat()).size > size!) await fh.truncate(size!);
      }
      await fh.appendFile(text, 'utf8');
      await fh.datasync();
      size = size! + Buffer.byteLength(text, 'utf8');
    },
    /** Closes the file (the job calls it when it ends; appending again reopens it). */
    async close() {
      const open = fh;
      fh = undefined;
      if (open !== undefined) await open.close();
    },
  };
}
