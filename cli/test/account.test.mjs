// whoami, login, export against the emulator; the token never on the command line nor in any
// output.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { DEMO, TOKEN, emulator, lpm, tempDir } from './helpers.mjs';

let emu;
const outputs = [];
/** Runs lpm and keeps its output for the token check at the end. */
async function run(args, opts) {
  const r = await lpm(args, opts);
  outputs.push(`${r.stdout}\n${r.stderr}`);
  return r;
}
before(async () => { emu = await emulator(); });
after(async () => {
  await emu?.stop();
});

test('whoami: the token from LPM_TOKEN, --token-file, or the file login wrote', async () => {
  const env = { LPM_BASE_URL: emu.url, LPM_TOKEN: TOKEN };
  const r = await run(['whoami'], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`${DEMO.adminEmail.replace('.', '\\.')}`));
  assert.match(r.stdout, /token from: LPM_TOKEN/);
  const dir = tempDir();
  const f = path.join(dir, 'tok');
  writeFileSync(f, `${TOKEN}\n`);
  const byFile = await run(['whoami', '--base-url', emu.url, '--token-file', f]);
  assert.equal(byFile.code, 0, byFile.stderr);
  assert.match(byFile.stdout, new RegExp(`token from: ${f}`));
});

test('whoami: no base URL, no token, a refused token, an expired token: exit 3 with the reason', async () => {
  const noUrl = await run(['whoami'], { env: { LPM_TOKEN: TOKEN } });
  assert.equal(noUrl.code, 3);
  assert.match(noUrl.stderr, /no base URL: pass --base-url URL or set LPM_BASE_URL/);
  const noToken = await run(['whoami', '--base-url', emu.url]);
  assert.equal(noToken.code, 3);
  assert.match(noToken.stderr, /no token: set LPM_TOKEN, pass --token-file FILE, or run `lpm login`/);
  for (const token of ['not-a-known-token-123456', DEMO.expiredToken]) {
    const r = await run(['whoami', '--base-url', emu.url], { env: { LPM_TOKEN: token } });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /^lpm whoami: ApiError: /);
    assert.ok(!r.stderr.includes(token) && !r.stdout.includes(token), 'the refused token is not shown');
  }
  const missing = await run(['whoami', '--base-url', emu.url, '--token-file', '/nonexistent/tok']);
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /cannot read the token file \/nonexistent\/tok: no such file or directory$/m);
});

test('the token is refused on the command line, without echoing it', async () => {
  for (const args of [['whoami', `--token=${TOKEN}`], ['export', 'users', '--token', TOKEN]]) {
    const r = await run(args, { env: { LPM_BASE_URL: emu.url } });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /the token is never taken from the command line/);
    assert.ok(!r.stderr.includes(TOKEN));
  }
});

test('login: e-mail and password from standard input; the token file is written with mode 0600 and used', async () => {
  const home = tempDir();
  const env = { HOME: home, LPM_BASE_URL: emu.url };
  const r = await run(['login'], { env, input: `${DEMO.adminEmail}\n${DEMO.adminPassword}\n` });
  assert.equal(r.code, 0, r.stderr);
  const file = path.join(home, '.config', 'lpm', 'token');
  assert.match(r.stdout, new RegExp(`logged in as ${DEMO.adminEmail.replace('.', '\\.')}; token saved to ${file} \\(mode 0600\\)`));
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const token = readFileSync(file, 'utf8').trim();
  assert.ok(token.length >= 8);
  assert.ok(!r.stdout.includes(token) && !r.stderr.includes(token), 'login does not print the token');
  const me = await run(['whoami'], { env });
  assert.equal(me.code, 0, me.stderr);
  assert.match(me.stdout, new RegExp(`token from: ${file}`));
  assert.ok(!me.stdout.includes(token));
  // --email with --password-stdin, to a chosen file.
  const chosen = path.join(home, 'elsewhere', 'tok');
  const r2 = await run(['login', '--email', DEMO.adminEmail, '--password-stdin', '--token-file', chosen], { env, input: `${DEMO.adminPassword}\n` });
  assert.equal(r2.code, 0, r2.stderr);
  assert.equal(statSync(chosen).mode & 0o777, 0o600);
  // A wrong password: exit 3, no file written.
  const other = path.join(home, 'wrong', 'tok');
  const bad = await run(['login', '--token-file', other], { env, input: `${DEMO.adminEmail}\nwrong-password\n` });
  assert.equal(bad.code, 3, bad.stderr);
  assert.ok(!existsSync(other));
  assert.ok(!bad.stderr.includes('wrong-password'));
});

