// What the CLI's tests share: an emulator on a free port (tests/js/emulator.mjs), and `lpm` run
// as a child process exactly as a user runs it, with its output and exit code.
import { spawn } from 'node:child_process';
import { after, before } from 'node:test';
import { parse } from 'csv-parse/sync';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
 * An emulator for the tests of one file: started before them, stopped after. Returns an object
 * whose `emu` and `env` (LPM_BASE_URL and LPM_TOKEN for `lpm`) are set once it runs.
 */
export function emulatorForTests(args) {
  const ctx = {};
  before(async () => {
    ctx.emu = await emulator(args);
    ctx.env = { LPM_BASE_URL: ctx.emu.url, LPM_TOKEN: TOKEN };
  });
  after(async () => { await ctx.emu?.stop(); });
  return ctx;
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

/** A journal's events (a torn last line, from a kill mid-write, left out). */
export function journalEvents(file) {
  if (!existsSync(file)) return [];
  const out = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    try { out.push(JSON.parse(line)); } catch { /* torn or empty */ }
  }
  return out;
}

/** How many rows have an outcome in `events` (each chunk's `chunkOutcomes`). */
export function outcomeRows(events) {
  let n = 0;
  for (const e of events) {
    if (e.event === 'chunkOutcomes') n += e.rows.length;
  }
  return n;
}

/**
 * Runs `lpm base...` (with --resume once `journal` holds events) and kills it with SIGKILL when
 * `point.when(fresh, ms, seen)` says so: `fresh` the events this run appended, `ms` its age,
 * `seen` when each kind of event first appeared. With `point.tear`, half of the last line is
 * then cut, as a kill in the middle of that write leaves it. Resolves { r, at }: the run's
 * result, and the number of whole events on disk at the kill (null: it ended by itself).
 */
export async function killedRun(base, journal, env, point) {
  const first = journalEvents(journal).length;
  const started = Date.now();
  const seen = {};
  let at = null;
  const run = lpm(first ? [...base, '--resume'] : base, { env });
  const timer = setInterval(() => {
    if (at !== null) return;
    const fresh = journalEvents(journal).slice(first);
    const ms = Date.now() - started;
    for (const e of fresh) seen[e.event] ??= ms;
    if (point.when(fresh, ms, seen)) {
      run.child.kill('SIGKILL');
      at = first + fresh.length;
    }
  }, 2);
  const r = await run;
  clearInterval(timer);
  if (r.signal !== 'SIGKILL') return { r, at: null };
  if (point.tear) {
    const text = readFileSync(journal, 'utf8');
    const from = text.lastIndexOf('\n', text.length - 2) + 1;
    writeFileSync(journal, text.slice(0, from + Math.floor((text.length - from) / 2)));
    at -= 1;
  }
  return { r, at };
}

/**
 * `killedRun` at each of `points` in turn (each with its emulator fault installed, if any); a
 * run that ends by itself must exit with one of `codes`. Resolves with the kills: { point,
 * events (whole events on disk), last (the last event's kind) }. Leaves no fault installed.
 */
export async function killAtEach(emu, { base, journal, env, points, codes }) {
  const kills = [];
  for (const point of points) {
    await emu.control('DELETE', 'faults');
    if (point.fault) await emu.control('POST', 'faults', point.fault);
    const { r, at } = await killedRun(base, journal, env, point);
    if (at === null) {
      if (!codes.includes(r.code)) throw new Error(`${point.name}: exit ${r.code} ${r.stderr}`);
      continue;
    }
    kills.push({ point: point.name, events: at, last: journalEvents(journal).at(-1)?.event });
  }
  await emu.control('DELETE', 'faults');
  return kills;
}

/** A CSV report's lines as objects by header. */
export const readReport = (file) => parse(readFileSync(file), { bom: true, columns: true });
