// `lpm export users|courses`: every record through client.allUsers / allCourses, as JSON lines
// (each record exactly as received), CSV or .xlsx (nested objects as dotted columns, arrays as
// JSON; through lpm-sheets' writers, so no cell is read back as a formula).
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { toCsv, toXlsx } from 'lpm-sheets/write';
import { EXIT, usage } from '../exit.js';
import { clientOf } from '../config.js';
import { interruptible } from '../interrupt.js';

/** A record as dotted paths to cell text: strings as they are, arrays and other values as JSON. */
export function flatten(value, prefix = '', out = new Map()) {
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flatten(v, key, out);
    else out.set(key, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return out;
}

async function write(stream, text) {
  if (!stream.write(text)) await once(stream, 'drain');
}

export async function runExport(values, positionals, io) {
  const [what] = positionals;
  if (positionals.length !== 1 || (what !== 'users' && what !== 'courses')) throw usage('export takes users or courses (see lpm export --help)');
  const format = values.format ?? 'csv';
  if (format !== 'csv' && format !== 'jsonl' && format !== 'xlsx') throw usage('--format must be csv, xlsx or jsonl');
  if (format === 'xlsx' && !values.out && io.stdout.isTTY) throw usage('--format xlsx writes a workbook: name its file with --out FILE');
  const client = clientOf(values);
  const stop = interruptible(io);
  // A file is written under a temporary name and renamed at the end: an interrupted export
  // leaves no partial file behind.
  const tmp = values.out ? `${values.out}.${process.pid}.tmp` : null;
  const out = tmp ? createWriteStream(tmp) : io.stdout;
  let count = 0;
  let ok = false;
  try {
    const records = what === 'users' ? client.allUsers({ signal: stop.signal }) : client.allCourses({ signal: stop.signal });
    if (format === 'jsonl') {
      for await (const r of records) {
        await write(out, `${JSON.stringify(r)}\n`);
        count++;
      }
    } else {
      // The columns are the union of every record's paths (first seen first): all of them must
      // be known before the header line, so CSV keeps the records until the end.
      const flat = [];
      const columns = new Map();
      for await (const r of records) {
        const f = flatten(r);
        for (const k of f.keys()) if (!columns.has(k)) columns.set(k, columns.size);
        flat.push(f);
      }
      count = flat.length;
      const head = [...columns.keys()];
      if (format === 'xlsx') {
        await write(out, await toXlsx([head, ...flat.map((f) => head.map((k) => f.get(k) ?? ''))], { sheetName: what }));
      } else {
        // The BOM makes Excel read UTF-8.
        await write(out, `\uFEFF${toCsv([head])}`);
        for (let i = 0; i < flat.length; i += 500) {
          await write(out, toCsv(flat.slice(i, i + 500).map((f) => head.map((k) => f.get(k) ?? ''))));
        }
      }
    }
    ok = true;
  } catch (e) {
    if (e && e.kind === 'abort') {
      io.stderr.write(`interrupted after ${count} ${what}${tmp ? `: ${values.out} not written` : ''}\n`);
      return EXIT.interrupted;
    }
    throw e;
  } finally {
    stop.done();
    if (tmp) {
      out.end();
      await once(out, 'close');
      if (!ok) rmSync(tmp, { force: true });
    }
  }
  if (tmp) renameSync(tmp, values.out);
  io.stderr.write(`${count} ${what} written${values.out ? ` to ${values.out}` : ''}\n`);
  return EXIT.ok;
}
