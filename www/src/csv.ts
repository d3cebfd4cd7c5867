// Reading pasted rows and sheet files (CSV or .xlsx) through lpm-sheets, the one reader the
// command line uses too (same rules, same rows, same line numbers, same errors), loaded only when
// a sheet is read; the headers mapped by the package's one alias table (mapColumns); and the rows
// written back out as CSV or .xlsx through lpm-sheets' writers (no cell is read back as a formula).
import { ACCOUNT_FIELDS, mapColumns, REQUIRED_FIELDS } from "lpm-client/lazy";
import type { Lang } from "./i18n";
import type { RowProblem, SheetError } from "lpm-sheets";

export const FIELDS = ACCOUNT_FIELDS;
export type Field = (typeof FIELDS)[number];
export const REQUIRED: readonly Field[] = REQUIRED_FIELDS;

export interface SheetRow {
  /** The line (CSV) or row (.xlsx) the sheet shows. */
  line: number;
  cells: string[];
  /** Why the row cannot be read as an account (a cell showing #REF!, more cells than columns). */
  problem: RowProblem | null;
  /** Cells of columns that are no account field showing an error (the row is read all the same). */
  warnings?: RowProblem[];
}

export interface Parsed {
  headers: string[];
  /** The field of each column: "" for none, and for a second column of a field already taken. */
  mapping: (Field | "")[];
  rows: SheetRow[];
  /** What was read: a CSV and its delimiter, or an .xlsx and its sheet. */
  source: { format: "csv" | "xlsx" | "ods" | "xls"; delimiter?: string; sheetName?: string };
  /** Two columns standing for one field (the second is ignored). */
  twice: { field: Field; first: string; second: string }[];
}

/** The reader, once a sheet was read: its words for what it found, in any language. */
let reader: typeof import("lpm-sheets") | undefined;
const load = async () => (reader ??= await import("lpm-sheets"));

/** A row's problem in `lang` (the reader is in: the row came from it). */
export const problemText = (problem: RowProblem, lang: Lang): string => reader!.problemMessage(problem, lang);
/** Two columns for one field (named in the screen's words), in `lang`. */
export const twiceText = (twice: { field: string; first: string; second: string }, lang: Lang): string => reader!.message("twice", twice, lang);

/** A sheet the reader refused, worded in any language (the screen's may change while it shows). */
export class SheetReadError extends Error {
  constructor(readonly refusal: SheetError) {
    super(refusal.message);
  }
  messageIn(lang: Lang): string {
    return this.refusal.messageIn(lang);
  }
}

/**
 * Reads a sheet's bytes (a file, or pasted text as UTF-8): resolves with its header, each column's
 * field and its data rows; rejects with a SheetReadError.
 */
export async function readSheet(bytes: Uint8Array, name: string): Promise<Parsed> {
  const sheets = await load();
  try {
    const table = await sheets.readTable(bytes, { name });
    const accounts = sheets.accountRows(table, (h) => mapColumns(h) as (Field | null)[], REQUIRED);
    const first = new Map<Field, number>();
    accounts.fields.forEach((f, i) => f && !first.has(f) && first.set(f, i));
    return {
      headers: accounts.headers,
      mapping: accounts.fields.map((f, i) => (f && first.get(f) === i ? f : "")),
      rows: accounts.rows.map((r) => ({ line: r.line, cells: r.cells, problem: r.problem, warnings: r.warnings })),
      source: { format: table.format, delimiter: table.delimiter, sheetName: table.sheetName },
      twice: accounts.twice,
    };
  } catch (e) {
    if (e instanceof sheets.SheetError) throw new SheetReadError(e);
    throw e;
  }
}

/** Reads a chosen file: its size checked before it is read into memory (as the command line does). */
export async function readSheetFile(file: File): Promise<Parsed> {
  const { MAX_BYTES, fileTooBig } = await load();
  if (file.size > MAX_BYTES) throw new SheetReadError(fileTooBig(file.size, MAX_BYTES));
  return readSheet(new Uint8Array(await file.arrayBuffer()), file.name);
}

/** Offers `bytes` as a download named `name`. */
function download(bytes: BlobPart, type: string, name: string): void {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([bytes], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** Downloads `rows` under `headers` as CSV (comma, UTF-8 with BOM so spreadsheet programs read the accents) or .xlsx. */
export async function downloadRows(headers: string[], rows: string[][], format: "csv" | "xlsx", name: string): Promise<void> {
  const { toCsv, toXlsx } = await import("lpm-sheets/write");
  if (format === "csv") download("\uFEFF" + toCsv([headers, ...rows]), "text/csv;charset=utf-8", `${name}.csv`);
  else download(await toXlsx([headers, ...rows], { sheetName: name }) as Uint8Array<ArrayBuffer>, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", `${name}.xlsx`);
}
