// The floor `lpm import` is measured against: the same sheet read with csv-parse, the same
// chunks of 100 POSTed with raw fetch, each answer's items checked, no journal, no look-ups.
// Usage: node hand-loop.mjs FILE BASE_URL (token in LPM_TOKEN). Prints the created count.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

const [file, base] = process.argv.slice(2);
const [head, ...records] = parse(readFileSync(file), { bom: true });
const keys = head.map((h) => h.toLowerCase());
const rows = records.map((r) => Object.fromEntries(keys.map((k, i) => [k, r[i]])));
const url = `${base}/manage/api/users/create-multi-user?token=${encodeURIComponent(process.env.LPM_TOKEN)}`;
let created = 0;
for (let i = 0; i < rows.length; i += 100) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ users: rows.slice(i, i + 100) }),
  });
  const body = await res.json();
  if (body.respCode !== '00') throw new Error(`chunk ${i / 100}: ${body.respCode} ${body.msg}`);
  created += body.users.filter((u) => u.success).length;
}
console.log(created);
