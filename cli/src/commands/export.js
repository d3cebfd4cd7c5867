// @ts-check
// `lpm export users|courses`: every record through client.allUsers / allCourses, as JSON lines
// (each record exactly as received), CSV or .xlsx (nested objects as dotted columns, arrays as
// JSON; through lpm-sheets' writers, so no cell is read back as a formula).
import { createWriteStream, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { toCsv, toXlsx } from 'lpm-sheets/write';
import { CliError, EXIT, count as counted, systemReason, usage } from '../exit.js';
import { clientOf } from '../config.js';
import { interruptible } from '../interrupt.js';
import { formatOf, sameFormat } from '../options.js';
/** @import { Out, Run } from '../types.js' */

/**
 * A record as dotted paths to cell text: strings as they are, arrays and other values as JSON.
 * @param {object} value @param {string} [prefix] @param {Map<string, string>} [out]
 */
export function flatten(value, prefix = '', out = new Map()) {
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flatten(v, key, out);
    else out.set(key, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return out;
}

/** Writes `text`, waiting for the stream to drain; throws the stream's error once it has one
 * (`failed()`: a full disk, a reader gone), rather than waiting for a drain that never comes.
 * @param {Out} stream @param {string | Uint8Array} text @param {() => Error | undefined} failed */
async function write(stream, text, failed) {
  if (failed()) throw failed();
  if (!stream.write(text)) await once(stream, 'drain');
  if (failed()) throw failed();
}

/** A file that failed as it was written (a full disk): stopped before the end, nothing kept. */
const halted = (/** @type {string} */ file, /** @type {unknown} */ e) => new CliError(EXIT.halted, `--out ${file}: the export stopped: ${systemReason(e)}`);

/**
 * Opens `--out FILE` for writing; returns `{ fd, tmp }`. A file is written under a temporary
 * name (`tmp`) renamed over it at the end; a device or a pipe (`/dev/stdout`, a FIFO) is written
 * as it is, never replaced. A path that cannot be written is refused before a record is read.
 * @param {string} file @returns {{ fd: number, tmp: string | null }}
 */
function openOut(file) {
  let kind;
  try {
    const st = statSync(file);
    kind = st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'special';
  } catch { /* a new file */ }
  if (kind === 'dir') throw usage(`--out ${file}: a directory; name a file in it`);
  const tmp = kind === 'special' ? null : `${file}.${process.pid}.tmp`;
  try {
    return { fd: openSync(tmp ?? file, 'w'), tmp };
  } catch (e) {
    throw usage(`--out ${file}: cannot write it: ${systemReason(e)}`);
  }
}

/** `lpm export`. @type {Run} */
export async function runExport(values, positionals, io) {
  const [what] = positionals;
  if (positionals.length !== 1 || (what !== 'users' && what !== 'courses')) throw usage('export takes users or courses (see lpm export --help)');
  // Decision: as a report's, the format is --out's extension when --format is not given.
  const format = values.format ?? formatOf(values.out, ['jsonl', 'xlsx']) ?? 'csv';
  if (format !== 'csv' && format !== 'jsonl' && format !== 'xlsx') throw usage('--format must be csv, xlsx or jsonl');
  sameFormat('--out', values.out, format, ['csv', 'xlsx', 'jsonl']);
  if (format === 'xlsx' && !values.out && io.stdout.isTTY) throw usage('--format xlsx writes a workbook: name its file with --out FILE');
  const client = clientOf(values);
  // A file is written under a temporary name and renamed at the end: an interrupted export
  // leaves no partial file behind.
  const file = values.out ? openOut(values.out) : null;
  const tmp = file?.tmp;
  /** @type {Out} */
  const out = file ? createWriteStream(/** @type {never} */ (null), { fd: file.fd }) : io.stdout;
  const stop = interruptible(io, tmp ? 'nothing is kept: run the export again' : 'what was written so far is partial: run the export again');
  /** `1 user`, `2 users`. */
  const n = (/** @type {number} */ k) => counted(k, what.slice(0, -1));
  // An error of the output (a full disk; standard output's reader gone, as `| head` does) is
  // kept and thrown by the next write, never left unhandled.
  /** @type {(Error & { code?: string }) | undefined} */
  let outError;
  const onError = (/** @type {Error} */ e) => { outError ??= e; };
  out.on?.('error', onError);
  let count = 0;
  let repeated = 0;
  let ok = false;
  try {
    const listing = what === 'users' ? client.allUsers({ signal: stop.signal }) : client.allCourses({ signal: stop.signal });
    // The listing's records, then its summary (its return value: the repeats it dropped).
    const records = async function* () {
      for (let r = await listing.next(); ; r = await listing.next()) {
        if (r.done) {
          repeated = r.value.repeated;
          return;
        }
        yield r.value;
      }
    };
    if (format === 'jsonl') {
      for await (const r of records()) {
        await write(out, `${JSON.stringify(r)}\n`, () => outError);
        count++;
      }
    } else {
      // The columns are the union of every record's paths (first seen first): all of them must
      // be known before the header line, so CSV keeps the records until the end (as many as the
      // listing hands out: each record once, and a listing that does not end is stopped).
      /** @type {Map<string, string>[]} */
      const flat = [];
      /** @type {Map<string, number>} */
      const columns = new Map();
      for await (const r of records()) {
        const f = flatten(r);
        for (const k of f.keys()) if (!columns.has(k)) columns.set(k, columns.size);
        flat.push(f);
        count++;
      }
      const head = [...columns.keys()];
      if (format === 'xlsx') {
        await write(out, await toXlsx([head, ...flat.map((f) => head.map((k) => f.get(k) ?? ''))], { sheetName: what }), () => outError);
      } else {
        // The BOM makes Excel read UTF-8.
        await write(out, `\uFEFF${toCsv([head])}`, () => outError);
        for (let i = 0; i < flat.length; i += 500) {
          await write(out, toCsv(flat.slice(i, i + 500).map((f) => head.map((k) => f.get(k) ?? ''))), () => outError);
        }
      }
    }
    ok = true;
  } catch (/** @type {any} */ e) {
    if (e && e.kind === 'abort') {
      io.stderr.write(`interrupted after ${n(count)}${tmp ? `: ${values.out} not written` : ''}\n`);
      return EXIT.interrupted;
    }
    // The reader of standard output stopped reading (`lpm export users | head`): it has what it
    // wanted; stop quietly, as other command lines do.
    if (!file && e === outError && e.code === 'EPIPE') return EXIT.ok;
    if (file && e === outError) throw halted(values.out, e);
    // The listing failed mid-way (no answer, a refusal, a server that repeats its pages): said
    // how far it came; the error's own line follows.
    if (count > 0) io.stderr.write(`stopped after ${n(count)} read: ${tmp ? `${values.out} not written` : 'what was written so far is partial'}\n`);
    throw e;
  } finally {
    stop.done();
    if (file) {
      if (!out.destroyed) {
        out.end();
        await once(out, 'close').catch(() => {});
      }
      // (A write that failed as the file was closed fails the export too.)
      if (tmp && (!ok || outError)) rmSync(tmp, { force: true });
    }
    // (Standard output keeps the listener: its reader may go after the last write, too.)
  }
  if (file && outError) throw halted(values.out, outError);
  if (tmp) renameSync(tmp, values.out);
  // Records a later page sent again (overlapping pages) are written once, and said.
  const dropped = repeated ? ` (${counted(repeated, 'repeated record')} of overlapping pages left out)` : '';
  io.stderr.write(`${n(count)} written${values.out ? ` to ${values.out}` : ''}${dropped}\n`);
  return EXIT.ok;
}
