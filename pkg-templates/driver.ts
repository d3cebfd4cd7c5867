// The driver: it performs what the core asks of a planned call (an attempt, a wait, the end)
// and nothing else; every decision (retries, the create interval, checking the answer) is the
// core's. `drive` reads as the call's states; `Call` holds what one call needs between them.
import type { Pending, Step } from './core.js';
import type { CallOptions, CreateOptions, RequestEvent } from './wasm/lpm_client.js';
import { fromThrown, internalError } from './errors.js';
import type { Answer, AnswerMode, Cfg, FetchFn } from './internal.js';
import { HOOKS, core, driverOptions } from './options.js';
import { emit, log } from './hooks.js';
import { cleanCause, message, prop } from './untrusted.js';
import { lastSent, seen, storeError } from './stores.js';
import { MAX_TIMER_MS, PLATFORM_FETCH, attempt, headerObject } from './transport.js';
import type { Failed, Failure } from './transport.js';

/** The caller's abort reason is kept as it is (callers compare it), unless it shows the token. */
function scrubReason(pending: Pending, reason: unknown, hasToken: boolean): unknown {
  if (!hasToken) return reason;
  const shows = (v: unknown) => typeof v === 'string' && pending.redact(v) !== v;
  // A reason whose reads throw cannot be shown not to leak: it is replaced too.
  const at = (key: string) => { const v = prop(reason, key, shows); return v === shows || shows(v); };
  const leaks = shows(reason) || (reason != null && (at('message') || at('stack')));
  return leaks ? cleanCause(pending, reason, hasToken) : reason;
}

function hostError(pending: Pending, kind: Failure, cause: unknown, hasToken: boolean): unknown {
  const clean = kind === 'abort' ? scrubReason(pending, cause, hasToken) : cleanCause(pending, cause, hasToken);
  return fromThrown(pending.failure(kind), clean);
}

/** Waits `ms`, or rejects with the abort reason's error when `signal` fires. */
export function pause(ms: number, signal: AbortSignal | undefined, onAbort: () => unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) return reject(onAbort());
    const abort = () => { clearTimeout(timer); reject(onAbort()); };
    const timer = setTimeout(() => { if (signal) signal.removeEventListener('abort', abort); resolve(); }, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    if (signal) signal.addEventListener('abort', abort, { once: true });
  });
}

/** The reply: the checked body as received, parsed by JSON.parse, plus the derived fields. */
function reply(pending: Pending, answer: Answer): unknown {
  const [text, derived] = core(() => pending.decode(answer.status, answer.body));
  // The core checked the text, so only the engine's limits can fail here (a string over 512 MB
  // with the bound off).
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw internalError(e);
  }
  return derived === undefined ? value : Object.assign(value, JSON.parse(derived));
}

/** `raw` of `run`: resolve the final answer `{status, body}` unchecked (a bulk job checks it). */
export const ANSWER: AnswerMode = 'answer';

/** Drives a planned call to its end, then frees it (not left to the garbage collector);
 * `raw`: resolve `{data, response}` (or with ANSWER the answer itself). */
export function run(cfg: Cfg, plan: () => Pending, options: CallOptions | undefined, raw: AnswerMode): Promise<Answer>;
export function run(cfg: Cfg, plan: () => Pending, options: CallOptions | undefined, raw: boolean): Promise<unknown>;
export async function run(cfg: Cfg, plan: () => Pending, options: CallOptions | undefined, raw: boolean | AnswerMode): Promise<unknown> {
  // What the driver reads of the call (`req`) came with it, in the same crossing.
  const pending = core(plan);
  try {
    return await drive(pending, cfg, options, raw);
  } finally {
    // After a trap the wasm side may refuse this too; the call's outcome stands.
    try { pending.free(); } catch { /* nothing to free */ }
  }
}

/** The steps a call takes without asking the core: it made the first poll at planning (send), or
 * an unguarded call's answer was final (finish, with nothing to record). */
