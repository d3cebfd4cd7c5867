// A process's own peak resident memory, for the benchmarks and memory-bound tests that measure a
// child. Linux's VmHWM is the program's own since exec; getrusage's `maxRSS` keeps the high-water
// mark of the process that forked it, so a child spawned by a large parent reports the parent's.
// Elsewhere (no /proc), `maxRSS` is all there is.
import { readFileSync } from 'node:fs';

/** This process's peak RSS in KiB. */
export function peakKiB() {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // Not Linux.
  }
  return process.resourceUsage().maxRSS;
}
