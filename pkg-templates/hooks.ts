// What a call tells its observers: the hooks (the client's, then the call's) and the logger.
// Neither can break a call: what they throw is logged or ignored.
import type { Hooks, RequestEvent } from './wasm/lpm_client.js';
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
