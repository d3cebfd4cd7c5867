// Preloaded with `node --import`: writes the process's peak RSS (KiB) and its CPU time (user +
// system, µs) to $LPM_BENCH_RSS at exit.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const u = process.resourceUsage();
  writeFileSync(process.env.LPM_BENCH_RSS, `${u.maxRSS} ${u.userCPUTime + u.systemCPUTime}`);
});
