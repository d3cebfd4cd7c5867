// Preloaded with `node --import`: writes the process's peak RSS (KiB) to $LPM_BENCH_RSS at exit.
import { writeFileSync } from 'node:fs';

process.on('exit', () => writeFileSync(process.env.LPM_BENCH_RSS, String(process.resourceUsage().maxRSS)));
