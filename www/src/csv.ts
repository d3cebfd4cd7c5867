// Reading pasted rows and CSV files (papaparse guesses comma, semicolon or tab), mapping their
// headers to account fields in Vietnamese or English, and writing the failed rows back out.
import Papa from "papaparse";
import { fold } from "./format";

export const FIELDS = ["name", "username", "email", "password", "phone", "city", "district", "street", "gender", "job"] as const;
export type Field = (typeof FIELDS)[number];
export const REQUIRED: readonly Field[] = ["name", "username", "email", "password"];

/** Header spellings recognised per field, compared without accents, case, spaces or punctuation. */
const HEADERS: Record<Field, string[]> = {
  name: ["name", "fullname", "hoten", "hovaten", "ten", "tenhocvien"],
  username: ["username", "user", "login", "tendangnhap", "taikhoan", "tentaikhoan"],
  email: ["email", "mail", "emailaddress", "diachiemail", "thudientu"],
  password: ["password", "pass", "matkhau"],
  phone: ["phone", "phonenumber", "mobile", "sodienthoai", "dienthoai", "sdt"],
  city: ["city", "province", "tinh", "thanhpho", "tinhthanh", "tinhthanhpho"],
  district: ["district", "quan", "huyen", "quanhuyen"],
  street: ["street", "address", "diachi", "duong"],
  gender: ["gender", "sex", "gioitinh"],
  job: ["job", "occupation", "nghenghiep", "congviec"],
};

const key = (h: string) => fold(h).replace(/[^a-z0-9]/g, "");

export function guessField(header: string): Field | "" {
  const k = key(header);
  return FIELDS.find((f) => HEADERS[f].includes(k)) ?? "";
}

export interface Parsed {
  headers: string[];
  rows: string[][];
}

/** Parses CSV or TSV text (with or without a UTF-8 BOM); the first row is the header. */
export function parseTable(text: string): Parsed {
  const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), {
    delimiter: "",
    delimitersToGuess: [",", ";", "\t"],
    skipEmptyLines: "greedy",
  });
  const [headers = [], ...rows] = result.data;
  return { headers: headers.map((h) => h.trim()), rows };
}

/** A CSV (comma, UTF-8 with BOM so spreadsheet programs read the accents) of `rows`. */
export function toCsv(headers: string[], rows: string[][]): string {
  return "\uFEFF" + Papa.unparse({ fields: headers, data: rows });
}
