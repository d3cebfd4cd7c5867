// The README's TypeScript examples, as a developer runs them: type-checked under
// `tsc --strict --exactOptionalPropertyTypes`, then each run against the emulator and its effect
// read back from the emulator's state. Usage (from check.sh): node check.mjs
// Prints one line per step and "N passed, N failed"; exits 1 on any failure.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator, DEMO } from '../../tests/js/emulator.mjs';
import { serveWorker } from '../../tests/runtimes/workerd.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const out = path.join(here, '.out');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

let passed = 0;
let failed = 0;
async function step(name, fn) {
  const t0 = performance.now();
  try {
    const note = await fn();
    passed += 1;
    console.log(`ok   ${name}${note ? `: ${note}` : ''} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${name}: ${String((e && e.stack) || e).split('\n').slice(0, 16).join('\n     ')}`);
  }
}

/** Runs a command (bounded). Resolves { code, signal, out }; `onLine` sees stdout as it comes. */
function run(cmd, args, { env = {}, timeoutMs = 120_000, onLine } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: here, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      const before = stdout.length;
      stdout += d;
      if (onLine) for (const line of stdout.slice(stdout.lastIndexOf('\n', before) + 1).split('\n').slice(0, -1)) onLine(line, child);
    });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, out: stdout, err: stderr }); });
  });
}
const lastJson = (text) => JSON.parse(text.trim().split('\n').pop());
const ok = (r, what) => assert.equal(r.code, 0, `${what} exited with ${r.signal || r.code}\n${(r.err || r.out).slice(-1500)}`);


await step('tsc --strict --exactOptionalPropertyTypes over every example', async () => {
  const tsc = path.join(here, 'node_modules/typescript/bin/tsc');
  const r = await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false']);
  ok(r, 'tsc');
  return `typescript ${JSON.parse(readFileSync(path.join(here, 'node_modules/typescript/package.json'), 'utf8')).version}`;
});

await step('every code block of the READMEs and every example of the API reference, under the same tsc', async () => {
  const { writeBlocks } = await import('./docs-blocks.mjs');
  const counts = writeBlocks();
  const tsc = path.join(here, 'node_modules/typescript/bin/tsc');
  const r = await run(process.execPath, [tsc, '-p', 'docs-blocks.tsconfig.json', '--pretty', 'false']);
  ok(r, 'tsc over the docs\' blocks');
  return Object.entries(counts).map(([doc, n]) => `${path.basename(doc)} ${n}`).join(', ');
});

// The Node examples as JavaScript beside node_modules (esbuild strips the types, as tsc would).
const esbuild = await import(path.join(root, 'node_modules/esbuild/lib/main.js'));
await esbuild.build({
  entryPoints: [path.join(here, 'node-script/accounts.ts'), path.join(here, 'bulk-import/import.ts')],
  outdir: out,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  logLevel: 'error',
});

const site = mkdtempSync(path.join(tmpdir(), 'lpm-examples-site-'));
// The emulator checks a spacing a little under the clients' (1 s against 1.5 s, 4.5 s against the
// 5 s of registerUser): a guard counts from when a call leaves, the emulator from when it arrives.
const emu = await startEmulator(['--create-interval-secs', '1', '--single-create-interval-ms', '4500', '--static', site]);
const api = (route) => fetch(`${emu.url}/manage/api/${route}${route.includes('?') ? '&' : '?'}token=${DEMO.adminToken}`).then((r) => r.json());
const state = () => emu.control('GET', 'state?records=1');

