// Builds the apps in apps/ with each framework and bundler, from the installed package and with
// no configuration of theirs (Rollup: the one plugin the package README names), and checks what
// each page, route and server render shows against the same calls made by this Node.
// Usage (from check.sh): node check.mjs <project dir with the package installed from the tarball>
// Prints one line per tool with its time and "N passed, N failed"; exits 1 on any failure.
// LPM_FRAMEWORKS=a,b runs only the tools whose names start with one of those (e.g. "next").
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startEmulator, DEMO } from '../js/emulator.mjs';
import { run as runIn, steps } from '../runtimes/steps.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = (name) => path.join(here, 'node_modules/.bin', name);
const proj = path.resolve(process.argv[2] || '');
/** The package's name (lpm-client or lpm-client-bulk), the project's one dependency. */
const pkgName = Object.keys(JSON.parse(readFileSync(path.join(proj, 'package.json'), 'utf8')).dependencies)[0];
const pkgDir = path.join(proj, 'node_modules', pkgName);
const only = (process.env.LPM_FRAMEWORKS || '').split(',').filter(Boolean);
// Each app beside its own copy of demo.mjs (Turbopack resolves nothing outside its app), importing
// the package by its name.
for (const app of ['browser', 'next', 'vite-ssr']) {
  cpSync(path.join(here, 'apps', app), path.join(proj, app), { recursive: true });
  cpSync(path.join(here, 'apps/demo.mjs'), path.join(proj, app, 'demo.mjs'));
  for (const f of readdirSync(path.join(proj, app), { recursive: true })) {
    const p = path.join(proj, app, f);
    if (/\.(mjs|jsx?)$/.test(f)) writeFileSync(p, readFileSync(p, 'utf8').replaceAll("from 'lpm-client'", `from '${pkgName}'`));
  }
}

const { step, fail, summary } = steps({ only });
/** A command run in the project, its output both streams, bounded (4 minutes unless told). */
const run = (cmd, args, options = {}) => runIn(cmd, args, { cwd: proj, timeoutMs: 240_000, both: true, ...options });

const freePort = () => new Promise((resolve, reject) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  s.on('error', reject);
});

/** The page's HTML, written beside a bundle whose script is `script`. */
const page = (dir, script) => {
  const html = readFileSync(path.join(proj, 'browser/index.html'), 'utf8').replace('./main.mjs', script);
  writeFileSync(path.join(dir, 'index.html'), html);
};

const site = mkdtempSync(path.join(tmpdir(), 'lpm-frameworks-site-'));
const emu = await startEmulator(['--static', site]);
const creds = { api: emu.url, token: DEMO.adminToken };
const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: '1' };
let context;
const profile = mkdtempSync(path.join(tmpdir(), 'lpm-frameworks-profile-'));

