// Every message of the sheet reader, in English and Vietnamese, by code: the command line prints
// the English one after the file's name, the dashboard the one of its language.

/** Why a file is not an .xlsx workbook (`notXlsx`'s `why`), with its `part`, `sheet` or `method`. */
const NOT_XLSX = {
  en: {
    notZip: () => 'not a zip file: a file of another kind renamed?',
    damagedZip: () => 'a damaged or truncated zip file',
    damagedDirectory: () => 'a damaged zip directory',
    damagedPart: (p) => `a damaged part ${p.part}`,
    truncatedPart: (p) => `a truncated part ${p.part}`,
    compression: (p) => `the part ${p.part} uses compression method ${p.method}`,
    noInflate: (p) => `the part ${p.part} does not inflate`,
    word: () => 'a Word document',
    openDocument: () => 'an OpenDocument file',
    noWorkbook: () => 'a zip file without a workbook',
    damagedXls: () => 'a damaged .xls file',
    numbers: () => 'an Apple Numbers document: in Numbers, choose File > Export To > Excel',
    noSheets: () => 'a workbook without a sheet',
    sheetMissing: (p) => `the sheet "${p.sheet}" is missing`,
  },
  vi: {
    notZip: () => 'không phải tệp zip: có thể là một tệp loại khác bị đổi tên',
    damagedZip: () => 'tệp zip bị hỏng hoặc bị cắt cụt',
    damagedDirectory: () => 'mục lục của tệp zip bị hỏng',
    damagedPart: (p) => `phần ${p.part} bị hỏng`,
    truncatedPart: (p) => `phần ${p.part} bị cắt cụt`,
    compression: (p) => `phần ${p.part} dùng cách nén số ${p.method}, không đọc được`,
    noInflate: (p) => `phần ${p.part} không giải nén được`,
    word: () => 'một tài liệu Word',
    openDocument: () => 'một tệp OpenDocument',
    noWorkbook: () => 'một tệp zip không có sổ làm việc',
    damagedXls: () => 'tệp .xls bị hỏng',
    numbers: () => 'một tài liệu Apple Numbers: trong Numbers, chọn Tệp > Xuất sang > Excel',
    noSheets: () => 'một sổ làm việc không có trang tính nào',
    sheetMissing: (p) => `thiếu trang tính "${p.sheet}"`,
  },
};

/** `notXlsx`'s reason in `lang`; a reason this version does not know, as its code (the error stays
 * the reader's own, never a TypeError from its message). */
const reason = (lang, p) => NOT_XLSX[lang][p.why]?.(p) ?? String(p.why);

/**
 * What is too large and the limit (`tooBig`'s params): `what` is `file` (`mib` of it), `zip64`
 * (an archive past 4 GB's format), `part` (a part of the workbook past `limitMib` once inflated)
 * or `element` (one element of a part); a part is named by its `sheet` or else its `part` name.
 */
const TOO_BIG = {
  en: (p) => {
    const part = p.sheet !== undefined ? `the sheet "${p.sheet}"` : p.part;
    if (p.what === 'zip64') return 'a ZIP64 archive (at most 4 GB)';
    if (p.what === 'cells') return `more than ${p.limit} cells once its repeated cells are counted`;
    if (p.what === 'part') return `${part} (at most ${p.limitMib} MiB uncompressed)`;
    return `${p.what === 'element' ? `an element of ${part}` : `${p.mib} MiB`} (at most ${p.limitMib} MiB)`;
  },
  vi: (p) => {
    const part = p.sheet !== undefined ? `trang tính "${p.sheet}"` : `phần ${p.part}`;
    if (p.what === 'zip64') return 'tệp nén ZIP64 (tối đa 4 GB)';
    if (p.what === 'cells') return `hơn ${p.limit} ô khi tính cả các ô lặp lại`;
    if (p.what === 'part') return `${part} (tối đa ${p.limitMib} MiB khi giải nén)`;
    return `${p.what === 'element' ? `một phần tử của ${part}` : `${p.mib} MiB`} (tối đa ${p.limitMib} MiB)`;
  },
};

/** The error of a file of `bytes` bytes when it is past `limit` bytes (the file is not read). Its
 * size in MiB to a tenth, rounded up: a file just past the limit never reads as the limit. */
export const fileTooBig = (bytes, limit) => new SheetError('tooBig', { what: 'file', mib: Math.ceil((bytes / 2 ** 20) * 10) / 10, limitMib: limit / 2 ** 20 });

