// The final report file of a bulk job: one line per input row (CSV, or the whole report as JSON
// when the file name ends in .json), written to a new file renamed over the old one.
import { renameSync, writeFileSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';

/** What to show of a row's result beside its kind. */
export function detail(result) {
  switch (result.kind) {
    case 'created': return result.userId;
    case 'failed': return result.status;
    case 'setAside': return result.issues.map((i) => `${fieldOf(i)}${i.message}`).join('; ');
    case 'conflict': return `account ${result.existing.userId} (${result.existing.username}, ${result.existing.emails.join(' ')}) already holds this e-mail or username`;
    case 'inDoubt':
    case 'notSent': return result.reason;
    default: return '';
  }
}

/** `field: ` of an issue whose path names a field (`[3, "email"]` or `["email"]`). */
export function fieldOf(issue) {
  const keys = issue.path.filter((s) => typeof s === 'string');
  return keys.length ? `${keys.join('.')}: ` : '';
}

/**
 * Writes `report` (an ImportReport or GrantReport) to `file`; `lines` the sheet line of each row
 * (or nothing), `extra(row)` more cells per row (`name` for an import).
 */
export function writeReport(file, report, { lines = [], kind = 'import' } = {}) {
  let text;
  if (file.toLowerCase().endsWith('.json')) {
    text = `${JSON.stringify(report, null, 1)}\n`;
  } else {
    const head = kind === 'import'
      ? ['row', 'line', 'email', 'username', 'result', 'detail', 'warnings']
      : ['row', 'line', 'user_id', 'result', 'detail'];
    const body = report.rows.map((r) => kind === 'import'
      ? [r.row + 1, lines[r.row] ?? '', r.email, r.username, r.result.kind, detail(r.result),
        (r.warnings ?? []).map((i) => `${fieldOf(i)}${i.message}`).join('; ')]
      : [r.row + 1, lines[r.row] ?? '', r.userId, r.result.kind, detail(r.result)]);
    // The BOM makes Excel read the Vietnamese in it as UTF-8.
    text = `\uFEFF${stringify([head, ...body])}`;
  }
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}
