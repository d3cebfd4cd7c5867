// Reading the first (or a named) sheet of a legacy Excel workbook (.xls: Excel 5.0/95's BIFF5
// and Excel 97-2003's BIFF8, inside an OLE compound file) into records as xlsx.js does. The
// compound file's sector chains are followed with a bound on every walk (a loop in a damaged
// file ends there); the workbook stream's records give the sheets, shared strings, formats and
// the cells: numbers (shown through their format, numfmt.js), strings, booleans, a formula's
// saved result, errors as row problems, merged areas.
import { SheetError } from './messages.js';
import { builtinFormat, formatText, formatValue } from './numfmt.js';
import { colName, spreadMerges } from './xlsx.js';

const damaged = () => new SheetError('notXlsx', { why: 'damagedXls' });

/** The bytes of the stream `names` (the first found) of a compound file, or undefined. */
function streamOf(bytes, names) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 512) throw damaged();
  const shift = dv.getUint16(0x1e, true);
  if (shift !== 9 && shift !== 12) throw damaged();
  const size = 1 << shift;
  const sectors = Math.floor((bytes.length - size) / size) + 1;
  const at = (s) => (s + 1) * size;
  const u32 = (o) => (o + 4 <= bytes.length ? dv.getUint32(o, true) : 0xfffffffe);
  // The FAT: its sectors listed by the header's DIFAT, then by DIFAT sectors.
  const fatSectors = [];
  for (let i = 0; i < 109; i++) fatSectors.push(u32(0x4c + i * 4));
  let difat = u32(0x44);
  // (No table needs more entries than the file has sectors: a damaged file's lists stop there.)
  for (let n = 0; difat < sectors && n < sectors && fatSectors.length < sectors + 109; n++) {
    for (let i = 0; i < size / 4 - 1; i++) fatSectors.push(u32(at(difat) + i * 4));
    difat = u32(at(difat) + size - 4);
  }
  const fat = [];
  for (const s of fatSectors) {
    if (s >= sectors) continue;
    if (fat.length >= sectors) break;
    for (let i = 0; i < size / 4; i++) fat.push(u32(at(s) + i * 4));
  }
  const chain = (start, table) => {
    const out = [];
    for (let s = start; s < table.length && out.length <= table.length; s = table[s]) out.push(s);
    return out;
  };
  const read = (start, length, table, unit, offset) => {
    const out = new Uint8Array(length);
    let k = 0;
    for (const s of chain(start, table)) {
      if (k >= length) break;
      const from = offset(s);
      const piece = bytes.subarray(from, Math.min(from + unit, bytes.length));
      out.set(piece.subarray(0, Math.min(piece.length, length - k)), k);
      k += piece.length;
    }
    if (k < length) throw damaged();
    return out;
  };
  const dirChain = chain(u32(0x30), fat);
  const entries = [];
  for (const s of dirChain) {
    for (let e = at(s); e + 128 <= Math.min(at(s) + size, bytes.length); e += 128) {
      const len = dv.getUint16(e + 64, true);
      let name = '';
      for (let i = 0; i + 2 < Math.min(len, 64); i += 2) name += String.fromCharCode(dv.getUint16(e + i, true));
      entries.push({ name, type: bytes[e + 66], start: u32(e + 116), size: u32(e + 120) });
    }
  }
  const root = entries.find((e) => e.type === 5);
  const entry = names.map((n) => entries.find((e) => e.type === 2 && e.name.toLowerCase() === n.toLowerCase())).find(Boolean);
  if (!entry || !root) return undefined;
  if (entry.size > bytes.length * 2) throw damaged();
  if (entry.size >= u32(0x38) || u32(0x38) === 0xfffffffe) return read(entry.start, entry.size, fat, size, at);
  // A small stream lives in the mini stream (the root's), in 64-byte sectors listed by the mini FAT.
  const mini = read(root.start, Math.min(root.size, bytes.length), fat, size, at);
  const miniFat = [];
  const miniSize = 1 << Math.min(dv.getUint16(0x20, true), 12);
  for (const s of chain(u32(0x3c), fat)) {
    if (miniFat.length > mini.length / miniSize) break;
    for (let i = 0; i < size / 4; i++) miniFat.push(u32(at(s) + i * 4));
  }
  const out = new Uint8Array(entry.size);
  let k = 0;
  for (const s of chain(entry.start, miniFat)) {
    if (k >= entry.size) break;
    const piece = mini.subarray(s * miniSize, s * miniSize + miniSize);
    out.set(piece.subarray(0, Math.min(piece.length, entry.size - k)), k);
    k += piece.length;
  }
  if (k < entry.size) throw damaged();
  return out;
}