const MESSAGES = {
  en: {
    notUtf8: () => 'not UTF-8 text: in Excel, save it as "CSV UTF-8 (Comma delimited)" or as an Excel workbook (.xlsx)',
    empty: () => 'the sheet is empty: its first line must name the columns',
    badQuote: (p) => `not readable as CSV (line ${p.line}): a quoted cell opened on line ${p.line} is never closed`,
    closingQuote: (p) => `not readable as CSV (line ${p.line}): a quoted cell is followed by "${p.after}" (a quote inside a quoted cell is written twice: "")`,
    notXlsx: (p) => `not an .xlsx workbook (${reason('en', p)}): save it from Excel as "Excel Workbook (.xlsx)" or "CSV UTF-8"`,
    encrypted: () => 'the workbook is protected by a password: open it in Excel, remove the password (File > Info > Protect Workbook), and save it again',
    legacyXls: () => 'an Excel 2.x-4.0 worksheet (.xls, from before 1995) is not read: open it in Excel or LibreOffice and save it as "Excel Workbook (.xlsx)" or "CSV UTF-8"',
    tooBig: (p) => `too large to read: ${TOO_BIG.en(p)}; split the sheet into smaller files`,
    tooManyRows: (p) => `more than ${p.limit} rows: split the sheet into files of at most ${p.limit} rows`,
    noSheet: (p) => `no sheet named "${p.name}" (the workbook's sheets: ${p.names.join(', ')})`,
    missing: (p) => `no column for ${p.fields.join(', ')} (the header line is: ${p.headers.join(' | ')})`,
    twice: (p) => `columns "${p.first}" and "${p.second}" both stand for ${p.field}`,
    // Problems of one row: the row is set aside, the others are read.
    cells: (p) => `this line has ${p.cells} cells but the header has ${p.columns} columns: a delimiter inside a cell? Quote the cell`,
    errorCell: (p) => `cell ${p.cell} shows the error ${p.value}: correct the formula in the sheet`,
    formula: (p) => `cell ${p.cell} holds a formula that was never calculated: open the file in Excel and save it again`,
  },
  vi: {
    notUtf8: () => 'không phải văn bản UTF-8: trong Excel, hãy lưu thành "CSV UTF-8 (Comma delimited)" hoặc sổ làm việc Excel (.xlsx)',
    empty: () => 'bảng trống: dòng đầu tiên phải ghi tên các cột',
    badQuote: (p) => `không đọc được dạng CSV (dòng ${p.line}): ô mở dấu ngoặc kép ở dòng ${p.line} không được đóng`,
    closingQuote: (p) => `không đọc được dạng CSV (dòng ${p.line}): sau ô trong ngoặc kép còn "${p.after}" (dấu ngoặc kép trong ô phải viết hai lần: "")`,
    notXlsx: (p) => `không phải sổ làm việc .xlsx (${reason('vi', p)}): hãy lưu từ Excel thành "Excel Workbook (.xlsx)" hoặc "CSV UTF-8"`,
    encrypted: () => 'sổ làm việc được bảo vệ bằng mật khẩu: mở trong Excel, bỏ mật khẩu (Tệp > Thông tin > Bảo vệ sổ làm việc) rồi lưu lại',
    legacyXls: () => 'không đọc bảng tính Excel 2.x-4.0 (.xls, từ trước năm 1995): hãy mở trong Excel hoặc LibreOffice rồi lưu thành "Excel Workbook (.xlsx)" hoặc "CSV UTF-8"',
    tooBig: (p) => `tệp quá lớn: ${TOO_BIG.vi(p)}; hãy chia bảng thành các tệp nhỏ hơn`,
    tooManyRows: (p) => `nhiều hơn ${p.limit} dòng: hãy chia bảng thành các tệp tối đa ${p.limit} dòng`,
    noSheet: (p) => `không có trang tính tên "${p.name}" (các trang tính: ${p.names.join(', ')})`,
    missing: (p) => `không có cột cho ${p.fields.join(', ')} (dòng tiêu đề: ${p.headers.join(' | ')})`,
    twice: (p) => `hai cột "${p.first}" và "${p.second}" cùng chỉ ${p.field}`,
    cells: (p) => `dòng này có ${p.cells} ô nhưng dòng tiêu đề có ${p.columns} cột: có dấu phân cách trong một ô? Hãy đặt ô trong dấu ngoặc kép`,
    errorCell: (p) => `ô ${p.cell} hiển thị lỗi ${p.value}: hãy sửa công thức trong bảng`,
    formula: (p) => `ô ${p.cell} chứa công thức chưa được tính: hãy mở tệp trong Excel và lưu lại`,
  },
};

/** The message of `code` with its `params`, in `lang` (en when unknown). */
export function message(code, params = {}, lang = 'en') {
  return (MESSAGES[lang] ?? MESSAGES.en)[code](params);
}

/**
 * A sheet that cannot be read: `code` (one of the keys above), `params`, and the English
 * message; `messageIn(lang)` gives it in another language. Nothing of the file's content beyond
 * the header's names is put in a message.
 */
export class SheetError extends Error {
  constructor(code, params = {}) {
    super(message(code, params));
    this.name = 'SheetError';
    this.code = code;
    this.params = params;
  }

  messageIn(lang) {
    return message(this.code, this.params, lang);
  }
}