try {
  await step('node-script/accounts.ts: log in, list every account, grant a course to the newest', async () => {
    const before = (await state()).records;
    const r = await run(process.execPath, [path.join(out, 'node-script/accounts.mjs')], {
      env: { LPM_BASE_URL: emu.url, LPM_EMAIL: DEMO.adminEmail, LPM_PASSWORD: DEMO.adminPassword },
    });
    ok(r, 'accounts');
    const got = lastJson(r.out);
    assert.equal(got.count, before.users.length, 'every account listed');
    // The emulator lists newest first.
    assert.equal(got.newest, before.users[0]._id);
    assert.equal(got.course, before.courses[0]._id);
    assert.equal(got.success, true);
    const { user } = await api(`users/get-single-user/${got.newest}`);
    assert.ok(user.myCourses.some((e) => e.courseId === got.course), 'the newest account has the course');
    return `${got.count} accounts`;
  });

  await step('bulk-import/import.ts: 250 rows, Ctrl-C after the first chunk, resumed to the end, each account once', async () => {
    const tag = Date.now().toString(36);
    const rows = Array.from({ length: 250 }, (_, i) => ({
      name: `Học viên ${i + 1}`, username: `imp${tag}${i}`, email: `imp${tag}.${i}@example.vn`, password: `Mk-${i}-secret`,
    }));
    rows[7].email = 'not an e-mail'; // a platform finding: sent anyway; the platform refuses it
    rows[9] = { ...rows[9], username: '' }; // a contract finding: set aside
    const rowsFile = path.join(out, 'rows.json');
    const journal = path.join(out, 'import.journal');
    writeFileSync(rowsFile, JSON.stringify(rows));
    const env = { LPM_BASE_URL: emu.url, LPM_TOKEN: DEMO.adminToken, LPM_CREATE_INTERVAL_MS: '1500' };
    const args = [path.join(out, 'bulk-import/import.mjs'), rowsFile, journal];
    let interrupted = false;
    const first = await run(process.execPath, args, {
      env,
      onLine: (line, child) => {
        const m = /^progress: (\d+) created/.exec(line);
        if (m && Number(m[1]) > 0 && !interrupted) { interrupted = true; child.kill('SIGINT'); }
      },
    });
    assert.ok(interrupted, `never saw a chunk done\n${first.out}`);
    assert.equal(first.code, 130, `stopped by Ctrl-C\n${first.out}\n${first.err}`);
    const stopped = lastJson(first.out);
    assert.equal(stopped.done, false);
    assert.ok(stopped.notSent > 0, 'rows were left');
    const second = await run(process.execPath, args, { env });
    ok(second, 'the resumed import');
    const end = lastJson(second.out);
    assert.equal(end.done, true);
    assert.equal(end.total, 250);
    assert.equal(end.setAside, 1);
    assert.equal(end.failed, 1, 'the malformed e-mail, refused by the platform (as the emulator does)');
    const users = (await state()).records.users.filter((u) => u.username.startsWith(`imp${tag}`));
    assert.equal(users.length, 248, 'every row but the one set aside and the one refused, once');
    assert.equal(new Set(users.map((u) => u.username)).size, 248);
    const calls = await emu.control('GET', 'create-calls');
    assert.deepEqual(calls.violations, [], 'the interval kept, across the interruption');
    return `${stopped.notSent} rows left at Ctrl-C, ${users.length} accounts after the resume`;
  });

  await step('worker/worker.ts in workerd: GET /courses and /courses?q=', async () => {
    const worker = await serveWorker({
      esbuild,
      entry: path.join(here, 'worker/worker.ts'),
      dir: path.join(out, 'workerd'),
      bindings: { LPM_BASE_URL: emu.url, LPM_TOKEN: DEMO.adminToken },
      probe: '/courses',
    });
    try {
      const all = await worker.first.json();
      const courses = (await state()).records.courses;
      assert.equal(all.courses.length, courses.length, JSON.stringify(all).slice(0, 500));
      assert.deepEqual(all.courses[0], { id: courses[0]._id, title: courses[0].title });
      const word = courses[0].title.split(' ')[0];
      const some = await (await fetch(`${worker.url}/courses?${new URLSearchParams({ q: word })}`)).json();
      const expected = (await api(`courses/search-course?${new URLSearchParams({ title: word })}`)).courses.map((c) => c._id);
      assert.deepEqual(some.courses.map((c) => c.id), expected);
      return `${all.courses.length} courses; "${word}": ${expected.length}`;
    } finally {
      worker.stop();
    }
  });

  // The public sign-up form: its page holds no token; its server (handler.ts) registers.
  await esbuild.build({
    entryPoints: [path.join(here, 'sign-up/node-server.ts')],
    outdir: path.join(out, 'sign-up'),
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    logLevel: 'error',
  });
  // Each sign-up's client is a new process or isolate, so none remembers another's last sign-up.
  // The violations among the calls from `from` on (an earlier step's last call may be nearer).
  const violationsFrom = (log, from) => log.violations.filter((v) => from < log.calls.length && v.previous >= log.calls[from].at);
  const signUp = (tag) => ({ name: 'Nguyễn Thị Hoa', username: `hoa${tag}`, email: `hoa.${tag}@example.vn`, password: 'matkhau123', confirmPassword: 'matkhau123', phone: '' });

  await step('sign-up/worker.ts in workerd: refused fields, a registration, the 5 s as retryAt, a taken e-mail on its field', async () => {
    const worker = await serveWorker({
      esbuild,
      entry: path.join(here, 'sign-up/worker.ts'),
      dir: path.join(out, 'workerd-sign-up'),
      bindings: { LPM_BASE_URL: emu.url, LPM_TOKEN: DEMO.adminToken },
      probe: '/api/sign-up',
    });
    try {
      const post = (body, lang = 'en') => fetch(`${worker.url}/api/sign-up`, { method: 'POST', headers: { 'content-type': 'application/json', 'accept-language': lang }, body: JSON.stringify(body) })
        .then(async (r) => ({ status: r.status, body: await r.json(), retryAfter: r.headers.get('retry-after') }));
      const tag = `w${Date.now().toString(36)}`;
      const before = (await emu.control('GET', 'single-create-calls')).calls.length;
      const bad = await post({ ...signUp(tag), confirmPassword: 'other', phone: 'abc' }, 'vi');
      assert.equal(bad.status, 422);
      assert.deepEqual(bad.body.issues.map((i) => i.path.join('.')).sort(), ['confirmPassword', 'phone']);
      assert.match(bad.body.issues.find((i) => i.path[0] === 'confirmPassword').message, /không khớp/);
      const made = await post(signUp(tag));
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal((await api(`users/search-user?username=hoa${tag}`)).user.username, `hoa${tag}`);
      const soon = await post({ ...signUp(`${tag}b`), email: `hoa.${tag}@example.vn` });
      assert.equal(soon.status, 429, 'within the platform\'s 5 s');
      assert.ok(soon.body.retryAt > Date.now() && Number(soon.retryAfter) >= 1, JSON.stringify(soon));
      // Waits for the state the answer named (the guard open again), then the taken e-mail.
      let taken = soon;
      while (taken.status === 429) {
        await new Promise((r) => setTimeout(r, Math.max(50, taken.body.retryAt - Date.now())));
        taken = await post({ ...signUp(`${tag}b`), email: `hoa.${tag}@example.vn` });
      }
      assert.equal(taken.status, 409);
      assert.deepEqual(taken.body.issues, [{ path: ['email'], message: 'An account with this e-mail exists already' }]);
      const log = await emu.control('GET', 'single-create-calls');
      assert.equal(log.calls.length - before, 2, 'the refused form and the early one were never sent');
      assert.deepEqual(violationsFrom(log, before), []);
      return '422, 201, 429, 409';
    } finally {
      worker.stop();
    }
  });

  await step('sign-up (vite build, chromium, node:http server): no token in the page; fields refused in the form, a registration, the 5 s counted down, a taken e-mail on its field', async () => {
    const vite = await import(path.join(here, 'node_modules/vite/dist/node/index.js'));
    await vite.build({
      root: path.join(here, 'sign-up'),
      base: './',
      configFile: false,
      logLevel: 'error',
      build: { outDir: path.join(site, 'form'), emptyOutDir: true },
    });
    for (const f of readdirSync(path.join(site, 'form/assets'))) {
      assert.ok(!readFileSync(path.join(site, 'form/assets', f), 'latin1').includes(DEMO.adminToken), `${f} holds no token`);
    }
    const server = spawn(process.execPath, [path.join(out, 'sign-up/node-server.mjs')], {
      cwd: here,
      env: { ...process.env, LPM_BASE_URL: emu.url, LPM_TOKEN: DEMO.adminToken, LPM_STATIC: site, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let serverLog = '';
    server.stderr.on('data', (d) => { serverLog += d; });
    const serverUrl = await new Promise((resolve, reject) => {
      let text = '';
      server.stdout.on('data', (d) => { text += d; const m = /listening (\S+)/.exec(text); if (m) resolve(m[1]); });
      server.on('exit', (code) => reject(new Error(`the server exited (${code}): ${serverLog}`)));
    });
    const { chromium } = await import(path.join(root, 'node_modules/playwright-core/index.mjs'));
    const profile = mkdtempSync(path.join(tmpdir(), 'lpm-examples-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_BIN || '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await context.newPage();
      const errors = [];
      const requests = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('request', (r) => requests.push(r.url() + (r.postData() ?? '')));
      await page.goto(`${serverUrl}/form/index.html`);
      const tag = `b${Date.now().toString(36)}`;
      const before = (await emu.control('GET', 'single-create-calls')).calls.length;
      const fill = async (values) => {
        for (const [name, value] of Object.entries(values)) await page.fill(`input[name="${name}"]`, value);
      };
      const alertOf = (field) => page.locator(`[data-field="${field}"]`);
      await fill({ ...signUp(tag), confirmPassword: 'matkhau124', phone: 'abc' });
      await page.click('button[type="submit"]');
      await alertOf('phone').waitFor({ timeout: 10_000 });
      assert.match(await alertOf('phone').innerText(), /not a valid phone number/);
      assert.match(await alertOf('confirmPassword').innerText(), /differ/);
      assert.equal((await emu.control('GET', 'single-create-calls')).calls.length, before, 'nothing sent');
      await fill({ confirmPassword: 'matkhau123', phone: '0912 345 678' });
      await page.click('button[type="submit"]');
      await page.locator('[role="status"]').waitFor({ timeout: 10_000 });
      assert.match(await page.locator('[role="status"]').innerText(), new RegExp(`Registered hoa${tag}`));
      const found = await api(`users/search-user?username=hoa${tag}`);
      assert.equal(found.user.profile.phone, '0912 345 678');
      // The same e-mail again at once, in a fresh form: first the platform's 5 s, counted down
      // on the form, then the server's answer on the e-mail field.
      await page.reload();
      await fill({ ...signUp(`${tag}b`), email: `hoa.${tag}@example.vn` });
      await page.click('button[type="submit"]');
      await alertOf('root').waitFor({ timeout: 10_000 });
      assert.match(await alertOf('root').innerText(), /try again in a moment \(\d s\)/);
      assert.ok(await page.locator('button[type="submit"]').isDisabled(), 'the button waits out the countdown');
      await page.locator('button[type="submit"]:enabled').waitFor({ timeout: 15_000 });
      await page.click('button[type="submit"]');
      await alertOf('email').waitFor({ timeout: 15_000 });
      assert.match(await alertOf('email').innerText(), /exists already/);
      const log = await emu.control('GET', 'single-create-calls');
      assert.equal(log.calls.length - before, 2);
      assert.deepEqual(violationsFrom(log, before), [], 'the second sign-up waited out the 5 s');
      assert.deepEqual(errors, []);
      assert.ok(!requests.some((u) => u.includes(DEMO.adminToken)), 'the page never sent the token');
      assert.ok(!requests.some((u) => u.startsWith(emu.url)), 'the page never called the platform');
      return `Chromium ${context.browser()?.version() ?? ''}`.trim();
    } finally {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
      server.kill();
    }
  });
} finally {
  await emu.stop();
  rmSync(site, { recursive: true, force: true });
}

console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
