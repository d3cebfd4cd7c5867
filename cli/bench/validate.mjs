// The validation benchmark (not part of the tests' timing): `lpm validate` of sheets of 10,000 to
// 100,000 rows, CSV and .xlsx (shared strings, a phone column under a number format, as Excel
// writes them), a fresh process each, and `validateCreateUsers` of the same rows in this process;
// for each size and format the wall time, the CPU time (user + system) and the peak RSS of the
// command, and the time per 1,000 rows (flat when the cost is linear). Goal: 100,000 rows in
// <= 2 s, peak RSS <= 150 MiB.
// Usage: node cli/bench/validate.mjs [ROUNDS=3] [SIZES=10000,40000,100000] [FORMATS=csv,xlsx] [OTHER_LPM]
// (OTHER_LPM another bin/lpm.js, e.g. a checkout of an earlier commit, for a before/after).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from '../test/helpers.mjs';
import { validateCreateUsers } from '../src/lpm.js';
import { workbook } from '../../tests/sheets/table.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rounds = Number(process.argv[2] ?? 3);
const sizes = (process.argv[3] ?? '10000,40000,100000').split(',').map(Number);
const formats = (process.argv[4] ?? 'csv,xlsx').split(',');
const other = process.argv[5];
const dir = mkdtempSync(path.join(tmpdir(), 'lpm-bench-validate-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Rows as a school's sheet has them: Vietnamese names, unique usernames and e-mails, a few bad. */
function rowsOf(n) {
  return Array.from({ length: n }, (_, i) => ({
    name: `Nguyễn Văn Học Sinh ${i}`,
    username: `hocsinh${i}`,
    email: i % 997 === 5 ? '' : `hocsinh${i}@truong.edu.vn`,
    password: `mat-khau-${i}`,
    phone: `09${String(i).padStart(8, '0')}`,
    city: i % 2 ? 'Hà Nội' : 'Huế',
  }));
}

const HEADER = ['Họ và tên', 'Tên đăng nhập', 'Email', 'Mật khẩu', 'SĐT', 'Tỉnh/Thành phố'];

/** The rows as a sheet file of `format`: CSV, or an .xlsx with the phone a number shown as 10 digits. */
async function sheetOf(n, format) {
  const file = path.join(dir, `s${n}.${format}`);
  if (format === 'csv') {
    const lines = [HEADER.join(',')];
    for (const r of rowsOf(n)) lines.push([r.name, r.username, r.email, r.password, r.phone, r.city].join(','));
    writeFileSync(file, `${lines.join('\r\n')}\r\n`);
  } else {
    const cells = rowsOf(n).map((r) => [r.name, r.username, r.email || null, r.password, { n: Number(r.phone), fmt: '0000000000' }, r.city]);
    writeFileSync(file, await workbook([{ name: 'Học sinh', rows: [HEADER, ...cells] }]));
  }
  return file;
}

/** One `lpm validate FILE` in a fresh process: { ms, cpuMs, rssMiB }. */
function validateRun(cli, file) {
  const out = path.join(dir, 'rss');
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', path.join(here, 'rss.mjs'), cli, 'validate', file], {
    env: { ...process.env, LPM_BENCH_RSS: out }, encoding: 'utf8', maxBuffer: 1 << 28,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 1 && r.status !== 0) throw new Error(`lpm validate exit ${r.status}: ${r.stderr}`);
  const [rssKiB, cpuUs] = readFileSync(out, 'utf8').split(' ').map(Number);
  return { ms, cpuMs: cpuUs / 1000, rssMiB: rssKiB / 1024 };
}

const table = [];
try {
  for (const n of sizes) for (const format of formats) {
    const file = await sheetOf(n, format);
    const rows = rowsOf(n);
    const runs = { lpm: [], other: [], engine: [] };
    for (let k = 0; k < rounds; k++) {
      runs.lpm.push(validateRun(CLI, file));
      if (other) runs.other.push(validateRun(other, file));
      const t = process.hrtime.bigint();
      validateCreateUsers(rows);
      runs.engine.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const pick = (list, key) => median(list.map((r) => r[key]));
    const line = {
      rows: n,
      format,
      'lpm validate ms': Math.round(pick(runs.lpm, 'ms')),
      'cpu ms': Math.round(pick(runs.lpm, 'cpuMs')),
      'peak RSS MiB': Math.round(pick(runs.lpm, 'rssMiB')),
      'ms / 1,000 rows': +(pick(runs.lpm, 'ms') / (n / 1000)).toFixed(1),
      'validateCreateUsers ms': Math.round(median(runs.engine)),
    };
    if (other) {
      line['other ms'] = Math.round(pick(runs.other, 'ms'));
      line['other RSS MiB'] = Math.round(pick(runs.other, 'rssMiB'));
    }
    table.push(line);
  }
  console.log(`medians of ${rounds} rounds (node ${process.version})`);
  console.table(table);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
