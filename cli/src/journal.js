// The journal of `--journal FILE`: the package's fileJournal (JSON lines, fsync'ed before each
// send, a torn last line dropped), each line carrying a checksum of its event.
//
// Decision: each line ends with `"sum"`, 16 hex digits of the SHA-256 of the event's JSON text as
// the job wrote it; a line that fails it (a flipped byte, an edit by hand, a forged event) is
// refused on load with how to recover, and nothing is sent. A journal begun before lines had
// checksums (its first line has none) is read as it was, and its new lines get them; in a journal
// that begins with one, a line without one is refused. A checksum finds damage and careless
// edits; it is no signature against a deliberate forger. (Here, not in the package: its size
// budget has no room, and the command line is where a journal lives for hours in a user's files.)
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileJournal } from './lpm.js';
import { usage } from './exit.js';

const lineSum = (json) => createHash('sha256').update(json, 'utf8').digest('hex').slice(0, 16);

/** The end of a line with its checksum: the event's JSON with a last member `"sum"`. */
const SUM_TAIL = /,"sum":"([0-9a-f]{16})"\}$/;

/** An event's JSON text (one line, no newline) as the journal keeps it. */
const withSum = (json) => `${json.slice(0, -1)},"sum":"${lineSum(json)}"}\n`;

/**
 * Checks every complete line of the journal's `text`; throws a usage error naming the first that
 * fails, with how to recover.
 */
export function checkLines(file, text) {
  const lines = text.split('\n');
  // The last piece is empty (a complete file) or a torn line, which the store drops.
  let summed;
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i];
    if (line === '') continue;
    const sum = SUM_TAIL.exec(line);
    summed ??= sum !== null;
    const bad = sum ? lineSum(`${line.slice(0, sum.index)}}`) !== sum[1] : summed;
    if (bad) {
      const n = i + 1;
      throw usage(`the journal ${file} line ${n} ${sum ? 'fails its checksum' : 'has no checksum'}: it is not as the job wrote it (damaged or edited); ` +
        `restore the journal from a copy, or delete line ${n} and every line after it and run again with --resume ` +
        '(rows whose outcome was in them are looked up before anything is sent again)');
    }
  }
}

/** The journal store of `file`: fileJournal's, its lines checksummed. */
export function checkedJournal(file) {
  const inner = fileJournal(file);
  return {
    async load() {
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        if (e.code !== 'ENOENT') throw e;
      }
      checkLines(file, text);
      // The events as the engine wrote them (the checksum is the file's, not the event's).
      const events = await inner.load();
      for (const e of events) delete e.sum;
      return events;
    },
    append(events) {
      return this.appendLines(events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    },
    appendLines(given) {
      let text = '';
      for (let at = 0, end; (end = given.indexOf('\n', at)) !== -1; at = end + 1) {
        if (end > at) text += withSum(given.slice(at, end));
      }
      return inner.appendLines(text);
    },
    close() {
      return inner.close?.();
    },
  };
}
