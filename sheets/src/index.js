// lpm-sheets: the one reader of the sheets staff keep (CSV as any spreadsheet program writes it,
// and .xlsx workbooks), shared by the command line and the dashboard, with no dependency: the
// .xlsx parts are inflated by the platform's DecompressionStream, by xlsx.js, loaded only for an
// .xlsx. The writers are in write.js.
import { csvRecords, decodeText, detectDelimiter } from './csv.js';
import { SheetError, fileTooBig, message } from './messages.js';
import { MAX_ROWS } from './table.js';
import { isBiff, isCompound, isZip, partName, partText, zipEntries } from './zip.js';

export { SheetError, fileTooBig, message } from './messages.js';
export { accountRows, MAX_ROWS } from './table.js';
export { csvRecords, decodeText, detectDelimiter } from './csv.js';
export { PASSWORD_LENGTH, randomPassword } from './passwords.js';

/** The largest file read: the callers check a file's size against it before reading it. */
export const MAX_BYTES = 32 * 2 ** 20;
/** Records read at most: MAX_ROWS data rows, the header and what may stand above it. */
const MAX_RECORDS = MAX_ROWS + 11;

/** The text of a row problem (`accountRows`' `problem`) in `lang`. */
export const problemMessage = (problem, lang = 'en') => message(problem.code, problem, lang);

/** Whether `bytes` (a compound file) is an encrypted OOXML package: its stream names in UTF-16. */
function encrypted(bytes) {
  const name = new Uint8Array([...'EncryptionInfo'].flatMap((c) => [c.charCodeAt(0), 0]));
  outer: for (let i = 0; i + name.length <= Math.min(bytes.length, 1 << 20); i++) {
    for (let k = 0; k < name.length; k++) if (bytes[i + k] !== name[k]) continue outer;
    return true;
  }
  return false;
}

/**
 * Reads a sheet file's bytes: an .xlsx workbook (told by its content, not its name) or CSV. Resolves
 * with `{ format: 'csv'|'xlsx', delimiter?, sheetName?, sheetNames?, records }`, `records` each
 * `{ cells, line, problems? }` in order, `line` the line (CSV) or row (xlsx) the sheet shows.
 * `name` (the file's name) lets a renamed file be told as such; `sheet` names the workbook's
 * sheet (default: the first visible one). Rejects with a SheetError.
 */
export async function readTable(bytes, options = {}) {
  try {
    return await read(bytes, options);
  } catch (e) {
    // The readers stop a few records past MAX_ROWS (the header and a title may stand above).
    if (e instanceof SheetError && e.code === 'tooManyRows') throw new SheetError('tooManyRows', { limit: MAX_ROWS });
    throw e;
  }
}

/**
 * What a zip holds: 'xlsx' (an Office Open XML workbook, or what may be one), 'ods' (an OpenDocument
 * spreadsheet), or why it is no workbook: 'openDocument' (another OpenDocument: text, slides),
 * 'word', 'numbers' (an Apple Numbers document).
 */
async function zipKind(bytes, entries) {
  const has = (name) => entries.has(partName(name));
  if (has('content.xml') && !has('xl/workbook.xml')) {
    const mime = has('mimetype') ? await partText(bytes, entries.get('mimetype'), 1024, { part: 'mimetype' }) : '';
    return mime === '' || mime.includes('opendocument.spreadsheet') ? 'ods' : 'openDocument';
  }
  if (has('index/document.iwa') || has('index.zip') || [...entries.keys()].some((n) => n.endsWith('.iwa'))) return 'numbers';
  if (has('word/document.xml') && !has('xl/workbook.xml')) return 'word';
  return 'xlsx';
}

async function read(bytes, { name = '', sheet, numberFormat }) {
  if (bytes.length > MAX_BYTES) throw fileTooBig(bytes.length, MAX_BYTES);
  if (isZip(bytes)) {
    const entries = zipEntries(bytes);
    const kind = await zipKind(bytes, entries);
    if (kind === 'ods') {
      const { readOds } = await import('./ods.js');
      return { format: 'ods', ...(await readOds(bytes, entries, { sheet, maxRows: MAX_RECORDS })) };
    }
    if (kind !== 'xlsx') throw new SheetError('notXlsx', { why: kind });
    const { readXlsx } = await import('./xlsx.js');
    const x = await readXlsx(bytes, { sheet, maxRows: MAX_RECORDS, numberFormat, entries });
    return { format: 'xlsx', ...x };
  }
  if (isCompound(bytes)) {
    if (encrypted(bytes)) throw new SheetError('encrypted');
    const { readXls } = await import('./xls.js');
    return { format: 'xls', ...(await readXls(bytes, { sheet, maxRows: MAX_RECORDS, numberFormat })) };
  }
  if (isBiff(bytes)) throw new SheetError('legacyXls');
  if (/\.(xlsx|xlsm)$/i.test(name)) throw new SheetError('notXlsx', { why: 'notZip' });
  const text = decodeText(bytes);
  const delimiter = detectDelimiter(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  return { format: 'csv', delimiter, records: csvRecords(text, delimiter, MAX_RECORDS) };
}