const SEND_NOW: Step = { kind: 'send', record: false };
const FINISH_NOW: Step = { kind: 'finish', record: false };

async function drive(pending: Pending, cfg: Cfg, options: (CallOptions & CreateOptions) | undefined, raw: boolean | AnswerMode): Promise<unknown> {
  const call = new Call(pending, cfg, options);
  let known: Step | undefined = pending.req.polled ? SEND_NOW : undefined;
  try {
    for (;;) {
      call.checkSendable();
      const next = known ?? (await call.poll());
      known = undefined;
      switch (next.kind) {
        case 'finish': return call.finish(raw);
        case 'wait': await call.wait(next.ms); break;
        case 'send': known = await call.send(); break;
      }
    }
  } catch (error) {
    call.failed(error);
    throw error;
  }
}

/** One call's settings and what it has seen so far (its answer or failure, its attempts). */
class Call {
  readonly signal: AbortSignal | undefined;
  readonly fetchFn: FetchFn | undefined;
  readonly hasToken: boolean;
  readonly headers: Record<string, string>;
  /** Whether a hook or the logger looks: events are made only then. */
  readonly watched: boolean;
  /** What hooks and the logger see of the request. */
  readonly view: Omit<RequestEvent, 'attempt'>;
  readonly key: string | undefined;
  answer: Answer | undefined;
  failure: unknown;
  tries = 0;

  constructor(readonly pending: Pending, readonly cfg: Cfg, readonly options: (CallOptions & CreateOptions) | undefined) {
    const req = pending.req;
    const call = driverOptions(options, false);
    this.signal = options && options.signal;
    this.fetchFn = cfg.fetch ?? (globalThis.fetch as FetchFn | undefined);
    this.hasToken = req.hasToken;
    // Decision: no Accept header of our own (fetch's `*/*` goes): the platform answers JSON
    // whatever a request accepts. The caller's headers and Content-Type for a body are all.
    this.headers = { ...cfg.headers, ...call.headers };
    if (req.body != null) this.headers['content-type'] = 'application/json';
    this.watched = !!cfg.logger || HOOKS.some((h) => typeof cfg.hooks[h] === 'function' || typeof (options && options[h]) === 'function');
    // The URL with the token redacted (the fetch gets the real one), only when someone looks.
    this.view = { method: req.method, url: this.watched ? this.redact(req.url) : '', endpoint: req.endpoint, headers: this.headers };
    this.key = req.guardKey;
  }

  redact = (text: unknown): string => (this.hasToken ? this.pending.redact(String(text)) : String(text));

  hostError(kind: Failure, cause: unknown): unknown {
    return hostError(this.pending, kind, cause, this.hasToken);
  }

  line(text: string): string {
    return `lpm-client: ${this.view.method} ${this.view.url} ${text}`;
  }

  /** The two ways a call fails before sending anything (such a create is not recorded). */
  checkSendable(): void {
    if (this.signal && this.signal.aborted) throw this.hostError('abort', this.signal.reason);
    if (typeof this.fetchFn !== 'function') throw this.hostError('network', new TypeError('no fetch function is available'));
  }

  /** Asks the core, and notes the send or end it allows under the guard key. A store that fails
   * here fails the call unsent: the rule could not be checked beyond this realm. */
  async poll(): Promise<Step> {
    let last: number | Promise<number>;
    try {
      last = this.key === undefined ? Number.NaN : lastSent(this.cfg.store, this.key);
      if (typeof last !== 'number') last = await last;
    } catch (e) {
      throw storeError('get', e, this.redact);
    }
    const now = Date.now();
    const next = core(() => this.pending.poll(now, last as number));
    if (next.kind !== 'wait' && next.record) await this.record(now, next.kind === 'send');
    return next;
  }

