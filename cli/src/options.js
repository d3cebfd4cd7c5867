// @ts-check
// Option values shared by the commands.
import { usage } from './exit.js';
/** @import { Values } from './types.js' */

/**
 * Parses an integer option within [min, max].
 * @param {Values} values @param {string} name @param {number} min @param {number} max
 */
export function intOption(values, name, min, max) {
  const text = values[name];
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw usage(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}

/**
 * `--lang`: vi or en.
 * @param {Values} values @returns {'vi' | 'en'}
 */
export function langOption(values) {
  const lang = values.lang ?? 'en';
  if (lang !== 'vi' && lang !== 'en') throw usage('--lang must be vi or en');
  return lang;
}

/**
 * The format `file`'s extension names, among `formats` (else undefined).
 * @param {string | undefined} file @param {string[]} formats
 */
export function formatOf(file, formats) {
  const ext = file ? /\.([a-z]+)$/i.exec(file)?.[1].toLowerCase() : undefined;
  return ext && formats.includes(ext) ? ext : undefined;
}

/**
 * Refuses a file named for one format and asked to hold another (`--report r.csv --format
 * xlsx`: Excel refuses to open a workbook named .csv). `formats` are the extensions that name one.
 */
/** @param {string} option @param {string | undefined} file @param {string} format @param {string[]} formats */
export function sameFormat(option, file, format, formats) {
  const ext = formatOf(file, formats);
  if (ext && ext !== format) {
    throw usage(`${option} ${file} names a .${ext} file, but --format is ${format}: name it .${format}, or leave --format out`);
  }
}

/**
 * `--format` of a job's report: csv, xlsx or json (default: --report's extension, else csv).
 * @param {Values} values @returns {string}
 */
export function formatOption(values) {
  const format = values.format ?? formatOf(values.report, ['json', 'xlsx']) ?? 'csv';
  if (!['csv', 'xlsx', 'json'].includes(format)) throw usage('--format must be csv, xlsx or json');
  sameFormat('--report', values.report, format, ['csv', 'xlsx', 'json']);
  return format;
}
