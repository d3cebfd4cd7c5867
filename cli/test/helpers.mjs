// What the CLI's tests share: an emulator on a free port (tests/js/emulator.mjs), and `lpm` run
// as a child process exactly as a user runs it, with its output and exit code.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO, startEmulator } from '../../tests/js/emulator.mjs';

export { DEMO };
export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/lpm.js');
export const TOKEN = DEMO.adminToken;

/** A fresh temporary directory. */
export const tempDir = () => mkdtempSync(path.join(tmpdir(), 'lpm-cli-'));

/** An emulator (empty unless `seed`), with `records()` (state?records=1) and `reset()`. */
export async function emulator(args = []) {
  // Idle keep-alive connections kept for long: the control calls around a long CLI run would
  // otherwise reuse a connection the emulator closed (EPIPE).
  const emu = await startEmulator(['--header-timeout-ms', '600000', ...args]);
  return {
    ...emu,
    state: () => emu.control('GET', 'state?records=1'),
    reset: (seed = 'demo') => emu.control('POST', 'reset', { seed }),
  };
}

/**
 * Runs `lpm ...args`; resolves { code, signal, stdout, stderr }. `env` is added to a clean
 * environment (HOME and XDG_CONFIG_HOME in a temporary directory unless given), `input` is
 * written to its standard input, `onStdout/onStderr(text, child)` see output as it comes.
 */
export function lpm(args, { env = {}, input, onStderr, onStdout, timeoutMs = 120_000 } = {}) {
  const home = env.HOME ?? tempDir();
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; onStdout?.(d, child); });
  child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; onStderr?.(d, child); });
  child.stdin.on('error', () => {});
  child.stdin.end(input ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return Object.assign(new Promise((resolve) => {
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stdout, stderr }); });
  }), { child });
}

/** A sheet: header line and rows joined with `sep`, lines with CRLF (as Excel writes). */
export function sheet(header, rows, { sep = ',', bom = false } = {}) {
  const text = [header, ...rows].map((r) => r.join(sep)).join('\r\n') + '\r\n';
  return (bom ? '\uFEFF' : '') + text;
}

/** `n` good rows (English headers), unique e-mails and usernames from `prefix`. */
export function goodRows(n, prefix = 'student') {
  return Array.from({ length: n }, (_, i) => [`Học Viên ${i}`, `${prefix}${i}`, `${prefix}${i}@school.test`, `pass-${i}-word`]);
}
