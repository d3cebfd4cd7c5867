// The program `lpm import` is measured against: what a careful user would otherwise write for
// the same job. The same sheet read with the same CSV library (csv-parse, BOM dropped, headers
// mapped), the same chunks of 100 POSTed with raw fetch, each answer's items checked. With
// JOURNAL, the durability lpm's journal gives: one line a chunk, written and fsync'ed before the
// chunk is sent (the chunk's rows, and the outcomes of the chunk before it), and a last one for
// the last chunk's outcomes: the same appends and fsyncs as lpm (chunks + 1). No validation, no
// look-ups, no report.
// Usage: node hand-loop.mjs FILE BASE_URL [JOURNAL] (token in LPM_TOKEN).
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

const [file, base, journal] = process.argv.slice(2);
const [head, ...records] = parse(readFileSync(file), { bom: true });
const keys = head.map((h) => h.trim().toLowerCase());
const rows = records.map((r) => Object.fromEntries(keys.map((k, i) => [k, r[i].trim()])));
const url = `${base}/manage/api/users/create-multi-user?token=${encodeURIComponent(process.env.LPM_TOKEN)}`;
const fd = journal ? openSync(journal, 'a') : null;
const log = (value) => {
  if (fd === null) return;
  writeSync(fd, `${JSON.stringify(value)}\n`);
  fsyncSync(fd);
};
let created = 0;
let outcomes = [];
for (let i = 0; i < rows.length; i += 100) {
  const chunk = rows.slice(i, i + 100);
  log({ done: outcomes, chunk: i / 100, rows: chunk.map((r) => [r.email, r.username]), at: Date.now() });
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ users: chunk }),
  });
  const body = await res.json();
  if (body.respCode !== '00') throw new Error(`chunk ${i / 100}: ${body.respCode} ${body.msg}`);
  outcomes = body.users.map((u) => [u.userId, u.success]);
  created += body.users.filter((u) => u.success).length;
}
log({ done: outcomes });
if (fd !== null) closeSync(fd);
console.log(created);
