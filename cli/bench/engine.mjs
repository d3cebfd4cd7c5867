// The package's share of an import, measured apart from the command line, the sockets and the
// disk (which cli/bench/import.mjs includes, and which make a 10 ms change invisible on a shared
// machine): client.importUsers of 10,000 rows in a fresh Node process, with a fetch stub that
// answers as the loopback server of import.mjs does and a journal that keeps nothing; the CPU
// time of the call alone (user + system), and that less the stub's own (the server's share, ~60
// ms). Each package given is timed in the same rounds, interleaved; min, first quartile and
// median printed (the min and quartile are the steadier).
// Usage: node cli/bench/engine.mjs [ROUNDS=15] [PKG_DIR ...] (default: ../pkg-bulk; e.g. a copy
// of pkg-bulk built before a change, for a before/after). Flags as bin/lpm.js sets them.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

if (process.env.LPM_ENGINE_BENCH_PKG) {
  const { Client } = await import(pathToFileURL(path.join(process.env.LPM_ENGINE_BENCH_PKG, 'node.js')).href);
  let created = 0;
  // The stub's own CPU (reading the request, writing the answer), the server's share: counted
  // apart, so the second figure is the package's alone.
  let stub = 0;
  const utf8 = new TextEncoder();
  const fetch = async (url, init) => {
    const c0 = process.cpuUsage();
    const { users } = JSON.parse(init.body);
    const items = users.map((u) => ({ ...u, status: 'Success created', success: true, userId: `u${String(created++).padStart(16, '0')}` }));
    const body = JSON.stringify({ msg: `${items.length} success, 0 error`, respCode: '00', users: items });
    // As bytes, as a server's answer arrives (a string body is encoded when the package reads it).
    const answer = new Response(utf8.encode(body), { status: 200, headers: { 'content-type': 'application/json' } });
    const c = process.cpuUsage(c0);
    stub += c.user + c.system;
    return answer;
  };
  const rows = Array.from({ length: 10_000 }, (_, i) => ({ name: `Học Viên ${i}`, username: `bench${i}`, email: `bench${i}@school.test`, password: `pass-${i}-word` }));
  const client = new Client({ token: 'tok_bench_0123456789abcdefghijklmnop', baseUrl: 'http://127.0.0.1:9', fetch, createInterval: { intervalMs: 0 } });
  const journal = { load: async () => [], append: async () => {}, appendLines: async () => {} };
  // The stub's Response loads undici (~60 ms) on its first use: loaded before the clock starts,
  // as it is not the package's share (the hand loop of import.mjs pays it too).
  await new Response('{}').arrayBuffer();
  const t0 = process.cpuUsage();
  const report = await client.importUsers(rows, { journal, intervalMs: 0 });
  const t = process.cpuUsage(t0);
  if (report.counts.created !== 10_000) throw new Error(`created ${report.counts.created}, not 10000`);
  console.log(((t.user + t.system) / 1000).toFixed(1), ((t.user + t.system - stub) / 1000).toFixed(1));
} else {
  const rounds = Number(process.argv[2] ?? 15);
  const pkgs = process.argv.length > 3 ? process.argv.slice(3).map((p) => path.resolve(p)) : [path.join(here, '../../pkg-bulk')];
  const cpu = pkgs.map(() => []);
  const own = pkgs.map(() => []);
  for (let r = 0; r < rounds; r++) {
    pkgs.forEach((pkg, k) => {
      const run = spawnSync(process.execPath, ['--wasm-tiering-budget=2000000000', fileURLToPath(import.meta.url)], { env: { ...process.env, LPM_ENGINE_BENCH_PKG: pkg }, encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`${pkg}: exit ${run.status}\n${run.stderr}`);
      const [call, alone] = run.stdout.trim().split(' ').map(Number);
      cpu[k].push(call);
      own[k].push(alone);
    });
  }
  console.log(`client.importUsers of 10,000 rows, fetch stubbed, CPU ms of the call, and of the call less the stub's (${rounds} fresh processes each, interleaved)`);
  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const at = (q) => s[Math.floor(q * (s.length - 1))].toFixed(0);
    return `min ${at(0).padStart(4)} | q1 ${at(0.25).padStart(4)} | median ${at(0.5).padStart(4)}`;
  };
  pkgs.forEach((pkg, k) => {
    console.log(`| ${pkg.slice(-40).padEnd(40)} | call: ${stats(cpu[k])} | less the stub: ${stats(own[k])} |`);
  });
}
