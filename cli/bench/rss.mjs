// Preloaded with `node --import`: writes the process's peak RSS (KiB) and its CPU time (user +
// system, µs) to $LPM_BENCH_RSS at exit. The peak is Linux's VmHWM, this program's own: the
// getrusage figure (`maxRSS`) keeps the high-water mark from before exec, so a child spawned by a
// larger process (the benchmark, holding its 100,000 rows) reported that process's RSS instead.
// Elsewhere, `maxRSS`.
import { readFileSync, writeFileSync } from 'node:fs';

function peakKiB() {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // Not Linux.
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => {
  const u = process.resourceUsage();
  writeFileSync(process.env.LPM_BENCH_RSS, `${peakKiB()} ${u.userCPUTime + u.systemCPUTime}`);
});
