// What the import benchmarks run against: a loopback server in the benchmark's own process that
// answers at once (get-me with the emulator's own answer, create-multi-user as the emulator does:
// each item echoed, `success`, an id), a sheet of good rows, and the process runner that reads a
// child's peak RSS and CPU time (rss.mjs). Not the emulator itself: it checks each new account
// against every existing one, so 10,000 rows take it about 60 s (release build), which would hide
// the client's cost.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOKEN, emulator, goodRows, sheet, tempDir } from '../test/helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Starts the server; `{ base, env, dir, created(), sheetOf(n), run(args, nodeFlags), close() }`. */
export async function benchServer() {
  const dir = tempDir();
  // The emulator's get-me answer, replayed.
  const emu = await emulator(['--seed', 'demo']);
  const getMe = await (await fetch(`${emu.url}/manage/api/users/get-me?token=${TOKEN}`)).text();
  await emu.stop();
  let created = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      let body;
      if (url.searchParams.get('token') !== TOKEN) body = '{"respCode":"01","msg":"Invalid token"}';
      else if (url.pathname === '/manage/api/users/get-me') body = getMe;
      else if (url.pathname === '/manage/api/users/create-multi-user') {
        const { users } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const items = users.map((u) => ({ ...u, status: 'Success created', success: true, userId: `u${String(created++).padStart(16, '0')}` }));
        body = JSON.stringify({ msg: `${items.length} success, 0 error`, respCode: '00', users: items });
      } else body = '{"respCode":"99","msg":"not served here"}';
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const env = { ...process.env, LPM_BASE_URL: base, LPM_TOKEN: TOKEN };
  return {
    base,
    env,
    dir,
    /** A CSV of n good rows (name, username, email, password). */
    sheetOf(n) {
      const file = path.join(dir, `rows-${n}.csv`);
      writeFileSync(file, sheet(['name', 'username', 'email', 'password'], goodRows(n, `bench${n}x`)));
      return file;
    },
    /** Runs `node [nodeFlags] args...` (asynchronously: this process serves its requests
     * meanwhile); resolves { ms, rssKiB, cpuMs, created }. */
    run(args, nodeFlags = []) {
      created = 0;
      const rss = path.join(dir, 'rss');
      const t0 = process.hrtime.bigint();
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', path.join(here, 'rss.mjs'), ...nodeFlags, ...args], { env: { ...env, LPM_BENCH_RSS: rss }, stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr.on('data', (d) => { err += d; });
        child.on('close', (code) => {
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          if (code !== 0) return reject(new Error(`${args.join(' ')}: exit ${code}\n${err}`));
          const [rssKiB, cpuUs] = readFileSync(rss, 'utf8').split(' ').map(Number);
          resolve({ ms, rssKiB, cpuMs: cpuUs / 1000, created });
        });
      });
    },
    close: () => server.close(),
  };
}
