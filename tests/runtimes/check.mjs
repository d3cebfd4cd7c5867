// Runs the installed package in each runtime it claims and compares what each did (exercise.mjs)
// with the same exercise under this Node, itself checked against the emulator's state.
// Usage (from check.sh): node check.mjs <project dir with lpm-client installed from the tarball>
// Prints one line per runtime and "N passed, N failed"; exits 1 on any failure.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator, DEMO } from '../js/emulator.mjs';
import { serveWorker, WORKERD } from './workerd.mjs';
import { run as runIn, steps } from './steps.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const nm = path.join(here, 'node_modules');
const proj = path.resolve(process.argv[2] || '');
const pkgDir = path.join(proj, 'node_modules/lpm-client');
const manifest = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
for (const f of ['exercise.mjs', 'run.mjs', 'require.cjs', 'worker.mjs', 'app.mjs', 'index.html']) {
  copyFileSync(path.join(here, f), path.join(proj, f));
}

/** The Node versions tested besides this one: the lower bounds of `engines` and the LTS. */
const NODES = [
  { bin: path.join(nm, 'node-20.19/bin/node'), why: 'oldest in engines' },
  { bin: path.join(nm, 'node-22.12/bin/node'), why: 'oldest 22.x in engines' },
  { bin: path.join(nm, 'node-24/bin/node'), why: 'LTS' },
];
const DENO = path.join(nm, '@deno/linux-x64-glibc/deno');
const BUN = path.join(nm, '@oven/bun-linux-x64/bin/bun');
/** The oldest TypeScript the package's types compile with (README "Requirements"), and the one before. */
const TS_MIN = '5.2';
const TS_BELOW = '5.1';

const { step, fail, summary } = steps();
/** A command run in the project, bounded (60 s unless told). */
const run = (cmd, args, options = {}) => runIn(cmd, args, { cwd: proj, ...options });
const lastJson = (out) => JSON.parse(out.trim().split('\n').pop());


const site = mkdtempSync(path.join(tmpdir(), 'lpm-runtimes-site-'));
const emu = await startEmulator(['--static', site]);
const args = [emu.url, DEMO.adminToken];
let reference;

