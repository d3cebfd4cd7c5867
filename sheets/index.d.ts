export type Lang = 'en' | 'vi';
export type SheetErrorCode = 'notUtf8' | 'empty' | 'badQuote' | 'closingQuote' | 'notXlsx' | 'encrypted' | 'legacyXls' | 'tooBig' | 'tooManyRows' | 'noSheet' | 'missing' | 'twice';
export declare class SheetError extends Error {
  constructor(code: SheetErrorCode, params?: object);
  readonly code: SheetErrorCode;
  readonly params: Record<string, unknown>;
  messageIn(lang: Lang): string;
}
export declare function message(code: string, params?: object, lang?: Lang): string;
/** Why a file is not an .xlsx workbook: `notXlsx`'s `why`. */
export type NotXlsxReason = 'notZip' | 'damagedZip' | 'damagedDirectory' | 'damagedPart' | 'truncatedPart' | 'compression' | 'noInflate' | 'word' | 'openDocument' | 'numbers' | 'damagedXls' | 'noWorkbook' | 'noSheets' | 'sheetMissing';
/** The `tooBig` error of a file of `bytes` bytes, past `limit` bytes (MAX_BYTES): refused before it is read. */
export declare function fileTooBig(bytes: number, limit: number): SheetError;
export interface SheetRecord { cells: string[]; line: number; problems?: RowProblem[] }
export interface Table {
  format: 'csv' | 'xlsx' | 'ods' | 'xls';
  delimiter?: ',' | ';' | '\t';
  sheetName?: string;
  sheetNames?: string[];
  records: SheetRecord[];
  /** The merged areas of an .xlsx or .ods sheet (0-based columns, rows as `line`). */
  merges?: [{ row: number; col: number }, { row: number; col: number }][];
}
export type RowProblem =
  | { code: 'cells'; cells: number; columns: number }
  | { code: 'errorCell'; cell: string; col: number; value: string }
  | { code: 'formula'; cell: string; col: number };
export interface AccountRow<F extends string> {
  line: number;
  /** Read from the row's record each time (a new array for a CSV line). */
  readonly cells: string[];
  /** Made once and kept: a caller may fill in a field. */
  readonly user: Partial<Record<F, string>>;
  /** `user` when it was made, else a new one that is not kept. */
  account(): Partial<Record<F, string>>;
  problem: RowProblem | null;
  /** Cells of columns that are no account field showing an error or an uncalculated formula. */
  warnings?: RowProblem[];
}
export interface Accounts<F extends string> {
  headers: string[];
  fields: (F | null)[];
  ignored: string[];
  missing: string[];
  twice: { field: F; first: string; second: string }[];
  skipped: number[];
  rows: AccountRow<F>[];
}
export declare const MAX_ROWS: number;
export declare const MAX_BYTES: number;
export declare function readTable(bytes: Uint8Array, options?: { name?: string; sheet?: string }): Promise<Table>;
export declare function accountRows<F extends string>(table: Table, mapColumns: (headers: readonly string[]) => (F | null)[], required: readonly F[]): Accounts<F>;
export declare function problemMessage(problem: RowProblem, lang?: Lang): string;
export declare function decodeText(bytes: Uint8Array): string;
export declare function detectDelimiter(text: string): ',' | ';' | '\t';
export declare function csvRecords(text: string, delimiter: string, maxRows?: number): SheetRecord[];
export declare const PASSWORD_LENGTH: number;
export declare function randomPassword(): string;