/** The value at a dotted path of a record. */
const at = (record, dotted) => dotted.split('.').reduce((v, k) => (v == null ? undefined : v[k]), record);

for (const what of ['users', 'courses']) {
  test(`export ${what}: jsonl and csv, field by field equal to the emulator's state`, async () => {
    const env = { LPM_BASE_URL: emu.url, LPM_TOKEN: TOKEN };
    const state = (await emu.state()).records[what];
    assert.ok(state.length > 0);
    const dir = tempDir();
    const jsonl = path.join(dir, `${what}.jsonl`);
    const r = await run(['export', what, '--format', 'jsonl', '--out', jsonl], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`^${state.length} ${what} written to `));
    const lines = readFileSync(jsonl, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines, state);

    const csvOut = await run(['export', what], { env }); // csv to standard output
    assert.equal(csvOut.code, 0, csvOut.stderr);
    assert.ok(csvOut.stdout.startsWith('\uFEFF'));
    const [head, ...rows] = parse(csvOut.stdout, { bom: true });
    assert.equal(rows.length, state.length);
    rows.forEach((row, i) => {
      head.forEach((column, j) => {
        const v = at(state[i], column);
        const want = v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
        assert.equal(row[j], want, `${what} ${i} ${column}`);
      });
    });
    // Every leaf of every record has its column.
    const leaves = (v, p = '') => (v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.entries(v).flatMap(([k, x]) => leaves(x, p ? `${p}.${k}` : k)) : [p]);
    for (const record of state) for (const leaf of leaves(record)) assert.ok(head.includes(leaf), leaf);
  });
}

test('export: usage errors', async () => {
  const env = { LPM_BASE_URL: emu.url, LPM_TOKEN: TOKEN };
  assert.equal((await run(['export', 'things'], { env })).code, 2);
  assert.equal((await run(['export', 'users', '--format', 'xml'], { env })).code, 2);
});

test('login on a terminal: the e-mail asked, the password asked and not echoed', async () => {
  const { spawn } = await import('node:child_process');
  const { CLI } = await import('./helpers.mjs');
  const home = tempDir();
  // `script` gives the CLI a pseudo-terminal; answers are typed once their prompt is shown.
  const child = spawn('script', ['-qec', `${process.execPath} ${CLI} login`, '/dev/null'], {
    env: { PATH: process.env.PATH, HOME: home, LPM_BASE_URL: emu.url, TERM: 'dumb' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let step = 0;
  child.stdout.setEncoding('utf8').on('data', (d) => {
    out += d;
    if (step === 0 && out.includes('E-mail: ')) { step = 1; child.stdin.write(`${DEMO.adminEmail}\r`); }
    if (step === 1 && out.includes('Password: ')) { step = 2; setTimeout(() => child.stdin.write(`${DEMO.adminPassword}\r`), 100); }
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 0, out);
  assert.match(out, /logged in as /);
  assert.ok(out.includes(DEMO.adminEmail), 'the e-mail is echoed');
  assert.ok(!out.includes(DEMO.adminPassword), 'the password is not echoed');
  assert.equal(statSync(path.join(home, '.config', 'lpm', 'token')).mode & 0o777, 0o600);
  outputs.push(out);
});

test('no output of any command above shows the token', () => {
  assert.ok(outputs.length > 10);
  for (const text of outputs) {
    assert.ok(!text.includes(TOKEN), text.slice(0, 200));
    assert.ok(!text.toLowerCase().includes(TOKEN.slice(0, 16).toLowerCase()), text.slice(0, 200));
  }
});