try {
  await step(`node ${process.version} (this Node): import, checked against the emulator`, async () => {
    reference = lastJson(await run(process.execPath, ['run.mjs', ...args]));
    const state = await emu.control('GET', 'state');
    assert.equal(reference.courses.length, Math.min(state.courses, 100), 'one page holds every seeded course');
    assert.equal(new Set(reference.courses.map(([id]) => id)).size, reference.courses.length, 'course ids are unique');
    assert.deepEqual(reference.refused, reference.issues.map(([p, c]) => [p, c]), 'createUsers refuses with the validator\'s issues');
    assert.deepEqual(reference.apiError, { endpoint: 'get-single-user', code: '03', category: 'notFound', status: 400 });
    return `${reference.courses.length} courses, ${reference.issues.length} issue(s), ApiError 03`;
  });
  if (!reference) throw new Error('no reference summary: the remaining runtimes have nothing to compare with');

  const lowerBounds = [...manifest.engines.node.matchAll(/(?:\^|>=)\s*(\d+\.\d+\.\d+)/g)].map((m) => m[1]);
  for (const node of NODES) {
    await step(`node ${node.why}`, async () => {
      const info = JSON.parse(await run(node.bin, ['-p', 'JSON.stringify({ v: process.version, lts: process.release.lts || null })']));
      if (node.why === 'LTS') assert.ok(info.lts, `${info.v} is not an LTS release`);
      assert.deepEqual(lastJson(await run(node.bin, ['run.mjs', ...args])), reference, 'import');
      assert.deepEqual(lastJson(await run(node.bin, ['require.cjs', ...args])), reference, 'require');
      return `${info.v}${info.lts ? ` (${info.lts})` : ''}: import and require('lpm-client')`;
    });
  }
  await step('require(\'lpm-client\') where Node cannot require ESM (below engines)', async () => {
    // Node 22.12 with require(esm) switched off behaves as 20.0-20.18 and 22.0-22.11 do.
    const err = await run(NODES[1].bin, ['--no-experimental-require-module', 'require.cjs', ...args]).then(() => null, (e) => e.message);
    assert.ok(err, 'require() loaded the ES module without require(esm)');
    assert.match(err, /ERR_REQUIRE_ESM/);
    assert.match(err, /dynamic import\(\)/, 'the error tells the caller to use import()');
    return 'ERR_REQUIRE_ESM, "change the require of node.js ... to a dynamic import()"';
  });
  await step('node engines bounds are the versions tested', async () => {
    const tested = await Promise.all(NODES.map(async (n) => (await run(n.bin, ['-v'])).trim().slice(1)));
    for (const b of lowerBounds) assert.ok(tested.includes(b), `engines allows ${b} (${manifest.engines.node}) but tests ${tested.join(', ')}`);
    return `${manifest.engines.node}`;
  });

  await step('deno (npm compatibility, node_modules)', async () => {
    const env = { DENO_DIR: path.join(proj, '.deno'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
    // The least a user grants: the network (the node entry carries its wasm, so reads nothing).
    const perms = ['--allow-net=127.0.0.1', '--no-lock', '--quiet'];
    assert.deepEqual(lastJson(await run(DENO, ['run', ...perms, 'run.mjs', ...args], { env })), reference, 'import');
    assert.deepEqual(lastJson(await run(DENO, ['run', ...perms, 'require.cjs', ...args], { env })), reference, 'require');
    const v = (await run(DENO, ['--version'], { env })).split(' (')[0];
    return `${v}: import and require, granted only --allow-net=127.0.0.1`;
  });

  await step('bun (npm compatibility)', async () => {
    const env = { BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0', NO_COLOR: '1' };
    assert.deepEqual(lastJson(await run(BUN, ['--no-install', 'run.mjs', ...args], { env })), reference, 'import');
    assert.deepEqual(lastJson(await run(BUN, ['--no-install', 'require.cjs', ...args], { env })), reference, 'require');
    return `bun ${(await run(BUN, ['--version'])).trim()}: import and require`;
  });

  const esbuild = await import('esbuild');

  await step('cloudflare workerd ("workerd" entry, precompiled wasm module)', async () => {
    const q = new URLSearchParams({ emulator: emu.url, token: DEMO.adminToken });
    const worker = await serveWorker({ esbuild, entry: path.join(proj, 'worker.mjs'), dir: path.join(proj, 'workerd'), probe: `/?${q}` });
    try {
      assert.ok(worker.wasm.length === 1, `expected one wasm module import, got ${worker.wasm}`);
      const text = await worker.first.text();
      assert.equal(worker.first.status, 200, `the Worker answered ${worker.first.status}: ${text.slice(0, 1500)}\n${worker.log().slice(-800)}`);
      assert.deepEqual(JSON.parse(text), reference);
    } finally {
      worker.stop();
    }
    return `workerd ${(await run(WORKERD, ['--version'])).trim().split(' ').pop()}, esbuild bundle as wrangler makes it`;
  });

  // Bundled browser apps (app.mjs + exercise.mjs), served by the emulator so page and API share
  // an origin, loaded in headless Chromium.
  const vite = await import('vite');
  await step('vite production build', async () => {
    await vite.build({
      root: proj,
      base: './',
      configFile: false,
      logLevel: 'error',
      build: { outDir: path.join(site, 'vite'), emptyOutDir: true },
    });
    const assets = readFileSync(path.join(site, 'vite/index.html'), 'utf8');
    assert.match(assets, /<script type="module"[^>]*src="\.\/assets\//, 'index.html loads the bundle');
    return `vite ${vite.version}`;
  });
  await step('esbuild browser bundle', async () => {
    const out = path.join(site, 'esbuild');
    await esbuild.build({
      entryPoints: [path.join(proj, 'app.mjs')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      minify: true,
      outdir: out,
      logLevel: 'error',
    });
    // esbuild leaves `new URL('./wasm/…', import.meta.url)` alone: the wasm goes beside the
    // bundle, as the README tells esbuild users.
    mkdirSync(path.join(out, 'wasm'), { recursive: true });
    copyFileSync(path.join(pkgDir, 'wasm/lpm_client_bg.wasm'), path.join(out, 'wasm/lpm_client_bg.wasm'));
    copyFileSync(path.join(proj, 'index.html'), path.join(out, 'index.html'));
    writeFileSync(path.join(out, 'index.html'), readFileSync(path.join(out, 'index.html'), 'utf8').replace('./app.mjs', './app.js'));
    return `esbuild ${esbuild.version}`;
  });

  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(path.join(tmpdir(), 'lpm-runtimes-profile-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_BIN || '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
    const version = `Chromium ${context.browser()?.version() ?? ''}`.trim();
    const load = async (url) => {
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url);
      await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30_000 });
      const r = await page.evaluate(() => window.__result);
      await page.close();
      assert.ok(!r.error, `${r.error}\n${errors.join('\n')}`);
      assert.deepEqual(r.summary, reference);
    };
    const query = new URLSearchParams({ token: DEMO.adminToken });
    for (const bundler of ['vite', 'esbuild']) {
      await step(`chromium loads the ${bundler} bundle`, async () => {
        await load(`${emu.url}/${bundler}/index.html?${query}`);
        return version;
      });
    }
    // What users meet first: the dev server, which pre-bundles the package; the page calls the
    // emulator cross-origin (it allows any origin).
    await step('chromium loads the app from the vite dev server', async () => {
      const server = await vite.createServer({ root: proj, configFile: false, logLevel: 'error', server: { host: '127.0.0.1', port: 0 } });
      try {
        await server.listen();
        await load(`${server.resolvedUrls.local[0]}index.html?${query}&${new URLSearchParams({ api: emu.url })}`);
      } finally {
        await server.close();
      }
      return version;
    });
  } finally {
    await context?.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  }

  // The typed example under the oldest supported TypeScript, both module resolutions users have;
  // and the version before it fails on the package's own declarations (a file that only imports
  // the package, as example.ts's own syntax may need the newer compiler anyway).
  const tsDir = path.join(proj, 'ts');
  const tsProject = (moduleKind, resolution, file) => JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, module: moduleKind, moduleResolution: resolution, target: 'es2022',
      lib: ['es2022', 'dom'], types: [], skipLibCheck: false, noUncheckedIndexedAccess: true,
    },
    files: [file, 'process-shim.d.ts'],
  });
  mkdirSync(tsDir, { recursive: true });
  copyFileSync(path.join(here, '../types/example.ts'), path.join(tsDir, 'example.ts'));
  // example.ts reads process.env; the shim stands in for @types/node, whose newest releases
  // need a newer compiler than the package does.
  writeFileSync(path.join(tsDir, 'process-shim.d.ts'), 'declare const process: { env: Record<string, string | undefined> };\n');
  writeFileSync(path.join(tsDir, 'import-only.ts'), 'import { Client, validateCreateUsers, ApiError } from "lpm-client";\n'
    + 'export const issues: number = validateCreateUsers([]).length;\nexport const client: Client = new Client({ baseUrl: "https://school.example.com" });\n'
    + 'export const isApi = (e: unknown): boolean => e instanceof ApiError;\n');
  for (const [name, m, r, f] of [['node16', 'node16', 'node16', 'example.ts'], ['bundler', 'es2022', 'bundler', 'example.ts'], ['below', 'es2022', 'bundler', 'import-only.ts']]) {
    writeFileSync(path.join(tsDir, `tsconfig.${name}.json`), tsProject(m, r, f));
  }
  const tsc = (v, name) => run(process.execPath, [path.join(nm, `typescript-${v}/bin/tsc`), '-p', `tsconfig.${name}.json`, '--pretty', 'false'], { cwd: tsDir });
  await step(`typescript ${TS_MIN} (oldest supported): tests/types/example.ts, node16 and bundler resolution`, async () => {
    await tsc(TS_MIN, 'node16');
    await tsc(TS_MIN, 'bundler');
    const below = await tsc(TS_BELOW, 'below').then(() => null, (e) => e.message.split('\n').find((l) => /error TS/.test(l)));
    // If the one below compiles the package too, the README's minimum is stale: lower it.
    assert.ok(below, `typescript ${TS_BELOW} compiles the package's types too: lower the README's minimum (${TS_MIN})`);
    return `${TS_BELOW} fails on the package's types (${below.replace(/^.*error /, '').slice(0, 100)})`;
  });
} catch (e) {
  fail(e.message);
} finally {
  await emu.stop();
  rmSync(site, { recursive: true, force: true });
}

summary();
