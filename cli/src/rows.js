// @ts-check
// A sheet's rows as the import engine gets them, and their issues as it will see them.
import { validateCreateUser, validateCreateUsersInSlices } from './lpm.js';
import { problemIssue } from './sheet.js';
import { fieldOf } from './report.js';
/** @import { Issue, Lang } from 'lpm-client-bulk' */
/** @import { RowIssue, Sheet } from './types.js' */

/**
 * The engine's input: one entry per data row, in order. A row that cannot be read (more cells
 * than columns) is `null`: the engine sets a non-object aside, so rows keep their numbers and a
 * journal stays tied to the file.
 * @param {Sheet} sheet
 */
export function engineInput(sheet) {
  return sheet.rows.map((r) => (r.problem ? null : r.user));
}

/** Rows a call of the validator gets: the wasm holds a slice's JSON, never a whole sheet's. */
export const SLICE_ROWS = 500;

/**
 * The issues of each row (index = row), by the package's validator of the whole input, given a
 * slice at a time (so repeats anywhere in the file are found, as the engine finds them, and no
 * call holds the whole sheet's JSON). Rows without issues share one empty list.
 * @param {Sheet} sheet @param {Lang} lang @returns {RowIssue[][]}
 */
export function rowIssues(sheet, lang, sliceRows = SLICE_ROWS) {
  const { rows } = sheet;
  /** @type {RowIssue[]} */
  const none = [];
  /** @type {RowIssue[][]} */
  const issues = new Array(rows.length).fill(none);
  function* slices() {
    for (let at = 0; at < rows.length; at += sliceRows) {
      const slice = new Array(Math.min(sliceRows, rows.length - at));
      // (`account()`: each row's user, not kept unless a caller made it before.)
      for (let k = 0; k < slice.length; k++) slice[k] = rows[at + k].problem ? null : rows[at + k].account();
      yield slice;
    }
  }
  for (const found of validateCreateUsersInSlices(slices(), { lang }, rows.length)) {
    for (const issue of found) {
      // (A slice that is not JSON would get an issue of the whole slice: rows here always are.)
      if (issue.path.length === 0) continue;
      const [first, ...path] = issue.path;
      const row = Number(first);
      if (issues[row] === none) issues[row] = [];
      issues[row].push({ ...issue, path });
    }
  }
  rows.forEach((r, i) => {
    if (r.problem) issues[i] = [problemIssue(r.problem, lang)];
    else if (r.warnings) issues[i] = [...(issues[i] === none ? [] : issues[i]), ...r.warnings.map((w) => problemIssue(w, lang, 'warning'))];
  });
  return issues;
}

/** A finding across rows (a repeat of an earlier row's e-mail or username), not the row's own. */
const isRepeat = (/** @type {RowIssue} */ issue) => issue.code === 'duplicate_email' || issue.code === 'duplicate_username';

/**
 * The issues of each row (index = row) as the engine judged them when the job started
 * (`onIssues` of importUsers), in the validator's order, the sheet's unreadable rows with their
 * own issue: what `rowIssues` gives, without validating the sheet again.
 * @param {Sheet} sheet @param {{ row: number, issues: Issue[], warnings: Issue[] }[]} listed
 * @param {Lang} lang @returns {RowIssue[][]}
 */
export function engineIssues(sheet, listed, lang) {
  // One shared empty list for the rows without issues (nearly all): nothing here changes a list.
  /** @type {RowIssue[]} */
  const none = [];
  /** @type {RowIssue[][]} */
  const issues = new Array(sheet.rows.length).fill(none);
  for (const r of listed) {
    const all = [...r.issues, ...r.warnings];
    // Each list is in the validator's order (the row's own findings by field, then a repeat of
    // an earlier row); a row with both (rare) gets its own findings' order from the validator,
    // on that row alone.
    issues[r.row] = r.issues.length && r.warnings.length
      ? [...validateCreateUser(sheet.rows[r.row].user, { lang }), ...all.filter(isRepeat)]
      : all;
  }
  for (let i = 0; i < sheet.rows.length; i++) {
    const { problem, warnings } = sheet.rows[i];
    if (problem) issues[i] = [problemIssue(problem, lang)];
    else if (warnings) issues[i] = [...issues[i], ...warnings.map((w) => problemIssue(w, lang, 'warning'))];
  }
  return issues;
}

/** Whether a row with these issues is set aside: a contract issue, or any with `strict`. */
export const setAside = (/** @type {RowIssue[]} */ issues, /** @type {boolean | undefined} */ strict) => issues.some((i) => strict || i.level === 'contract');

/**
 * One line of a row's issue.
 * @param {number} row @param {number} line @param {RowIssue} issue @param {boolean | undefined} strict
 */
export function issueLine(row, line, issue, strict) {
  const note = issue.level === 'platform' && !strict ? ' (platform rule: sent anyway; --strict sets it aside)' : '';
  return `row ${row + 1} (line ${line}): ${fieldOf(issue)}${issue.message}${note}`;
}
