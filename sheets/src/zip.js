// The zip container of an .xlsx: the central directory read here, each part inflated by the
// platform's own DecompressionStream (Node 20.19+, every current browser), streamed and cut off at
// a limit, so a zip bomb costs at most the limit in time and nothing in memory. And the writer of
// the .xlsx files lpm produces (CompressionStream, CRC-32 here).
import { SheetError } from './messages.js';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const utf8 = new TextDecoder();

export const isZip = (b) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 3 && b[3] === 4;
/** A legacy Excel 2.x, 3.0 or 4.0 worksheet (BIFF2-4): a BOF record at the start, no container. */
export const isBiff = (b) => b.length >= 8 && b[0] === 0x09 && (b[1] === 0x00 || b[1] === 0x02 || b[1] === 0x04) && b[3] === 0 && b[2] >= 4 && b[2] <= 16;
/** An OLE compound file: a legacy .xls, or an encrypted (password-protected) .xlsx. */
export const isCompound = (b) => b.length >= 8 && [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1].every((x, i) => b[i] === x);

const notXlsx = (why, params) => new SheetError('notXlsx', { why, ...params });

/** A part's name as the archive is searched by it: any case, `\` read as `/`, no leading `/`. */
export const partName = (name) => name.replace(/\\/g, '/').replace(/^\//, '').toLowerCase();

/** The parts of the archive by `partName`: `{ name, flags, method, csize, usize, local }`. */
export function zipEntries(bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65557); i--) {
    if (dv.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw notXlsx('damagedZip');
  const count = dv.getUint16(eocd + 10, true);
  let at = dv.getUint32(eocd + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw new SheetError('tooBig', { what: 'zip64' });
  const parts = new Map();
  for (let k = 0; k < count; k++) {
    if (at + 46 > bytes.length || dv.getUint32(at, true) !== CENTRAL) throw notXlsx('damagedDirectory');
    const nameLength = dv.getUint16(at + 28, true);
    const extraLength = dv.getUint16(at + 30, true);
    if (at + 46 + nameLength + extraLength > bytes.length) throw notXlsx('damagedDirectory');
    const entry = {
      name: utf8.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      flags: dv.getUint16(at + 8, true),
      method: dv.getUint16(at + 10, true),
      csize: dv.getUint32(at + 20, true),
      usize: dv.getUint32(at + 24, true),
      local: dv.getUint32(at + 42, true),
    };
    // Some writers give every part ZIP64 sizes (the 32-bit ones then read 0xFFFFFFFF): the
    // extra field 0x0001 holds the 64-bit values of those, in this order.
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength;) {
      const id = dv.getUint16(x, true);
      const size = dv.getUint16(x + 2, true);
      if (id === 1) {
        let y = x + 4;
        for (const key of ['usize', 'csize', 'local']) {
          if (entry[key] !== 0xffffffff || y + 8 > x + 4 + size || y + 8 > bytes.length) continue;
          const value = Number(dv.getBigUint64(y, true));
          if (value > bytes.length && key !== 'usize') throw notXlsx('damagedDirectory');
          entry[key] = value;
          y += 8;
        }
      }
      x += 4 + size;
    }
    parts.set(partName(entry.name), entry);
    at += 46 + nameLength + extraLength + dv.getUint16(at + 32, true);
  }
  return parts;
}

/** The compressed bytes of a part (after its local header). */
function dataOf(bytes, entry) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.local;
  if (at + 30 > bytes.length || dv.getUint32(at, true) !== LOCAL) throw notXlsx('damagedPart', { part: entry.name });
  const start = at + 30 + dv.getUint16(at + 26, true) + dv.getUint16(at + 28, true);
  if (start + entry.csize > bytes.length) throw notXlsx('truncatedPart', { part: entry.name });
  return bytes.subarray(start, start + entry.csize);
}

const SLICE = 1 << 16;

