// The program `lpm import` is measured against: what a careful user would otherwise write for
// the same job. The same sheet read with the same CSV library (csv-parse, BOM dropped, headers
// mapped), the same chunks of 100 POSTed with raw fetch, each answer's items checked. With
// JOURNAL, the durability lpm's journal gives: one line a chunk, written and fsync'ed before the
// chunk is sent (the chunk's rows, and the outcomes of the chunk before it), and a last one for
// the last chunk's outcomes: the same appends and fsyncs as lpm (chunks + 1). No validation, no
// look-ups, no report. With --http, the POSTs go through node:http with a keep-alive agent, as
// lpm's own transport sends them (src/transport.js), instead of fetch.
// Usage: node hand-loop.mjs FILE BASE_URL [JOURNAL] [--http] (token in LPM_TOKEN).
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

const args = process.argv.slice(2);
const viaHttp = args.includes('--http');
const [file, base, journal] = args.filter((a) => a !== '--http');
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
const http = viaHttp ? (await import('node:http')).default : undefined;
const agent = viaHttp ? new http.Agent({ keepAlive: true }) : undefined;
/** POSTs `body` to `url` (node:http); resolves with the answer's parsed JSON. */
const post = (body) => new Promise((resolve, reject) => {
  const req = http.request(url, { agent, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    res.on('error', reject);
  });
  req.on('error', reject);
  req.end(body);
});
let created = 0;
let outcomes = [];
for (let i = 0; i < rows.length; i += 100) {
  const chunk = rows.slice(i, i + 100);
  log({ done: outcomes, chunk: i / 100, rows: chunk.map((r) => [r.email, r.username]), at: Date.now() });
  const json = JSON.stringify({ users: chunk });
  const body = viaHttp
    ? await post(json)
    : await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json })).json();
  if (body.respCode !== '00') throw new Error(`chunk ${i / 100}: ${body.respCode} ${body.msg}`);
  outcomes = body.users.map((u) => [u.userId, u.success]);
  created += body.users.filter((u) => u.success).length;
}
log({ done: outcomes });
if (fd !== null) closeSync(fd);
console.log(created);
