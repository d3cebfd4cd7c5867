// Text, money and date formatting: all through Intl and String.normalize, nothing hand-rolled.
import { getLang } from "./i18n";

/** Lower case without accents ("Trắc nghiệm" → "trac nghiem"); đ has no decomposition, so it is mapped. */
export function fold(s: string): string {
  return s.normalize("NFD").replace(/\p{Mn}/gu, "").replace(/đ/g, "d").replace(/Đ/g, "D").toLowerCase();
}

const vnd = new Intl.NumberFormat("vi-VN", { style: "currency", currency: "VND" });
/** Prices are VND in every language (the platform's currency), formatted the Vietnamese way. */
export function formatVnd(n: number): string {
  return vnd.format(n);
}

function locale(): string {
  return getLang() === "vi" ? "vi-VN" : "en-GB";
}
export function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : new Intl.DateTimeFormat(locale(), { dateStyle: "medium" }).format(d);
}
export function formatTime(d: Date): string {
  return new Intl.DateTimeFormat(locale(), { timeStyle: "medium" }).format(d);
}
/** A wait as minutes and seconds ("9 phút 58 giây" / "9 min 58 sec"), via Intl.DurationFormat when present. */
export function formatWait(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  const DF = (Intl as unknown as { DurationFormat?: new (l: string, o: object) => { format(d: object): string } }).DurationFormat;
  if (DF) return new DF(locale(), { style: "long" }).format(minutes ? { minutes, seconds } : { seconds });
  const unit = (u: string, v: number) => new Intl.NumberFormat(locale(), { style: "unit", unit: u, unitDisplay: "long" }).format(v);
  return minutes ? `${unit("minute", minutes)} ${unit("second", seconds)}` : unit("second", seconds);
}
export function formatDateTime(ms: number): string {
  return new Intl.DateTimeFormat(locale(), { dateStyle: "short", timeStyle: "short" }).format(new Date(ms));
}
/** How long ago, in the largest whole unit ("3 phút trước" / "3 minutes ago"). */
export function formatAge(ms: number): string {
  const rtf = new Intl.RelativeTimeFormat(locale(), { numeric: "auto" });
  const s = Math.round(ms / 1000);
  if (s < 60) return rtf.format(-s, "second");
  if (s < 3600) return rtf.format(-Math.floor(s / 60), "minute");
  if (s < 86400) return rtf.format(-Math.floor(s / 3600), "hour");
  return rtf.format(-Math.floor(s / 86400), "day");
}