const ERRORS = { 0: '#NULL!', 7: '#DIV/0!', 15: '#VALUE!', 23: '#REF!', 29: '#NAME?', 36: '#NUM!', 42: '#N/A' };
const CODEPAGES = { 874: 'windows-874', 932: 'shift_jis', 936: 'gbk', 949: 'euc-kr', 950: 'big5', 10000: 'macintosh' };
for (let cp = 1250; cp <= 1258; cp++) CODEPAGES[cp] = `windows-${cp}`;
CODEPAGES[32768] = 'macintosh';

/** The records of a workbook stream from `at`: `[type, data]`, until EOF or the stream's end. */
function* records(stream, at) {
  const dv = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  while (at + 4 <= stream.length) {
    const type = dv.getUint16(at, true);
    const len = dv.getUint16(at + 2, true);
    const data = stream.subarray(at + 4, Math.min(at + 4 + len, stream.length));
    at += 4 + len;
    yield [type, data, at];
  }
}

/**
 * Reads `bytes` (an .xls) and resolves with `{ sheetName, sheetNames, records, merges }` as
 * readXlsx does. `sheet` names the sheet (default: the first visible worksheet). At most `maxRows`
 * rows.
 */
export async function readXls(bytes, options) {
  try {
    return read(bytes, options);
  } catch (e) {
    // A record shorter than its kind says, in a damaged file: the reader's own error, not a RangeError.
    if (e instanceof RangeError) throw damaged();
    throw e;
  }
}

