// CSV as spreadsheet programs write it: UTF-8 with or without the BOM, or UTF-16 with its BOM;
// comma, semicolon or tab; RFC 4180 quotes; and CRLF, LF or CR as the line break, per line (a
// sheet edited by two programs mixes them: each break ends a line, none joins two).
import { SheetError } from './messages.js';

const DELIMITERS = [',', ';', '\t'];

/** The file's text: UTF-16 LE/BE after its BOM, else UTF-8 (a BOM kept, dropped by the parser). */
export function decodeText(bytes) {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // A legacy code page (Windows-1258, TCVN3, ...): its bytes cannot be told apart reliably.
    throw new SheetError('notUtf8');
  }
}

/** The delimiter of the header line: the most frequent of , ; and tab outside quotes (comma on a tie). */
export function detectDelimiter(text) {
  const counts = new Map(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch) + 1);
  }
  let best = ',';
  for (const d of DELIMITERS) if (counts.get(d) > counts.get(best)) best = d;
  return best;
}

/** How many line breaks `s` holds, CRLF counted once. */
function breaks(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10 || (c === 13 && s.charCodeAt(i + 1) !== 10)) n += 1;
  }
  return n;
}

/**
 * A record of a line without a quote: its `cells` split from its text each time they are read,
 * so a sheet holds each line once (a view of the file's text) rather than an array and a string
 * a cell (figures: docs/performance.md).
 */
class LineRecord {
  #text;
  #delimiter;
  constructor(text, delimiter, line) {
    this.#text = text;
    this.#delimiter = delimiter;
    this.line = line;
  }

  get cells() {
    return this.#text.split(this.#delimiter);
  }
}

/**
 * Every record of `text` as `{ cells, line }`, `line` the line of the file the record starts on
 * (a quoted cell may hold line breaks). Empty lines are skipped (their numbers still count); a
 * line holding only `""` is a record of one empty cell (blank records are the table's to skip).
 * A quote opens a quoted cell only at the cell's start; elsewhere it is a character of the cell,
 * as Excel reads it. Throws a SheetError for a quoted cell never closed, or followed by more than
 * spaces before the delimiter, or past `maxRows` records.
 */
export function csvRecords(text, delimiter, maxRows = Infinity) {
  const d = delimiter.charCodeAt(0);
  const n = text.length;
  const out = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  if (!text.includes('"')) {
    // No quote: each line is a record, its cells what lies between delimiters (~10x cheaper).
    const brk = /\r\n|\n|\r/g;
    while (i <= n) {
      brk.lastIndex = i;
      const m = brk.exec(text);
      const end = m ? m.index : n;
      if (end > i && out.push(new LineRecord(text.slice(i, end), delimiter, line)) > maxRows) throw new SheetError('tooManyRows', { limit: maxRows });
      if (!m) break;
      line += 1;
      i = end + m[0].length;
    }
    return out;
  }
  while (i < n) {
    const start = line;
    const cells = [];
    let quoted = false;
    for (;;) {
      if (text.charCodeAt(i) === 34) {
        quoted = true;
        let value = '';
        i += 1;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q === -1) throw new SheetError('badQuote', { line: start });
          const part = text.slice(i, q);
          line += breaks(part);
          value += part;
          if (text.charCodeAt(q + 1) === 34) {
            value += '"';
            i = q + 2;
          } else {
            i = q + 1;
            break;
          }
        }
        // Spaces after the closing quote are ignored; anything else is a malformed cell.
        while (text.charCodeAt(i) === 32) i += 1;
        const c = text.charCodeAt(i);
        if (i < n && c !== d && c !== 10 && c !== 13) throw new SheetError('closingQuote', { line, after: text.slice(i, i + 10).split(/[\r\n]/)[0] });
        cells.push(value);
      } else {
        const from = i;
        for (let c = text.charCodeAt(i); i < n && c !== d && c !== 10 && c !== 13; c = text.charCodeAt(++i));
        cells.push(text.slice(from, i));
      }
      if (i < n && text.charCodeAt(i) === d) {
        i += 1;
        continue;
      }
      break;
    }
    // At a line break or the end.
    if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10) i += 2;
    else if (i < n) i += 1;
    if (!(cells.length === 1 && cells[0] === '' && !quoted) && out.push({ cells, line: start }) > maxRows) throw new SheetError('tooManyRows', { limit: maxRows });
    line += 1;
  }
  return out;
}
