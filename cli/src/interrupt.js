// Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal closed) stop a job cleanly: the first aborts its signal (the job stops,
// its journal already holds everything sent; the command writes its report and exits 130); a
// second one exits at once (the journal is flushed before each send, so it still resumes).
import { EXIT } from './exit.js';

/** `what` (text, or a function asked at the signal) says what a stop keeps (an export has no
 * journal: it keeps nothing; a sync, nothing before its plan is written). */
export function interruptible(io, what = 'the journal resumes the job') {
  const controller = new AbortController();
  const onSignal = (signal) => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    io.stderr.write(`\n${signal}: stopping (${typeof what === 'function' ? what() : what}; again to quit at once)\n`);
    controller.abort(new Error(`interrupted by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  return {
    signal: controller.signal,
    done() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onSignal);
    },
  };
}