function read(bytes, { sheet, maxRows, numberFormat = formatValue }) {
  const stream = streamOf(bytes, ['Workbook', 'Book']);
  if (!stream) throw new SheetError('notXlsx', { why: 'noWorkbook' });
  let biff8 = true;
  let decoder = cp1252;
  let date1904 = false;
  const formats = new Map();
  const xfs = [];
  const sheets = [];
  const sst = [];
  const dvOf = (d) => new DataView(d.buffer, d.byteOffset, d.byteLength);

  /** An XLUnicodeString at `at` of `d` (BIFF8; `lenBytes` 1 or 2), or BIFF5's byte string. */
  const str = (d, at, lenBytes) => {
    const n = lenBytes === 1 ? d[at] : d[at] | (d[at + 1] << 8);
    at += lenBytes;
    if (!biff8) return decoder.decode(d.subarray(at, at + n));
    const flags = d[at++];
    if (flags & 8) at += 2;
    if (flags & 4) at += 4;
    return flags & 1 ? new TextDecoder('utf-16le').decode(d.subarray(at, at + 2 * n)) : latin1(d.subarray(at, at + n));
  };

  // The workbook globals.
  const globals = records(stream, 0);
  let sstParts = null;
  for (const [type, d] of globals) {
    const v = dvOf(d);
    if (type === 0x0809 && d.length >= 2) biff8 = v.getUint16(0, true) === 0x0600;
    else if (type === 0x002f) throw new SheetError('encrypted');
    else if (type === 0x0042 && d.length >= 2) {
      const cp = v.getUint16(0, true);
      try { if (CODEPAGES[cp] && cp !== 1252) decoder = new TextDecoder(CODEPAGES[cp]); } catch { /* the default code page stays */ }
    } else if (type === 0x0022 && d.length >= 2) date1904 = v.getUint16(0, true) === 1;
    else if (type === 0x041e && d.length >= 3) formats.set(v.getUint16(0, true), str(d, 2, biff8 ? 2 : 1));
    else if (type === 0x00e0 && d.length >= 4) xfs.push(v.getUint16(2, true));
    else if (type === 0x0085 && d.length >= 7) sheets.push({ at: v.getUint32(0, true), hidden: (d[4] & 3) !== 0, kind: d[5], name: str(d, 6, 1) });
    else if (type === 0x00fc) sstParts = [d];
    else if (type === 0x003c && sstParts) sstParts.push(d);
    else if (type !== 0x003c) {
      if (sstParts) { readSst(sstParts, sst); sstParts = null; }
      if (type === 0x000a) break;
    }
  }
  if (sstParts) readSst(sstParts, sst);
  const worksheets = sheets.filter((s) => s.kind === 0);
  const sheetNames = worksheets.map((s) => s.name);
  let chosen;
  if (sheet !== undefined) {
    const want = sheet.trim().toLowerCase();
    chosen = worksheets.find((s) => s.name.trim().toLowerCase() === want);
    if (!chosen) throw new SheetError('noSheet', { name: sheet, names: sheetNames });
  } else {
    chosen = worksheets.find((s) => !s.hidden) ?? worksheets[0];
    if (!chosen) throw new SheetError('notXlsx', { why: 'noSheets' });
  }

  const rows = new Map();
  const areas = [];
  const formatOf = (xf) => {
    const id = xfs[xf] ?? 0;
    return formats.get(id) ?? builtinFormat(id);
  };
  const rowOf = (r) => {
    let row = rows.get(r);
    if (!row) {
      row = { cells: [], line: r + 1, problems: [] };
      rows.set(r, row);
      if (maxRows !== undefined && rows.size > maxRows) throw new SheetError('tooManyRows', { limit: maxRows });
    }
    return row;
  };
  const put = (r, c, text) => { if (text !== '') rowOf(r).cells[c] = text; };
  // A text cell shows through its format's text section (`;;;@`), as in an .xlsx.
  // A line break written as CR LF is one, as in an .xlsx.
  const text = (r, c, xf, s) => put(r, c, s === '' ? s : formatText(s.includes('\r\n') ? s.replace(/\r\n/g, '\n') : s, formatOf(xf)));
  const num = (r, c, xf, n) => put(r, c, numberFormat(n, formatOf(xf), date1904));
  const problem = (r, c, code, value) => rowOf(r).problems.push({ code, cell: `${colName(c)}${r + 1}`, col: c, ...(value === undefined ? {} : { value }) });
  let pending = null;
  let depth = 0;
  for (const [type, d] of records(stream, chosen.at)) {
    const v = dvOf(d);
    if (type === 0x0809) { depth += 1; continue; }
    if (type === 0x000a) { if (--depth <= 0) break; continue; }
    if (depth > 1) continue;
    if (type === 0x0207 && pending && d.length >= 2) { text(pending.r, pending.c, pending.xf, str(d, 0, 2)); pending = null; continue; }
    // (A formula's string result follows it, perhaps after its shared or array formula.)
    if (d.length < 6 || type === 0x04bc || type === 0x0221 || type === 0x0236) continue;
    const r = v.getUint16(0, true);
    const c = v.getUint16(2, true);
    const xf = v.getUint16(4, true);
    pending = null;
    if (type === 0x00fd && d.length >= 10) text(r, c, xf, sst[v.getUint32(6, true)] ?? '');
    else if ((type === 0x0204 || type === 0x00d6) && d.length >= 8) text(r, c, xf, str(d, 6, 2));
    else if (type === 0x0203 && d.length >= 14) num(r, c, xf, v.getFloat64(6, true));
    else if (type === 0x027e && d.length >= 10) num(r, c, xf, rk(v.getUint32(6, true)));
    else if (type === 0x00bd) {
      for (let k = 4, col = c; k + 6 <= d.length - 2; k += 6, col++) num(r, col, v.getUint16(k, true), rk(v.getUint32(k + 2, true)));
    } else if (type === 0x0205 && d.length >= 8) {
      if (d[7]) problem(r, c, 'errorCell', ERRORS[d[6]] ?? '#N/A');
      else put(r, c, d[6] ? 'TRUE' : 'FALSE');
    } else if (type === 0x0006 && d.length >= 14) {
      if (v.getUint16(12, true) !== 0xffff) num(r, c, xf, v.getFloat64(6, true));
      else if (d[6] === 0) pending = { r, c, xf };
      else if (d[6] === 1) put(r, c, d[8] ? 'TRUE' : 'FALSE');
      else if (d[6] === 2) problem(r, c, 'errorCell', ERRORS[d[8]] ?? '#N/A');
    } else if (type === 0x00e5) {
      const count = v.getUint16(0, true);
      for (let k = 0; k < count && 2 + k * 8 + 8 <= d.length; k++) {
        const o = 2 + k * 8;
        areas.push([{ row: v.getUint16(o, true) + 1, col: v.getUint16(o + 4, true) }, { row: v.getUint16(o + 2, true) + 1, col: v.getUint16(o + 6, true) }]);
      }
    }
  }
  const out = [...rows.keys()].sort((a, b) => a - b).map((k) => {
    const row = rows.get(k);
    for (let i = 0; i < row.cells.length; i++) if (row.cells[i] === undefined) row.cells[i] = '';
    const record = { cells: row.cells, line: row.line };
    if (row.problems.length) record.problems = row.problems;
    return record;
  }).filter((r) => r.cells.length || r.problems);
  return { sheetName: chosen.name, sheetNames, records: spreadMerges(out, areas), merges: areas };
}

