// Reading pasted rows and sheet files (CSV or .xlsx) through lpm-sheets, the one reader the
// command line uses too (same rules, same rows, same line numbers, same errors), loaded only when
// a sheet is read; the headers mapped by the package's one alias table (mapColumns); and the rows
// written back out as CSV or .xlsx through lpm-sheets' writers (no cell is read back as a formula).
import { mapColumns } from "lpm-client";
import type { Lang } from "./i18n";
import type { SheetErrorCode } from "lpm-sheets";

export const FIELDS = ["name", "username", "email", "password", "phone", "city", "district", "street", "gender", "job"] as const;
export type Field = (typeof FIELDS)[number];
export const REQUIRED: readonly Field[] = ["name", "username", "email", "password"];

export interface SheetRow {
  /** The line (CSV) or row (.xlsx) the sheet shows. */
  line: number;
  cells: string[];
  /** Why the row cannot be read as an account (a cell showing #REF!, more cells than columns). */
  problem: string | null;
}

export interface Parsed {
  headers: string[];
  /** The field of each column: "" for none, and for a second column of a field already taken. */
  mapping: (Field | "")[];
  rows: SheetRow[];
  /** What was read: "CSV (;)" or ".xlsx “Học viên”". */
  source: string;
  /** Two columns standing for one field (the second is ignored), in words. */
  twice: string[];
}

/** A sheet the reader refused: its message in the screen's language, and lpm-sheets' code. */
export class SheetReadError extends Error {
  constructor(message: string, readonly code: SheetErrorCode) {
    super(message);
  }
}

/**
 * Reads a sheet's bytes (a file, or pasted text as UTF-8): resolves with its header, each column's
 * field and its data rows; rejects with a SheetReadError in `lang`.
 */
export async function readSheet(bytes: Uint8Array, name: string, lang: Lang): Promise<Parsed> {
  const sheets = await import("lpm-sheets");
  try {
    if (bytes.length > sheets.MAX_BYTES) throw new sheets.SheetError("tooBig", { what: `${Math.round(bytes.length / 2 ** 20)} MiB`, limit: `${sheets.MAX_BYTES / 2 ** 20} MiB` });
    const table = await sheets.readTable(bytes, { name });
    const accounts = sheets.accountRows(table, (h) => mapColumns(h) as (Field | null)[]);
    const first = new Map<Field, number>();
    accounts.fields.forEach((f, i) => f && !first.has(f) && first.set(f, i));
    return {
      headers: accounts.headers,
      mapping: accounts.fields.map((f, i) => (f && first.get(f) === i ? f : "")),
      rows: accounts.rows.map((r) => ({ line: r.line, cells: r.cells, problem: r.problem ? sheets.problemMessage(r.problem, lang) : null })),
      source: table.format === "xlsx" ? `.xlsx “${table.sheetName}”` : `CSV (${table.delimiter === "\t" ? "tab" : table.delimiter})`,
      twice: accounts.twice.map((p) => sheets.message("twice", p, lang)),
    };
  } catch (e) {
    if (e instanceof sheets.SheetError) throw new SheetReadError(e.messageIn(lang), e.code);
    throw e;
  }
}

/** Reads a chosen file: its size checked before it is read into memory (as the command line does). */
export async function readSheetFile(file: File, lang: Lang): Promise<Parsed> {
  const { MAX_BYTES, SheetError } = await import("lpm-sheets");
  if (file.size > MAX_BYTES) throw new SheetReadError(new SheetError("tooBig", { what: `${Math.round(file.size / 2 ** 20)} MiB`, limit: `${MAX_BYTES / 2 ** 20} MiB` }).messageIn(lang), "tooBig");
  return readSheet(new Uint8Array(await file.arrayBuffer()), file.name, lang);
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
