// A Worker in Cloudflare's workerd as Wrangler would deploy it, for the package's checks
// (tests/runtimes/check.mjs, examples/typescript/check.mjs): bundled with the "workerd" export
// condition, each imported .wasm kept as a module of the Worker (a WebAssembly.Module when
// imported), not inlined as bytes; served on a loopback port whose Worker may call loopback.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The workerd binary tests/runtimes installs (its package-lock.json pins it). */
export const WORKERD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'node_modules/@cloudflare/workerd-linux-64/bin/workerd');

const freePort = () => new Promise((resolve, reject) => {
  const s = createServer();
  s.once('error', reject);
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

/**
 * Bundles `entry` into `dir` with `esbuild` and starts workerd serving it with `bindings` (text
 * bindings, name → value). Resolves `{ url, wasm, get(path), stop() }` once the Worker answers
 * `probe` (or rejects with workerd's log); `wasm` lists the .wasm modules it imports.
 */
export async function serveWorker({ esbuild, entry, dir, bindings = {}, probe = '/' }) {
  mkdirSync(dir, { recursive: true });
  const wasm = new Map();
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    outfile: path.join(dir, 'worker.js'),
    logLevel: 'error',
    plugins: [{
      name: 'wasm-modules',
      setup(b) {
        b.onResolve({ filter: /\.wasm$/ }, (a) => {
          const abs = path.resolve(a.resolveDir, a.path);
          wasm.set(path.basename(abs), abs);
          return { path: `./${path.basename(abs)}`, external: true };
        });
      },
    }],
  });
  for (const [name, abs] of wasm) copyFileSync(abs, path.join(dir, name));
  const port = await freePort();
  writeFileSync(path.join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # The Worker's fetch may reach a server on loopback (workerd allows only "public" by default).
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
${[...wasm.keys()].map((n) => `    (name = "${n}", wasm = embed "${n}"),`).join('\n')}
  ],
  bindings = [
${Object.entries(bindings).map(([k, v]) => `    (name = "${k}", text = ${JSON.stringify(v)}),`).join('\n')}
  ],
  compatibilityDate = "2025-09-01",
  globalOutbound = "loopback",
);
`);
  const child = spawn(WORKERD, ['serve', 'config.capnp', '--verbose'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => { log += d; });
  child.stderr.on('data', (d) => { log += d; });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => { child.kill('SIGTERM'); };
  let first;
  for (let i = 0; i < 100 && !first; i += 1) {
    if (child.exitCode !== null) break;
    first = await fetch(`${url}${probe}`).catch(() => new Promise((r) => setTimeout(r, 100)));
  }
  if (!first) {
    stop();
    throw new Error(`workerd did not answer within 10 s (exit ${child.exitCode})\n${log.slice(-1500)}`);
  }
  return { url, wasm: [...wasm.keys()], first, log: () => log, stop };
}