try {
  // The reference: the same calls from this Node, through the installed package's node entry.
  const { demo } = await import(pathToFileURL(path.join(proj, 'browser/demo.mjs')).href);
  const lpm = await import(pathToFileURL(path.join(pkgDir, 'node.js')).href);
  const reference = await demo(lpm, { baseUrl: emu.url, token: DEMO.adminToken });
  assert.deepEqual(reference.issues, ['Bắt buộc nhập email'], 'the bad account lacks its e-mail, in Vietnamese');
  assert.equal(new Set(reference.courses.map(([id]) => id)).size, 5, 'five distinct courses');

  const { chromium } = await import('playwright-core');
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_BIN || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  /** Loads `url` in Chromium and checks what the page rendered and left in window.__result. */
  const inChromium = async (url) => {
    const tab = await context.newPage();
    const errors = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    try {
      await tab.goto(url);
      await tab.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 })
        .catch((e) => { throw new Error(`${e.message}\n${errors.join('\n')}`); });
      const r = await tab.evaluate(() => window.__result);
      assert.ok(!r.error, `${r.error}\n${errors.join('\n')}`);
      assert.deepEqual(r, reference);
      const text = await tab.evaluate(() => document.body.innerText);
      for (const t of [...reference.issues, ...reference.courses.map(([, title]) => title)]) assert.ok(text.includes(t), `the page shows "${t}"`);
    } finally {
      await tab.close();
    }
  };
  /** A static site under the emulator's origin: the page and the API share it. */
  const staticSite = (name) => inChromium(`${emu.url}/${name}/index.html?${new URLSearchParams({ token: DEMO.adminToken })}`);
  const out = (name) => path.join(site, name);

  await step('webpack 5 (production, no config)', async () => {
    const { default: webpack } = await import(pathToFileURL(path.join(here, 'node_modules/webpack/lib/index.js')).href);
    const stats = await new Promise((resolve, reject) => webpack({
      mode: 'production', context: proj, entry: './browser/main.mjs', output: { path: out('webpack'), filename: 'main.js' },
    }, (e, s) => (e ? reject(e) : resolve(s))));
    const info = stats.toJson({ all: false, errors: true, warnings: true });
    assert.deepEqual(info.errors.map((e) => e.message), [], 'webpack errors');
    page(out('webpack'), './main.js');
    await staticSite('webpack');
    return `webpack ${webpack.version}, ${info.warnings.length} warning(s)`;
  });

  await step('Parcel 2 (no config, no auto-install)', async () => {
    const before = readdirSync(path.join(proj, 'node_modules'));
    const log = await run(bin('parcel'), ['build', 'browser/index.html', '--dist-dir', out('parcel'), '--public-url', './',
      '--no-autoinstall', '--no-cache', '--log-level', 'warn']);
    assert.deepEqual(readdirSync(path.join(proj, 'node_modules')), before, 'Parcel installed packages');
    await staticSite('parcel');
    const v = JSON.parse(readFileSync(path.join(here, 'node_modules/parcel/package.json'), 'utf8')).version;
    return `parcel ${v}${log.trim() ? `, said: ${log.trim().split('\n')[0].slice(0, 120)}` : ''}`;
  });

  await step('Rollup 4 + node-resolve + @web/rollup-plugin-import-meta-assets', async () => {
    const { rollup, VERSION } = await import(pathToFileURL(path.join(here, 'node_modules/rollup/dist/es/rollup.js')).href);
    const { nodeResolve } = await import(pathToFileURL(path.join(here, 'node_modules/@rollup/plugin-node-resolve/dist/es/index.js')).href);
    const { importMetaAssets } = await import(pathToFileURL(path.join(here, 'node_modules/@web/rollup-plugin-import-meta-assets/index.mjs')).href);
    const warnings = [];
    const bundle = await rollup({ input: path.join(proj, 'browser/main.mjs'), plugins: [nodeResolve({ browser: true }), importMetaAssets()], onwarn: (w) => warnings.push(w.message) });
    await bundle.write({ dir: out('rollup'), format: 'es' });
    await bundle.close();
    page(out('rollup'), './main.js');
    await staticSite('rollup');
    return `rollup ${VERSION}${warnings.length ? `, warned: ${warnings.join('; ').slice(0, 200)}` : ''}`;
  });

  const vite = await import(pathToFileURL(path.join(here, 'node_modules/vite/dist/node/index.js')).href);
  await step('Vite (browser build, no config)', async () => {
    await vite.build({ root: path.join(proj, 'browser'), base: './', configFile: false, logLevel: 'error', build: { outDir: out('vite'), emptyOutDir: true } });
    await staticSite('vite');
    return `vite ${vite.version}`;
  });
  for (const noExternal of [false, true]) {
    await step(`Vite SSR${noExternal ? ' (ssr.noExternal: true)' : ''}`, async () => {
      const outDir = path.join(proj, `vite-ssr/dist-${noExternal ? 'bundled' : 'external'}`);
      await vite.build({
        root: path.join(proj, 'vite-ssr'), configFile: false, logLevel: 'error',
        ssr: noExternal ? { noExternal: true } : undefined,
        build: { ssr: 'server.mjs', outDir, emptyOutDir: true },
      });
      const bundled = readFileSync(path.join(outDir, 'server.js'), 'utf8');
      assert.equal(bundled.includes(`from "${pkgName}"`) || bundled.includes(`from '${pkgName}'`), !noExternal, noExternal ? 'the package is bundled in' : 'the package stays external');
      // Run where the package is not beside it when bundled: nothing is read from its folder.
      const runDir = noExternal ? mkdtempSync(path.join(tmpdir(), 'lpm-ssr-')) : outDir;
      if (noExternal) cpSync(outDir, runDir, { recursive: true });
      try {
        const script = `const { render } = await import(${JSON.stringify(pathToFileURL(path.join(runDir, 'server.js')).href)});
console.log(JSON.stringify(await render(${JSON.stringify({ baseUrl: emu.url, token: DEMO.adminToken })})));`;
        const { result, html } = JSON.parse((await run(process.execPath, ['--input-type=module', '-e', script], { cwd: runDir })).trim().split('\n').pop());
        assert.deepEqual(result, reference);
        assert.ok(html.includes('<li>Bắt buộc nhập email</li>'), 'the server HTML holds the Vietnamese message');
      } finally {
        if (noExternal) rmSync(runDir, { recursive: true, force: true });
      }
      return noExternal ? 'bundled server, run away from node_modules' : 'the package external';
    });
  }

  await step('esbuild (bundle, the wasm copied beside it)', async () => {
    const esbuild = await import(pathToFileURL(path.join(here, 'node_modules/esbuild/lib/main.js')).href);
    await esbuild.build({ entryPoints: [path.join(proj, 'browser/main.mjs')], bundle: true, format: 'esm', minify: true,
      outfile: path.join(out('esbuild'), 'main.js'), logLevel: 'error' });
    // esbuild leaves `new URL('./wasm/…', import.meta.url)` as it is: the README's one step.
    mkdirSync(path.join(out('esbuild'), 'wasm'));
    cpSync(path.join(pkgDir, 'wasm/lpm_client_bg.wasm'), path.join(out('esbuild'), 'wasm/lpm_client_bg.wasm'));
    page(out('esbuild'), './main.js');
    await staticSite('esbuild');
    return `esbuild ${esbuild.version}`;
  });

  await step('import map, no bundler', async () => {
    const dir = out('importmap');
    cpSync(path.join(proj, 'browser'), dir, { recursive: true });
    cpSync(pkgDir, path.join(dir, pkgName), { recursive: true });
    const map = `<script type="importmap">{"imports":{"${pkgName}":"./${pkgName}/index.js"}}</script>`;
    writeFileSync(path.join(dir, 'index.html'), readFileSync(path.join(dir, 'index.html'), 'utf8').replace('</head>', `${map}</head>`));
    await staticSite('importmap');
    return 'the package folder served as it is';
  });

  // Next.js: the App Router app (a client component Next pre-renders in Node, Node and Edge route
  // handlers) built for production with webpack and with Turbopack, served by `next start`.
  const nextDir = path.join(proj, 'next');
  const nextBin = bin('next');
  for (const turbopack of [false, true]) {
    await step(`Next.js 15 ${turbopack ? 'Turbopack' : 'webpack'} (next build, no config)`, async () => {
      rmSync(path.join(nextDir, '.next'), { recursive: true, force: true });
      const log = await run(nextBin, ['build', ...(turbopack ? ['--turbopack'] : [])], { cwd: nextDir, env: NEXT_ENV });
      const prerendered = readFileSync(path.join(nextDir, '.next/server/app/index.html'), 'utf8');
      assert.ok(prerendered.includes('Bắt buộc nhập email'), 'the pre-rendered page (the client component, in Node) holds the Vietnamese message');
      const port = await freePort();
      const server = spawn(nextBin, ['start', '-p', String(port), '-H', '127.0.0.1'], { cwd: nextDir, env: { ...process.env, ...NEXT_ENV }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let serverLog = '';
      server.stdout.on('data', (d) => { serverLog += d; });
      server.stderr.on('data', (d) => { serverLog += d; });
      try {
        await new Promise((resolve, reject) => {
          server.on('exit', (c) => reject(new Error(`next start exited with ${c}: ${serverLog}`)));
          server.stdout.on('data', () => { if (/Ready in/.test(serverLog)) resolve(); });
        });
        const base = `http://127.0.0.1:${port}`;
        for (const route of ['node', 'edge']) {
          const res = await fetch(`${base}/api/${route}?${new URLSearchParams(creds)}`);
          const text = await res.text();
          assert.equal(res.status, 200, `/api/${route} answered ${res.status}: ${text.slice(0, 600)}\n${serverLog.slice(-800)}`);
          assert.deepEqual(JSON.parse(text), reference, `/api/${route}`);
        }
        await inChromium(`${base}/?${new URLSearchParams(creds)}`);
      } finally {
        process.kill(-server.pid, 'SIGTERM');
      }
      const tla = /topLevelAwait/.test(log) ? ', webpack warns of topLevelAwait in the client bundle' : '';
      return `${log.match(/Next\.js [\d.]+/)?.[0]}: pre-rendered page, Node and Edge routes, page in Chromium${tla}`;
    });
  }
} catch (e) {
  fail(e.stack || e.message);
} finally {
  await context?.close().catch(() => {});
  await emu.stop();
  rmSync(site, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
}

summary();
