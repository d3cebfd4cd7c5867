// What a call tells its observers: the hooks (the client's, then the call's) and the logger.
// Neither can break a call: what they throw is logged or ignored.
import type { Hooks, Logger, RequestEvent } from './wasm/lpm_client.js';
import type { Cfg } from './internal.js';
import { message } from './untrusted.js';

/**
 * Tells the hooks (the client's, then the call's) and the logger. A hook that throws or rejects
 * does not break the call: the error is ignored and logged at `error` (redacted).
 */
export function emit(cfg: Cfg, options: Hooks | undefined, name: keyof Hooks, event: RequestEvent & Record<string, unknown>, redact: (text: unknown) => string): void {
  for (const fn of [cfg.hooks[name], options && options[name]] as (((event: RequestEvent) => unknown) | undefined)[]) {
    if (typeof fn !== 'function') continue;
    const failed = (e: unknown) => {
      let line = `lpm-client: the ${name} hook failed (ignored)`;
      try {
        line = redact(`${line}: ${message(e)}`);
      } catch {
        // The call has ended (its redaction is freed): the line goes without the hook's message.
      }
      log(cfg, 'error', line);
    };
    try {
      const r = fn({ ...event, headers: { ...event.headers } }) as PromiseLike<unknown> | undefined;
      if (r && typeof r.then === 'function') r.then(undefined, failed);
    } catch (e) {
      failed(e);
    }
  }
}

export function log(cfg: Cfg, level: 'debug' | 'info' | 'warn' | 'error', line: string): void {
  const logger = cfg.logger;
  const fn = logger && logger[level];
  if (typeof fn === 'function') {
    try {
      fn.call(logger, line);
    } catch {
      // A logger that throws is ignored: it cannot be told.
    }
  }
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** The logger a client without a `logger` option uses: none, unless the environment's `LPM_LOG`
 * names a level (`debug`, `info`, `warn`, `error`), from which on lines go to the console.
 * Decision: read where the runtime has `process.env` (Node, Bun, Deno's compatibility); a
 * browser or a Worker sets the `logger` option instead. */
export function envLogger(): Logger | undefined {
  let level: unknown;
  try {
    level = (globalThis as { process?: { env?: Record<string, unknown> } }).process?.env?.LPM_LOG;
  } catch {
    return undefined; // Deno without --allow-env throws: no level.
  }
  const from = LEVELS.indexOf(String(level).toLowerCase() as (typeof LEVELS)[number]);
  if (from < 0) return undefined;
  const logger: Logger = {};
  for (const l of LEVELS.slice(from)) logger[l] = (line: string) => console[l](line);
  return logger;
}