// Windows-1252's 0x80-0x9F (the rest is Latin-1). Node 20's TextDecoder('windows-1252') drops
// these bytes, so the code page most BIFF5 files name is decoded here.
const CP1252 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const cp1252 = { decode: (b) => latin1(b).replace(/[\u0080-\u009f]/g, (c) => CP1252[c.charCodeAt(0) - 0x80]) };

const latin1 = (b) => {
  let s = '';
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
};

/** An RK number: an integer or the top 30 bits of a double, either perhaps divided by 100. */
function rk(x) {
  let n;
  if (x & 2) n = x >> 2;
  else {
    const b = new DataView(new ArrayBuffer(8));
    b.setUint32(4, x & 0xfffffffc, true);
    n = b.getFloat64(0, true);
  }
  return x & 1 ? n / 100 : n;
}

/**
 * The shared strings (SST and its CONTINUE records): a string's characters may go on in the next
 * record, which then starts with the flags byte of what follows (one or two bytes a character).
 */
function readSst(parts, out) {
  let p = 0;
  let at = 8;
  const left = () => (p < parts.length ? parts[p].length - at : 0);
  const next = () => { p += 1; at = 0; return p < parts.length; };
  const byte = () => {
    while (left() <= 0) if (!next()) throw damaged();
    return parts[p][at++];
  };
  const u16 = () => byte() | (byte() << 8);
  const u32 = () => (u16() | (u16() << 16)) >>> 0;
  const skip = (n) => {
    while (n > 0) {
      if (left() <= 0 && !next()) return;
      const k = Math.min(n, left());
      at += k;
      n -= k;
    }
  };
  const count = parts[0].length >= 8 ? new DataView(parts[0].buffer, parts[0].byteOffset).getUint32(4, true) : 0;
  for (let i = 0; i < count; i++) {
    if (p >= parts.length || (p === parts.length - 1 && left() <= 0)) break;
    const n = u16();
    let flags = byte();
    const runs = flags & 8 ? u16() : 0;
    const ext = flags & 4 ? u32() : 0;
    let s = '';
    let done = 0;
    while (done < n) {
      if (left() <= 0) {
        if (!next()) break;
        flags = byte();
      }
      const wide = flags & 1;
      const k = Math.min(n - done, Math.floor(left() / (wide ? 2 : 1)));
      const chunk = parts[p].subarray(at, at + k * (wide ? 2 : 1));
      s += wide ? new TextDecoder('utf-16le').decode(chunk) : latin1(chunk);
      at += chunk.length;
      done += k;
      if (k === 0 && left() > 0) break;
    }
    skip(runs * 4 + ext);
    out.push(s);
  }
}
