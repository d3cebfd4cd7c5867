// Preloaded with `node --import`: writes the process's peak RSS (KiB, its own: see
// tests/peak-rss.mjs) and its CPU time (user + system, µs) to $LPM_BENCH_RSS at exit.
import { writeFileSync } from 'node:fs';
import { peakKiB } from '../../tests/peak-rss.mjs';

process.on('exit', () => {
  const u = process.resourceUsage();
  writeFileSync(process.env.LPM_BENCH_RSS, `${peakKiB()} ${u.userCPUTime + u.systemCPUTime}`);
});
