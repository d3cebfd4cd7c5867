// Option values shared by the commands.
import { usage } from './exit.js';

/** Parses an integer option within [min, max]. */
export function intOption(values, name, min, max) {
  const text = values[name];
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw usage(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** `--lang`: vi or en. */
export function langOption(values) {
  const lang = values.lang ?? 'en';
  if (lang !== 'vi' && lang !== 'en') throw usage('--lang must be vi or en');
  return lang;
}

/** `--format` of a job's report: csv, xlsx or json (default: --report's extension, else csv). */
export function formatOption(values) {
  const format = values.format ?? (values.report ? /\.(json|xlsx)$/i.exec(values.report)?.[1].toLowerCase() : undefined) ?? 'csv';
  if (!['csv', 'xlsx', 'json'].includes(format)) throw usage('--format must be csv, xlsx or json');
  return format;
}
