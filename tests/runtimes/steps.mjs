// What the package's matrix checks (tests/runtimes, tests/frameworks) share: a step per runtime or
// tool, printed as one line with its time, counted for the closing "N passed, N failed"; and a
// bounded child process.
import { spawn } from 'node:child_process';
import path from 'node:path';

/** Steps counted for `summary()`; `only` (name prefixes), when not empty, skips the others. */
export function steps({ only = [] } = {}) {
  let passed = 0;
  let failed = 0;
  const seconds = (t0) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
  return {
    async step(name, fn) {
      if (only.length && !only.some((o) => name.startsWith(o))) return;
      const t0 = performance.now();
      try {
        const note = await fn();
        passed += 1;
        console.log(`ok   ${name}${note ? `: ${note}` : ''} (${seconds(t0)})`);
      } catch (e) {
        failed += 1;
        console.log(`FAIL ${name} (${seconds(t0)}): ${String((e && e.message) || e).split('\n').slice(0, 14).join('\n     ')}`);
      }
    },
    /** A failure outside any step (the harness's own). */
    fail(message) {
      failed += 1;
      console.log(`FAIL harness: ${message}`);
    },
    /** Prints "N passed, N failed" and exits, 1 on any failure or when nothing ran. */
    summary() {
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(failed === 0 && passed > 0 ? 0 : 1);
    },
  };
}

/** Runs a command to completion (bounded); resolves with its stdout (`both`: stdout and stderr),
 * rejects with its stderr (or stdout) in the message. */
export function run(cmd, args, { cwd, env = {}, timeoutMs = 60_000, both = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { if (both) out += d; else err += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${path.basename(cmd)} ${args.join(' ')} exited with ${signal || code}\n${(err || out).trim().slice(-2500)}`));
    });
  });
}