/** The decoder of a part's text, told by its first bytes: UTF-16 (Excel Mobile writes it, with or
 * without a byte order mark) or UTF-8. */
function decoderFor(b) {
  if ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0x3c && b[1] === 0)) return new TextDecoder('utf-16le');
  if ((b[0] === 0xfe && b[1] === 0xff) || (b[0] === 0 && b[1] === 0x3c)) return new TextDecoder('utf-16be');
  return new TextDecoder();
}

/**
 * Inflates one part, giving its text to `onText(chunk)` as it comes; throws a SheetError once
 * more than `limit` bytes came out (`what` names the part for the message: `{ part }` or
 * `{ sheet }`). The deflated input is fed in slices while the output is read, so neither side is
 * held whole.
 */
export async function inflateText(bytes, entry, { limit, what, onText }) {
  if (entry.flags & 1) throw new SheetError('encrypted');
  const data = dataOf(bytes, entry);
  let decoder;
  const tooBig = () => new SheetError('tooBig', { what: 'part', ...what, limitMib: Math.round(limit / 2 ** 20) });
  if (entry.method === 0) {
    if (data.length > limit) throw tooBig();
    onText(decoderFor(data).decode(data));
    return;
  }
  if (entry.method !== 8) throw notXlsx('compression', { part: entry.name, method: entry.method });
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  const feeding = (async () => {
    for (let i = 0; i < data.length; i += SLICE) await writer.write(data.subarray(i, i + SLICE));
    await writer.close();
  })();
  feeding.catch(() => {});
  const reader = stream.readable.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > limit) throw tooBig();
      // (The first chunk of an inflated part holds far more than the two bytes the decoder is told by.)
      decoder ??= decoderFor(value);
      onText(decoder.decode(value, { stream: true }));
    }
    if (decoder) onText(decoder.decode());
    await feeding;
  } catch (e) {
    reader.cancel().catch(() => {});
    writer.abort().catch(() => {});
    if (e instanceof SheetError) throw e;
    throw notXlsx('noInflate', { part: entry.name });
  }
}

/** A whole part as text, at most `limit` bytes. */
export async function partText(bytes, entry, limit, what) {
  const chunks = [];
  await inflateText(bytes, entry, { limit, what, onText: (t) => chunks.push(t) });
  return chunks.join('');
}

let table;
function crc32(data) {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let c = -1;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

async function deflate(data) {
  const stream = new Blob([data]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A zip archive of `files` ([name, text]), each part deflated. */
export async function zip(files) {
  const enc = new TextEncoder();
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of files) {
    const raw = enc.encode(text);
    const packed = await deflate(raw);
    const nameBytes = enc.encode(name);
    const head = new Uint8Array(30 + nameBytes.length);
    const h = new DataView(head.buffer);
    h.setUint32(0, LOCAL, true);
    h.setUint16(4, 20, true);
    h.setUint16(6, 0x0800, true); // UTF-8 names
    h.setUint16(8, 8, true);
    h.setUint16(12, 0x21, true); // 1980-01-01, the first date a zip can hold
    h.setUint32(14, crc32(raw), true);
    h.setUint32(18, packed.length, true);
    h.setUint32(22, raw.length, true);
    h.setUint16(26, nameBytes.length, true);
    head.set(nameBytes, 30);
    const central = new Uint8Array(46 + nameBytes.length);
    const c = new DataView(central.buffer);
    c.setUint32(0, CENTRAL, true);
    c.setUint16(4, 20, true);
    c.setUint16(6, 20, true);
    central.set(head.subarray(6, 28), 8);
    c.setUint32(42, offset, true);
    central.set(nameBytes, 46);
    locals.push(head, packed);
    centrals.push(central);
    offset += head.length + packed.length;
  }
  const size = centrals.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const e = new DataView(end.buffer);
  e.setUint32(0, EOCD, true);
  e.setUint16(8, files.length, true);
  e.setUint16(10, files.length, true);
  e.setUint32(12, size, true);
  e.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, end];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
