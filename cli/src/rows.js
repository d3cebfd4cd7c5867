// A sheet's rows as the import engine gets them, and their issues as it will see them.
import { validateCreateUser, validateCreateUsers } from './lpm.js';
import { problemIssue } from './sheet.js';
import { fieldOf } from './report.js';

/**
 * The engine's input: one entry per data row, in order. A row that cannot be read (more cells
 * than columns) is `null`: the engine sets a non-object aside, so rows keep their numbers and a
 * journal stays tied to the file.
 */
export function engineInput(sheet) {
  return sheet.rows.map((r) => (r.problem ? null : r.user));
}

/**
 * The issues of each row (index = row), by the package's validator over the whole input (so
 * repeats anywhere in the file are found, as the engine finds them).
 */
export function rowIssues(sheet, lang) {
  const input = engineInput(sheet);
  const issues = input.map(() => []);
  if (input.length === 0) return issues;
  for (const issue of validateCreateUsers(input, { lang })) {
    // Issues of the whole list (more than 100 rows, none) are about one call, not the file.
    if (issue.path.length === 0) continue;
    issues[issue.path[0]].push({ ...issue, path: issue.path.slice(1) });
  }
  sheet.rows.forEach((r, i) => {
    if (r.problem) issues[i] = [problemIssue(r.problem, lang)];
  });
  return issues;
}

/** A finding across rows (a repeat of an earlier row's e-mail or username), not the row's own. */
const isRepeat = (issue) => issue.code === 'duplicate_email' || issue.code === 'duplicate_username';

/**
 * The issues of each row (index = row) as the engine judged them when the job started
 * (`onIssues` of importUsers), in the validator's order, the sheet's unreadable rows with their
 * own issue: what `rowIssues` gives, without validating the sheet again.
 */
export function engineIssues(sheet, listed, lang) {
  // One shared empty list for the rows without issues (nearly all): nothing here changes a list.
  const none = [];
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
    const { problem } = sheet.rows[i];
    if (problem) issues[i] = [problemIssue(problem, lang)];
  }
  return issues;
}

/** Whether a row with these issues is set aside: a contract issue, or any with `strict`. */
export const setAside = (issues, strict) => issues.some((i) => strict || i.level === 'contract');

/** One line of a row's issue. */
export function issueLine(row, line, issue, strict) {
  const note = issue.level === 'platform' && !strict ? ' (platform rule: sent anyway; --strict sets it aside)' : '';
  return `row ${row + 1} (line ${line}): ${fieldOf(issue)}${issue.message}${note}`;
}
