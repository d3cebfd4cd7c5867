// Starts an lpm-emulator on a free loopback port for one test file and stops it afterwards.
// The binary is built by scripts/test.sh (cargo build -p lpm-emulator); LPM_EMULATOR_BIN overrides.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const EMULATOR_BIN = process.env.LPM_EMULATOR_BIN || path.join(root, 'target/debug/lpm-emulator');

/** Demo credentials the emulator prints at start (its defaults). */
export const DEMO = {
  adminToken: 'demo-admin-token-00000000000000000000000000',
  userToken: 'demo-user-token-000000000000000000000000000',
  expiredToken: 'demo-expired-token-000000000000000000000000',
  adminEmail: 'admin@demo.lpm.test',
  adminPassword: 'demo-admin-password',
};

/**
 * Starts an emulator with extra CLI flags; resolves with { url, printed, control, stop }.
 * `printed` holds the key/value lines it printed at start.
 */
export async function startEmulator(args = []) {
  const child = spawn(EMULATOR_BIN, ['--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const printed = {};
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('emulator did not start within 10 s')), 10_000);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
    let first = null;
    lines.on('line', (line) => {
      const m = /^lpm-emulator listening on (http:\/\/\S+)$/.exec(line);
      if (m) { first = m[1]; return; }
      const kv = /^([a-z-]+): (.*)$/.exec(line);
      if (kv) printed[kv[1]] = kv[2];
      if (first && printed['user-password'] !== undefined) { clearTimeout(timer); resolve(first); }
    });
  });
  child.removeAllListeners('exit');
  const control = async (method, route, body) => {
    const res = await fetch(`${url}/_emulator/${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return text ? JSON.parse(text) : null;
  };
  const stop = () => new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return { url, printed, control, stop };
}
