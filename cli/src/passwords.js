// @ts-check
// `--generate-passwords`: the rows of a sheet without a password get a random one, kept in one
// place only, the credentials sheet (for handing out): written (mode 0600) before anything is
// sent, read back on a resume or a second run so a row keeps its password. Passwords go in no
// journal (the engines name rows by e-mail and username), no report and no output.
import { chmodSync, existsSync } from 'node:fs';
import { randomPassword } from 'lpm-sheets';
import { count, usage } from './exit.js';
import { readTableFile } from './sheet.js';
import { writeSheet } from './report.js';
/** @import { Io, Sheet, Values } from './types.js' */

const HEAD = ['line', 'name', 'username', 'email', 'password'];

/** A password meeting every rule, for checking a row that has none (never sent). */
export const PLACEHOLDER = 'checked-only-1';

/** `students.xlsx` -> `students.credentials.xlsx` (or --credentials FILE). */
/** @param {string} file @param {Values} values @returns {string} */
export function credentialsFile(file, values) {
  return values.credentials ?? `${file.replace(/\.(csv|tsv|txt|xlsx)$/i, '')}.credentials.xlsx`;
}

/**
 * Fills the empty password of each row of `sheet` (in place): from the credentials sheet when it
 * exists (the same e-mail), else a new random one, and writes the credentials sheet when it made
 * any. `only(row)` picks the rows (sync: the accounts to create). Returns how many were made and
 * reused.
 * @param {Sheet} sheet @param {string} file @param {Values} values @param {Io} io
 * @param {(row: number) => boolean} [only]
 */
export async function fillPasswords(sheet, file, values, io, only = () => true) {
  const out = credentialsFile(file, values);
  /** @type {Map<string, string>} */
  const known = new Map();
  if (existsSync(out)) {
    const { records } = await readTableFile(out);
    const head = records[0]?.cells.map((h) => h.trim().toLowerCase()) ?? [];
    const [e, p] = [head.indexOf('email'), head.indexOf('password')];
    if (e < 0 || p < 0) throw usage(`${out} is not a credentials sheet of lpm (no email and password columns): name another file with --credentials`);
    for (const r of records.slice(1)) known.set(r.cells[e].trim().toLowerCase(), r.cells[p]);
  } else if (values.resume) {
    throw usage(`--resume --generate-passwords: ${out} is missing; the passwords of the rows already sent are only there`);
  }
  const rows = [];
  let made = 0;
  let reused = 0;
  for (const [i, r] of sheet.rows.entries()) {
    if (!only(i) || r.problem || r.user.password !== '' || r.user.email === '') continue;
    const key = r.user.email.toLowerCase();
    const kept = known.get(key);
    if (kept !== undefined) {
      r.user.password = kept;
      reused += 1;
    } else {
      r.user.password = randomPassword();
      made += 1;
    }
    rows.push([r.line, r.user.name, r.user.username, r.user.email, r.user.password]);
  }
  if (made) {
    const format = /\.csv$/i.test(out) ? 'csv' : 'xlsx';
    await writeSheet(out, [HEAD, ...rows], format, 'Credentials', { mode: 0o600 });
    chmodSync(out, 0o600);
    io.stderr.write(`WARNING: ${count(made, 'password')} generated${reused ? ` (${reused} kept from before)` : ''} and written to ${out} (mode 0600). ` +
      'Anyone who reads it can sign in as these accounts: hand the passwords out, then delete the file. ' +
      'They are in no journal, report or output of lpm.\n');
  } else if (reused) {
    io.stderr.write(`${count(reused, 'password')} kept from ${out}\n`);
  }
  return { made, reused, file: out };
}

/**
 * Refuses a `--resume` without --generate-passwords of a job that generated them (its credentials
 * sheet exists and rows still lack a password): the engine would set those rows aside as having
 * none, and finish the job without them.
 */
/** @param {Sheet} sheet @param {string} file @param {Values} values */
export function checkResumedPasswords(sheet, file, values) {
  const out = credentialsFile(file, values);
  if (!values.resume || values['generate-passwords'] || !existsSync(out)) return;
  if (sheet.rows.some((r) => !r.problem && r.user.password === '')) {
    throw usage(`--resume: rows of this sheet have no password, and ${out} holds the passwords generated for it: resume with --generate-passwords, as the job was started`);
  }
}
