// @ts-check
// `lpm validate FILE`: every row's issues, as the import would set them aside; nothing is sent.
import { EXIT, count, usage } from '../exit.js';
import { langOption } from '../options.js';
import { readSheet } from '../sheet.js';
import { issueLine, rowIssues, setAside } from '../rows.js';
import { PLACEHOLDER } from '../passwords.js';
/** @import { Io, RowIssue, Run, Sheet, Values } from '../types.js' */

/**
 * The sheet's head: rows, delimiter or sheet, columns and what they map to, ignored columns.
 * @param {string} file @param {Sheet} sheet
 */
export function describeSheet(file, sheet) {
  const names = { ',': 'comma', ';': 'semicolon', '\t': 'tab' };
  const columns = sheet.headers.map((h, i) => (sheet.fields[i] ? `${h} -> ${sheet.fields[i]}` : null)).filter(Boolean);
  const kind = sheet.format === 'csv' ? `${names[sheet.delimiter ?? ',']}-separated` : `sheet "${sheet.sheetName}"`;
  let text = `${file}: ${count(sheet.rows.length, 'row')}, ${kind}; columns: ${columns.join(', ')}\n`;
  if (sheet.skipped.length) text += `line${sheet.skipped.length > 1 ? 's' : ''} ${sheet.skipped.join(', ')} above the header skipped\n`;
  if (sheet.ignored.length) text += `ignored columns (not account fields): ${sheet.ignored.join(', ')}\n`;
  return text;
}

/**
 * Prints each row's issues (`issues[row]`, from the validator or the engine) and the counts;
 * returns whether each row is set aside.
 * @param {Sheet} sheet @param {RowIssue[][]} issues @param {boolean | undefined} strict @param {Io} io
 * @returns {boolean[]}
 */
export function listIssues(sheet, issues, strict, io) {
  const aside = new Array(issues.length).fill(false);
  let ready = 0;
  let warned = 0;
  for (let row = 0; row < issues.length; row++) {
    const list = issues[row];
    if (list.length === 0) {
      ready += 1;
      continue;
    }
    for (const issue of list) io.stdout.write(`${issueLine(row, sheet.rows[row].line, issue, strict)}\n`);
    aside[row] = setAside(list, strict);
    if (!aside[row]) {
      ready += 1;
      warned += 1;
    }
  }
  io.stdout.write(`${count(ready, 'row')} ready, ${sheet.rows.length - ready} set aside${warned ? `, ${warned} ready with warnings` : ''}\n`);
  return aside;
}

/**
 * Checks a sheet with the validator; prints each issue and the counts. Returns { sheet, issues, aside }.
 * @param {string} file @param {Values} values @param {Io} io
 */
export async function checkSheet(file, values, io) {
  const lang = langOption(values);
  const generate = Boolean(values['generate-passwords']);
  const sheet = await readSheet(file, { sheet: values.sheet, passwords: generate });
  // With --generate-passwords (a dry run), a row without a password is checked as the run will
  // send it: with one (none is generated here).
  const fill = generate ? sheet.rows.filter((r) => !r.problem && r.user.password === '') : [];
  for (const r of fill) r.user.password = PLACEHOLDER;
  const issues = rowIssues(sheet, lang);
  for (const r of fill) r.user.password = '';
  io.stdout.write(describeSheet(file, sheet));
  const aside = listIssues(sheet, issues, values.strict, io);
  if (fill.length) io.stdout.write(`${count(fill.length, 'row')} without a password will get a generated one (a dry run generates none)\n`);
  return { sheet, issues, aside };
}

/** `lpm validate`. @type {Run} */
export async function validate(values, positionals, io) {
  if (positionals.length !== 1) throw usage('validate takes one FILE (see lpm validate --help)');
  const { aside } = await checkSheet(positionals[0], values, io);
  return aside.some(Boolean) ? EXIT.rows : EXIT.ok;
}