  /** Notes `now` as the guard key's last send, here at once (in the turn the core allowed it, so
   * another call of this realm sees it) and then in the store. A store that fails before a send
   * fails the call unsent (and it does not count here either); after the answer it is only
   * logged: the reply is not lost. */
  async record(now: number, sending: boolean): Promise<void> {
    const key = this.key!;
    const prev = seen.get(key);
    seen.set(key, now);
    try {
      if (this.cfg.store) await this.cfg.store.set(key, now);
    } catch (e) {
      if (!sending) return log(this.cfg, 'error', storeError('set', e, this.redact).message);
      if (prev === undefined) seen.delete(key);
      else seen.set(key, prev);
      throw storeError('set', e, this.redact);
    }
  }

  wait(ms: number): Promise<void> {
    return pause(ms, this.signal, () => this.hostError('abort', this.signal!.reason));
  }

  /** The end: the failure thrown, or the answer checked and resolved as the caller asked. */
  finish(raw: boolean | AnswerMode): unknown {
    if (this.failure) throw this.failure;
    const answer = this.answer!;
    if (raw === ANSWER) return answer;
    const data = reply(this.pending, answer);
    return raw ? { data, response: { status: answer.status, headers: headerObject(answer.headers, this.redact) } } : data;
  }

  /** One attempt, its outcome handed to the core: the step it implies without a poll, if any. */
  async send(): Promise<Step | undefined> {
    const tries = ++this.tries;
    if (this.watched) emit(this.cfg, this.options, 'onRequest', { ...this.view, attempt: tries }, this.redact);
    const started = Date.now();
    let answer: Answer;
    try {
      answer = await attempt(this.fetchFn!, this.pending, this.signal, this.headers, this.fetchFn === PLATFORM_FETCH);
    } catch (thrown) {
      const f = thrown as Failed;
      const durationMs = Date.now() - started;
      log(this.cfg, 'debug', this.line(`attempt ${tries}: ${f.failure} after ${durationMs} ms`));
      if (f.failure === 'abort' || f.failure === 'tooLarge') {
        // A guarded create given up counts its interval from now: the platform may have
        // handled it until then. (A store that fails here leaves the send's time.)
        if (this.key !== undefined) {
          this.pending.giveUp(Date.now());
          await this.poll().catch(() => undefined);
        }
        throw this.hostError(f.failure, f.cause);
      }
      const timedOut = f.failure === 'timeout';
      const delayMs = this.pending.handleFailure(Date.now(), timedOut, Math.random());
      if (delayMs !== null) return this.retrying({ ...this.view, attempt: tries, failure: f.failure, durationMs }, delayMs);
      // Final: the next poll finishes (recording a guarded call's end), then this is thrown.
      this.failure = this.hostError(timedOut ? 'timeout' : 'network', f.cause);
      return this.key === undefined ? FINISH_NOW : undefined;
    }
    this.answer = answer;
    const durationMs = Date.now() - started;
    if (this.watched) {
      log(this.cfg, 'debug', this.line(`attempt ${tries}: ${answer.status} in ${durationMs} ms`));
      emit(this.cfg, this.options, 'onResponse', { ...this.view, attempt: tries, status: answer.status, durationMs }, this.redact);
    }
    const delayMs = this.pending.handleResponse(Date.now(), answer.status, answer.retryAfterMs, Math.random());
    if (delayMs !== null) return this.retrying({ ...this.view, attempt: tries, status: answer.status, durationMs }, delayMs);
    return this.key === undefined ? FINISH_NOW : undefined;
  }

  retrying(event: RequestEvent & { status?: number; failure?: string; durationMs: number }, delayMs: number): undefined {
    emit(this.cfg, this.options, 'onRetry', { ...event, delayMs }, this.redact);
    log(this.cfg, 'warn', this.line(`attempt ${event.attempt}: ${event.status ?? event.failure}; retrying in ${Math.round(delayMs)} ms`));
    return undefined;
  }

  failed(error: unknown): void {
    emit(this.cfg, this.options, 'onError', { ...this.view, attempt: this.tries, error }, this.redact);
    log(this.cfg, 'warn', this.line(`failed: ${this.redact(message(error))}`));
  }
}
