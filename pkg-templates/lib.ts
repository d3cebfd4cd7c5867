// What every entry point shares: the `Client` (a thin driver over the wasm `Core`, which plans,
// decides retries and the create interval, and checks every answer), the validators with their
// Standard Schema adapters, and the error classes. The driver only performs what the core asks:
// one fetch attempt bounded by a timeout and the caller's AbortSignal, a wait, or the end.
import * as wasm from './abi.js';
import type { Pending } from './abi.js';
import type {
  AddCoursesInput, AddCoursesReply, CallMethod, CallOptions, ClientOptions, Course, CourseList,
  CourseReply, CreateOptions, CreateUsersReply, GrantOptions, GrantReport, Hooks, ImportOptions,
  ImportReport, IntervalStore, Issue, LoginReply, NewUser, PageParams, Progress, RawReply,
  RequestEvent, RowIssues, SearchUserParams, User, UserList, UserReply, ValidateOptions,
} from './wasm/lpm_client.js';
import { fromThrown, internalError, makeError } from './errors.js';
import type { LpmError } from './errors.js';
import type { JournalStore } from './journal.js';
import type { Answer, AnswerMode, Cfg, FetchFn, FetchResponse, Machinery } from './internal.js';

export type * from './wasm/lpm_client.js';
export type { ErrorKind } from './errors.js';
export type { JournalStore } from './journal.js';

export { memoryJournal, indexedDbJournal } from './journal.js';
/** @internal The entries' way to hand lib.js the wasm's instance (abi.ts). */
export { start as default } from './abi.js';

// The bulk driver: in lpm-client-bulk, with the engines (they cost the wasm ~23 KB gzip, more
// than a form or dashboard page should load); in lpm-client a stub (bulk-lean.ts, bundled in its place): `bulk` is `undefined`.
// A static import, so that bundlers see one module graph in both packages.
import { bulk } from './bulk.js';

export {
  LpmError, ValidationError, ApiError, HttpError, DecodeError, NetworkError, TimeoutError,
  AbortError, IntervalError, ConfigError, ResponseTooLargeError,
} from './errors.js';

/** The largest page the list endpoints accept. */
const PAGE = 100;
/** `Pending.poll` answers besides a wait in ms. */
const SEND = -1;
const FINISH = -2;
/** Added to SEND or FINISH: record the time under the call's guard key. */
const RECORD = -2;
// setTimeout treats anything above 2^31-1 ms (~24.8 days) as 1 ms; longer waits are cut to that
// and polled again.
const MAX_TIMER_MS = 2147483647;
/** The runtime's fetch, as it was when this module loaded (see `attempt`). */
const PLATFORM_FETCH = globalThis.fetch;

/**
 * A caller's value as the JSON text the core reads (`undefined` is `null`), or `undefined` when
 * it has none: a cycle, a BigInt, or a non-finite number (JSON.stringify would silently write
 * NaN and Infinity as null, which reads as "absent"; the core then reports `not_json`).
 */
function toJson(value: unknown): string | undefined {
  if (value === undefined) return 'null';
  try {
    const text = JSON.stringify(value);
    // Only a text with `null` in it can hide a NaN or an infinity: check those again, slowly.
    if (text === undefined || !text.includes('null')) return text;
    return JSON.stringify(value, (_key, v) => {
      if (typeof v === 'number' && !Number.isFinite(v)) throw new RangeError('non-finite number');
      return v;
    });
  } catch {
    return undefined;
  }
}

/** The names an options object answers to: its own and, for the options object itself, those of
 * its prototypes (a class's getters), as the core's reads of `options[name]` would find them. */
function names(value: object, deep: boolean): Iterable<string> {
  if (!deep) return Object.keys(value);
  const all = new Set<string>();
  for (let o: object | null = value; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const k of Object.getOwnPropertyNames(o)) all.add(k);
  }
  return all;
}

/** The value read as options (a member's value; depth 0: an object here is `{}`). */
function plain(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'function': return FUNCTION;
    case 'number': return Number.isFinite(value) ? value : null;
    case 'bigint': case 'symbol': return String(value);
    case 'object': {
      if (value === null) return null;
      const out: Record<string, unknown> = {};
      if (depth > 0) {
        for (const k of names(value, depth > 1)) {
          let v;
          try { v = (value as Record<string, unknown>)[k]; } catch { continue; }
          if (v !== undefined) out[k] = plain(v, depth - 1);
        }
      }
      return out;
    }
    default: return value;
  }
}
/** What `plain` writes for a function (the core checks `fetch` is one). */
const FUNCTION = '\u0000function';

/**
 * An options object as the JSON text the core reads: two levels deep (`createInterval.guard`),
 * deeper objects as `{}` (stores, loggers, signals and headers are the driver's, and may be
 * cyclic), functions as a marker, NaN and the infinities as `null` (which the core refuses where
 * a number is due); `undefined` is `null`.
 */
function optionsJson(options: unknown): string {
  return options === undefined ? 'null' : JSON.stringify(plain(options, 2));
}

/** Runs `fn`, turning what the core throws into the package's error classes. */
function core<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw fromThrown(e);
  }
}

function parseRetryAfter(value: string | null): number {
  if (value == null || value === '') return -1;
  const secs = Number(value);
  if (!Number.isNaN(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : -1;
}

/**
 * A copy of a host error (fetch, a custom fetch, a proxy) that cannot carry the token: only its
 * `name`, redacted `message` and string `code` (`ECONNREFUSED`), and its own `cause` copied the
 * same way. Other properties (`url`, `config`, `request` of some HTTP libraries) may hold the URL
 * with the token, so they are never attached. Without a token the original is kept as is.
 */
function cleanCause(pending: Pending, cause: unknown, hasToken: boolean, depth = 3): unknown {
  if (!hasToken || cause == null) return cause;
  if (typeof cause === 'string') return pending.redact(cause);
  const host = cause as { message?: unknown; name?: unknown; code?: unknown; cause?: unknown };
  const text = (v: unknown) => (typeof v === 'string' ? pending.redact(v) : undefined);
  const clean: Error & { code?: string } = new Error(text(host.message) ?? 'host error');
  const name = text(host.name);
  if (name !== undefined) clean.name = name;
  const code = text(host.code);
  if (code !== undefined) clean.code = code;
  if (depth > 1 && host.cause !== undefined) clean.cause = cleanCause(pending, host.cause, hasToken, depth - 1);
  return clean;
}

/** The caller's abort reason is kept as it is (callers compare it), unless it shows the token. */
function scrubReason(pending: Pending, reason: unknown, hasToken: boolean): unknown {
  if (!hasToken) return reason;
  const shows = (v: unknown) => typeof v === 'string' && pending.redact(v) !== v;
  const leaks = shows(reason) || (reason != null && (shows((reason as Error).message) || shows((reason as Error).stack)));
  return leaks ? cleanCause(pending, reason, hasToken) : reason;
}

function hostError(pending: Pending, kind: Failure, cause: unknown, hasToken: boolean): unknown {
  const clean = kind === 'abort' ? scrubReason(pending, cause, hasToken) : cleanCause(pending, cause, hasToken);
  return fromThrown(pending.failure(kind), clean);
}

/** Waits `ms`, or rejects with the abort reason's error when `signal` fires. */
function pause(ms: number, signal: AbortSignal | undefined, onAbort: () => unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) return reject(onAbort());
    const abort = () => { clearTimeout(timer); reject(onAbort()); };
    const timer = setTimeout(() => { if (signal) signal.removeEventListener('abort', abort); resolve(); }, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    if (signal) signal.addEventListener('abort', abort, { once: true });
  });
}

function configError(option: string, expected: string): LpmError {
  return makeError('config', `option \`${option}\` must be ${expected}`, { problem: 'option', option, expected });
}

/** Header options as lower-case names to string values (`undefined` when absent). */
function headerMap(value: unknown, option: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw configError(option, 'an object of header names to string values');
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw configError(option, 'an object of header names to string values');
    out[name.toLowerCase()] = v;
  }
  return out;
}

const HOOKS = ['onRequest', 'onResponse', 'onRetry', 'onError'] as const;

/** Checks the driver's own options (hooks, logger, headers, store) of the client or of a call. */
function driverOptions(given: unknown, client: boolean): { headers?: Record<string, string> | undefined; store?: IntervalStore | undefined } {
  if (given == null || typeof given !== 'object') return {};
  const o = given as Record<string, unknown> & { intervalStore?: Partial<IntervalStore> | null };
  for (const h of HOOKS) if (o[h] !== undefined && typeof o[h] !== 'function') throw configError(h, 'a function');
  if (client && o.logger !== undefined && (o.logger === null || typeof o.logger !== 'object')) throw configError('logger', 'an object with debug/info/warn/error functions (console fits)');
  const store = client ? o.intervalStore : undefined;
  if (store !== undefined && (store === null || typeof store.get !== 'function' || typeof store.set !== 'function')) throw configError('intervalStore', 'an object with get(key) and set(key, atMs)');
  return { headers: headerMap(o.headers, 'headers'), store: store as IntervalStore | undefined };
}

/**
 * Tells the hooks (the client's, then the call's) and the logger. A hook that throws or rejects
 * does not break the call: the error is ignored and logged at `error` (redacted).
 */
function emit(cfg: Cfg, options: Hooks | undefined, name: keyof Hooks, event: RequestEvent & Record<string, unknown>, redact: (text: unknown) => string): void {
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

function log(cfg: Cfg, level: 'debug' | 'info' | 'warn' | 'error', line: string): void {
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

/** An error's message, or the thrown value itself. */
const message = (e: unknown): unknown => (e && (e as Error).message !== undefined ? (e as Error).message : e);

const isThenable = (v: unknown): v is PromiseLike<unknown> => !!v && typeof (v as PromiseLike<unknown>).then === 'function';

/** When each guard key last sent, as this realm knows it: the default store, and the floor of any
 * other (a second call in this realm sees the first before an asynchronous store has written). */
const seen = new Map<string, number>();

/** The later of two times, NaN standing for none. */
const later = (a: number, b: number): number => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b));
const time = (v: unknown): number => (typeof v === 'number' ? v : Number.NaN);

/** When `key` last sent: the later of this realm's record and the store's (NaN: never). A store
 * answering synchronously is not awaited, so two calls in this realm cannot both pass the guard. */
function lastSent(store: IntervalStore | undefined, key: string): number | Promise<number> {
  const v = store ? store.get(key) : undefined;
  const floor = () => time(seen.get(key));
  return isThenable(v) ? v.then((t) => later(time(t), floor())) as Promise<number> : later(time(v), floor());
}

/** A store that threw or rejected: a ConfigError naming it, the store's error as its cause. */
function storeError(op: string, e: unknown, redact: (text: unknown) => string): LpmError {
  const detail = redact(message(e));
  return makeError('config', `intervalStore.${op} failed: ${detail}`, { problem: 'option', option: 'intervalStore', expected: 'a store whose get and set work' }, e);
}

/** A store over Web Storage (`localStorage`, `sessionStorage`, or anything with getItem/setItem). */
export function webStorageStore(
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void },
  prefix = 'lpm-client:',
): IntervalStore {
  if (!storage || typeof storage.getItem !== 'function' || typeof storage.setItem !== 'function') throw configError('storage', 'a Web Storage (localStorage or sessionStorage)');
  return {
    get(key: string) {
      const v = storage.getItem(prefix + key);
      return v == null ? undefined : Number(v);
    },
    set(key: string, atMs: number) {
      storage.setItem(prefix + key, String(atMs));
    },
  };
}

/** An interval store in a JSON file (Node, Deno, Bun; other runtimes throw ConfigError): a
 * restarted script keeps the intervals. */
export function fileStore(path: string): IntervalStore {
  throw configError('intervalStore', 'a store this runtime supports: fileStore needs the package\'s `node` entry (Node, Deno, Bun)');
}

/** A journal in a file of JSON lines, appended and fsync'ed before each send (Node, Deno, Bun;
 * other runtimes throw ConfigError). A torn last line (a process killed mid-write) is ignored. */
export function fileJournal(path: string): JournalStore {
  throw configError('journal', 'a journal this runtime supports: fileJournal needs the package\'s `node` entry (Node, Deno, Bun)');
}

/** The response's headers as a plain object (lower-case names), the token redacted from values. */
function headerObject(headers: FetchResponse['headers'], redact: (text: unknown) => string): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers && typeof headers.forEach === 'function') headers.forEach((v, k) => { out[k.toLowerCase()] = redact(v); });
  return out;
}

/** Thrown by `readBody` when the body is larger than allowed. */
const TOO_LARGE = Symbol('too large');

/** Why an attempt failed (`attempt` rejects with it). */
type Failure = 'abort' | 'timeout' | 'network' | 'tooLarge';
interface Failed {
  failure: Failure;
  cause?: unknown;
}

/**
 * The body's bytes; throws `TOO_LARGE` as soon as more than `max` bytes (0: no bound) are
 * announced by Content-Length or read, and stops reading there. A body stream is read chunk by
 * chunk; a response without one (a custom fetch) falls back to `arrayBuffer()`. When `length`
 * is the body's own size (`exact`), the last chunk ends the read: the stream's end, which comes
 * a turn of the host's loop later (~50 µs on loopback), is not waited for.
 */
async function readBody(res: FetchResponse, max: number, length: number, exact: boolean): Promise<Uint8Array> {
  const stream = res.body;
  if (max > 0 && length > max) {
    if (stream && typeof stream.cancel === 'function') stream.cancel().catch(() => {});
    throw TOO_LARGE;
  }
  if (!stream || typeof stream.getReader !== 'function') {
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (max > 0 && bytes.length > max) throw TOO_LARGE;
    return bytes;
  }
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (max > 0 && size > max) {
      reader.cancel().catch(() => {});
      throw TOO_LARGE;
    }
    chunks.push(value);
    if (exact && size === length) break;
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) { bytes.set(c, at); at += c.length; }
  return bytes;
}

/** A controller no attempt has used yet, for the next one (see `attempt`). */
let spare: AbortController | undefined;

/**
 * One attempt: the fetch, raced against the timeout and the caller's signal so that the call
 * settles whatever the fetch does with `init.signal`. Resolves `{status, body, retryAfterMs}`,
 * or rejects `{failure: 'abort' | 'timeout' | 'network' | 'tooLarge', cause}`. The fetch is
 * called first and the race set up after it (in the same turn: nothing can fire in between), so
 * that the request is on its way while the rest is done. `headers`: the call's, copied into the
 * request (none for the platform's fetch of a bare GET).
 */
function attempt(fetchFn: FetchFn, pending: Pending, signal: AbortSignal | undefined, headers: Record<string, string>, platform: boolean): Promise<Answer> {
  const req = pending.req;
  const ctrl = spare || new AbortController();
  // Decision: the runtime's own fetch (`platform`: the global one, as it was when this module
  // loaded) is given a bare GET as `{signal}` alone (a GET and no headers are its defaults):
  // undici's handling of a method and of an empty headers object is ~2% of a page's call on
  // loopback (bench/loopback.mjs). Every other call (a POST has its Content-Type), and any other
  // fetch (a custom one, a global replaced later: a test's mock, a wrapper), gets method and
  // headers, as FetchLike declares them.
  const init = (platform && !Object.keys(headers).length ? {} : { method: req.method, headers: { ...headers } }) as Parameters<FetchFn>[1];
  init.signal = ctrl.signal;
  if (req.body != null) init.body = req.body;
  // A fetch that throws rejects this instead (the executor runs now, in this turn).
  const sent = new Promise<FetchResponse>((ok) => ok(fetchFn(req.url, init)));
  // The next attempt's controller and its signal (which the host makes when first asked: ~15 µs
  // of a cold call, before its request could leave), made while this request is on its way.
  (spare = new AbortController()).signal;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = <T>(fn: (value: T) => void, value: T) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      if (signal) signal.removeEventListener('abort', onAbort);
      fn(value);
    };
    const onAbort = () => {
      ctrl.abort(signal!.reason);
      finish<Failed>(reject, { failure: 'abort', cause: signal!.reason });
    };
    const timeoutMs = req.timeoutMs;
    const timer = timeoutMs > 0
      ? setTimeout(() => {
          const cause = new Error(`no complete response within ${timeoutMs} ms`);
          cause.name = 'TimeoutError';
          ctrl.abort(cause);
          finish<Failed>(reject, { failure: 'timeout', cause });
        }, Math.min(timeoutMs, MAX_TIMER_MS))
      : undefined;
    // A signal that fired inside the fetch call (a fetch that aborts it) is seen here.
    if (signal) {
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    sent.then(async (res) => {
      const header = (name: string) => (res.headers && typeof res.headers.get === 'function' ? res.headers.get(name) : null);
      // Content-Length is the size of the bytes read only when it was sent and no
      // Content-Encoding was undone (which a cross-origin response hides; an opaque one has no
      // body to read). Absent, it is no length (not 0: an empty chunk would end the read).
      const length = header('content-length');
      const bytes = await readBody(res, req.maxResponseBytes, length === null ? Number.NaN : Number(length), length !== null && header('content-encoding') === null && res.type !== 'cors');
      return { status: res.status, body: bytes, retryAfterMs: parseRetryAfter(header('retry-after')), headers: res.headers };
    }).then(
      (answer) => finish(resolve, answer),
      (cause) => finish<Failed>(reject, cause === TOO_LARGE ? { failure: 'tooLarge' }
        : { failure: signal && signal.aborted ? 'abort' : 'network', cause: signal && signal.aborted ? signal.reason : cause }),
    );
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
const ANSWER: AnswerMode = 'answer';

/** Drives a planned call to its end, then frees it (not left to the garbage collector);
 * `raw`: resolve `{data, response}` (or with ANSWER the answer itself). */
function run(cfg: Cfg, plan: () => Pending, options: CallOptions | undefined, raw: AnswerMode): Promise<Answer>;
function run(cfg: Cfg, plan: () => Pending, options: CallOptions | undefined, raw: boolean): Promise<unknown>;
async function run(cfg: Cfg, plan: () => Pending, options: CallOptions | undefined, raw: boolean | AnswerMode): Promise<unknown> {
  // What the driver reads of the call (`req`) came with it, in the same crossing.
  const pending = core(plan);
  try {
    return await drive(pending, cfg, options, raw);
  } finally {
    // After a trap the wasm side may refuse this too; the call's outcome stands.
    try { pending.free(); } catch { /* nothing to free */ }
  }
}

async function drive(pending: Pending, cfg: Cfg, options: (CallOptions & CreateOptions) | undefined, raw: boolean | AnswerMode): Promise<unknown> {
  const call = driverOptions(options, false);
  const signal = options && options.signal;
  const fetchFn: FetchFn | undefined = cfg.fetch ?? (globalThis.fetch as FetchFn | undefined);
  const hasToken = pending.req.hasToken;
  const redact = (text: unknown) => (hasToken ? pending.redact(String(text)) : String(text));
  // Decision: no Accept header of our own (fetch's `*/*` goes): the platform answers JSON whatever
  // a request accepts, and undici's handling of one header is ~2% of a page's call on loopback
  // (bench/loopback.mjs). The caller's headers and Content-Type for a body are all that is set.
  const headers: Record<string, string> = { ...cfg.headers, ...call.headers };
  if (pending.req.body != null) headers['content-type'] = 'application/json';
  // What hooks and the logger see: the URL with the token redacted (the fetch gets the real one);
  // redacted only when someone looks (it is ~15 µs, a tenth of a small page's whole check).
  const watched = !!cfg.logger || HOOKS.some((h) => typeof cfg.hooks[h] === 'function' || typeof (options && options[h]) === 'function');
  const view = { method: pending.req.method, url: watched ? redact(pending.req.url) : '', endpoint: pending.req.endpoint, headers };
  const key = pending.req.guardKey;
  let answer: Answer | undefined;
  let failure: unknown;
  let tries = 0;
  // Polls that can only say one thing are not made: the first when the core made it at planning
  // (`polled`: it says send), and an unguarded call's after a final answer (it says finish, with
  // nothing to record).
  let known: number | undefined = pending.req.polled ? SEND : undefined;
  const retrying = (event: RequestEvent & { status?: number; failure?: string; durationMs: number }, delayMs: number) => {
    emit(cfg, options, 'onRetry', { ...event, delayMs }, redact);
    log(cfg, 'warn', line(`attempt ${event.attempt}: ${event.status ?? event.failure}; retrying in ${Math.round(delayMs)} ms`));
  };
  const line = (text: string) => `lpm-client: ${view.method} ${view.url} ${text}`;
  try {
    for (;;) {
      // The two ways an attempt fails before sending anything: such a create is not recorded.
      if (signal && signal.aborted) throw hostError(pending, 'abort', signal.reason, hasToken);
      if (typeof fetchFn !== 'function') throw hostError(pending, 'network', new TypeError('no fetch function is available'), hasToken);
      // A store that fails before sending fails the call unsent: the rule could not be checked
      // (or kept) beyond this realm. After the answer it is only logged: the reply is not lost.
      let last: number | Promise<number>;
      try {
        last = key === undefined ? Number.NaN : lastSent(cfg.store, key);
        if (typeof last !== 'number') last = await last;
      } catch (e) {
        throw storeError('get', e, redact);
      }
      const now = Date.now();
      let next = known ?? core(() => pending.poll(now, last));
      known = undefined;
      if (next === SEND + RECORD || next === FINISH + RECORD) {
        next -= RECORD;
        const prev = seen.get(key!);
        seen.set(key!, now);
        try {
          if (cfg.store) await cfg.store.set(key!, now);
        } catch (e) {
          if (next !== SEND) {
            log(cfg, 'error', storeError('set', e, redact).message);
          } else {
            // Not sent: it does not count in this realm either.
            if (prev === undefined) seen.delete(key!);
            else seen.set(key!, prev);
            throw storeError('set', e, redact);
          }
        }
      }
      if (next === FINISH) {
        if (failure) throw failure;
        if (raw === ANSWER) return answer;
        const data = reply(pending, answer!);
        return raw ? { data, response: { status: answer!.status, headers: headerObject(answer!.headers, redact) } } : data;
      }
      if (next !== SEND) {
        await pause(next, signal, () => hostError(pending, 'abort', signal!.reason, hasToken));
        continue;
      }
      tries += 1;
      // The attempt's event, made only where it is seen (a spread costs ~5 µs on a cold call's path).
      if (watched) emit(cfg, options, 'onRequest', { ...view, attempt: tries }, redact);
      const started = Date.now();
      try {
        answer = await attempt(fetchFn, pending, signal, headers, fetchFn === PLATFORM_FETCH);
      } catch (thrown) {
        const f = thrown as Failed;
        const durationMs = Date.now() - started;
        log(cfg, 'debug', line(`attempt ${tries}: ${f.failure} after ${durationMs} ms`));
        if (f.failure === 'abort' || f.failure === 'tooLarge') throw hostError(pending, f.failure, f.cause, hasToken);
        const timedOut = f.failure === 'timeout';
        const delayMs = pending.handleFailure(Date.now(), timedOut, Math.random());
        // Final: the next poll (an unguarded call's is not made) finishes, recording a guarded
        // call's end, then this is thrown.
        if (delayMs < 0) {
          failure = hostError(pending, timedOut ? 'timeout' : 'network', f.cause, hasToken);
          if (key === undefined) known = FINISH;
        } else retrying({ ...view, attempt: tries, failure: f.failure, durationMs }, delayMs);
        continue;
      }
      const durationMs = Date.now() - started;
      if (watched) {
        log(cfg, 'debug', line(`attempt ${tries}: ${answer.status} in ${durationMs} ms`));
        emit(cfg, options, 'onResponse', { ...view, attempt: tries, status: answer.status, durationMs }, redact);
      }
      const delayMs = pending.handleResponse(Date.now(), answer.status, answer.retryAfterMs, Math.random());
      if (delayMs >= 0) retrying({ ...view, attempt: tries, status: answer.status, durationMs }, delayMs);
      else if (key === undefined) known = FINISH;
    }
  } catch (error) {
    emit(cfg, options, 'onError', { ...view, attempt: tries, error }, redact);
    log(cfg, 'warn', line(`failed: ${redact(error && (error as Error).message)}`));
    throw error;
  }
}

async function* pages<K extends string, T>(fetchPage: (p: PageParams, o: CallOptions | undefined) => Promise<Record<K, T[]>>, key: K, endpoint: string, options: CallOptions | undefined): AsyncGenerator<T, void, undefined> {
  const signal = options && options.signal;
  let start = 0;
  for (;;) {
    const page = await fetchPage({ start, limit: PAGE }, options);
    const items = page[key];
    for (const item of items) {
      // Stop at once when aborted, not only at the next page's request.
      if (signal && signal.aborted) {
        throw makeError('abort', `${endpoint}: the call was aborted`, { endpoint }, signal.reason);
      }
      yield item;
    }
    if (items.length < PAGE) return;
    start += items.length;
  }
}

/**
 * The base URL as the create-interval guard keys it: the WHATWG URL parser's scheme, host, port
 * and path (`127.1`, `0x7f.0.0.1` → `127.0.0.1`; default port and `/x/..` dropped), a trailing
 * dot of the host dropped, an IPv4-mapped IPv6 address as IPv4. Decision: every loopback name
 * (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`) is one host, as `localhost` may resolve to
 * either family. Other names that resolve to one server cannot be known to be the same.
 */
function guardBase(baseUrl: unknown): string | undefined {
  let u: URL;
  try { u = new URL(baseUrl as string); } catch { return undefined; }
  let host = u.hostname.replace(/\.$/, '');
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (mapped) {
    const [a, b] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    host = [a >> 8, a & 255, b >> 8, b & 255].join('.');
  }
  if (/^(.*\.)?localhost$|^127\.|^\[::1\]$/.test(host)) host = 'loopback';
  return `${u.protocol}//${host}:${u.port}${u.pathname.replace(/\/+$/, '')}`;
}

/** Passed by `withToken` to the constructor: an existing core, not options. */
const INTERNAL = Symbol('lpm-client internal');

/** What a derived client (`withToken`, `withResponse`) shares or changes of its client. */
interface Derived {
  core: wasm.Core;
  cfg: Cfg;
  raw: boolean;
  /** A view shares its client's core (and does not free it). */
  view?: boolean;
}

/** A derived client: the constructor's internal path, which its public type leaves out. */
const derive = (d: Derived) => new (Client as unknown as new (key: typeof INTERNAL, d: Derived) => Client)(INTERNAL, d);

/** The typed client of the management API. Every method validates its input first (rejecting
 * with `ValidationError` before anything is sent), and resolves with the endpoint's checked reply
 * or rejects with one of the package's errors. */
export class Client {
  // Its name survives minification (logs and stack traces show it).
  static name = 'Client';

  #core: wasm.Core;
  #cfg: Cfg;
  #raw: boolean;
  /** Whether `free` frees the core (a `withResponse()` view shares its client's). */
  #owner: boolean;

  /** A client of one platform. Throws `ConfigError` on unusable options. */
  constructor(options: ClientOptions);
  constructor(options: ClientOptions | typeof INTERNAL, internal?: Derived) {
    if (options === INTERNAL) {
      this.#core = internal!.core;
      this.#cfg = internal!.cfg;
      this.#raw = internal!.raw;
      this.#owner = !internal!.view;
    } else {
      this.#core = core(() => wasm.newCore(optionsJson(options), guardBase(options?.baseUrl)));
      const { headers, store } = driverOptions(options, true);
      const hooks: Hooks = {};
      for (const h of HOOKS) (hooks as Record<string, unknown>)[h] = options[h];
      this.#cfg = { fetch: options.fetch as FetchFn | undefined, headers, store, hooks, logger: options.logger };
      this.#raw = false;
      this.#owner = true;
    }
  }

  /** The same client with another token (e.g. the one `login` returned). */
  withToken(token: string): Client {
    return derive({ core: core(() => this.#core.withToken(typeof token === 'string' ? token : undefined)), cfg: this.#cfg, raw: this.#raw });
  }

  /** The same client whose methods resolve `{ data, response: { status, headers } }`: the
   * decoded reply beside the final attempt's HTTP status and headers (token redacted). */
  withResponse(): ClientWithResponse {
    return derive({ core: this.#core, cfg: this.#cfg, raw: true, view: true }) as unknown as ClientWithResponse;
  }

  /** The normalised base URL. */
  get baseUrl(): string {
    return core(() => this.#core.baseUrl);
  }

  /** Plans and drives one call; the core checked the reply against `T`'s shape. */
  #call<T>(method: CallMethod, a: unknown, b: unknown, options: CallOptions | undefined, raw = this.#raw): Promise<T> {
    return run(this.#cfg, () => this.#core.plan(method, toJson(a), toJson(b), optionsJson(options)), options, raw) as Promise<T>;
  }

  /** Creates 1 to 100 accounts (`users/create-multi-user`). Resolves with one result per item,
   * also when none could be created (code 13). Keeps the contract's 10-minute interval (see
   * `createInterval`); never retried automatically. */
  createUsers(users: NewUser[], options?: CreateOptions): Promise<CreateUsersReply> {
    return this.#call('createUsers', users, undefined, options);
  }
  /** Creates one account through the bulk endpoint (the response of create-single-user is
   * unpublished). Same guard and validation as `createUsers`. */
  createUser(user: NewUser, options?: CreateOptions): Promise<CreateUsersReply> {
    return this.#call('createUser', user, undefined, options);
  }
  /** Registers one account (`users/create-single-user`, the path a sign-up form takes). Resolves with the envelope (`respCode` "00", `msg`; the rest is unpublished, kept as received); an account that exists rejects with `ApiError` (`reason` `emailInUse` or `usernameInUse`). Kept at least the platform's advised 5 s apart (see `registerInterval`; `waitForInterval` waits); never retried automatically. */
  registerUser(user: NewUser, options?: CreateOptions): Promise<import('./wasm/lpm_client.js').RegisterReply> {
    return this.#call('registerUser', user, undefined, options);
  }
  /** The raw `users/create-single-user` call: the envelope as received. Not guarded; never retried. */
  createSingleUserRaw(user: NewUser, options?: CallOptions): Promise<RawReply> {
    return this.#call('createSingleUserRaw', user, undefined, options);
  }
  /** A page of accounts (`users/get-multi-user`); `start` defaults to 0, `limit` (1..100) to 100. */
  getUsers(params?: PageParams, options?: CallOptions): Promise<UserList> {
    return this.#call('getUsers', params, undefined, options);
  }
  /** One account by id (`users/get-single-user/<id>`). */
  getUser(id: string, options?: CallOptions): Promise<UserReply> {
    return this.#call('getUser', id, undefined, options);
  }
  /** The token's own account (`users/get-me`). */
  getMe(options?: CallOptions): Promise<UserReply> {
    return this.#call('getMe', undefined, undefined, options);
  }
  /** One account by e-mail (tried first) or username (`users/search-user`). */
  searchUser(params: SearchUserParams, options?: CallOptions): Promise<UserReply> {
    return this.#call('searchUser', params, undefined, options);
  }
  /** One course by id (`courses/get-single-course/<id>`). */
  getCourse(id: string, options?: CallOptions): Promise<CourseReply> {
    return this.#call('getCourse', id, undefined, options);
  }
  /** A page of courses (`courses/get-multi-course`); `start` defaults to 0, `limit` (0..100) to 100. */
  getCourses(params?: PageParams, options?: CallOptions): Promise<CourseList> {
    return this.#call('getCourses', params, undefined, options);
  }
  /** Courses whose title matches the keywords (`courses/search-course`). */
  searchCourses(title: string, options?: CallOptions): Promise<CourseList> {
    return this.#call('searchCourses', title, undefined, options);
  }
  /** Grants courses to 1 to 100 accounts (`courses/add-multi-course-to-multi-user`). Never retried. */
  addCoursesToUsers(input: AddCoursesInput, options?: CallOptions): Promise<AddCoursesReply> {
    return this.#call('addCoursesToUsers', input, undefined, options);
  }
  /** Logs in (`users/login-user`) and resolves with the token and its expiry; needs no token. */
  login(email: string, password: string, options?: CallOptions): Promise<LoginReply> {
    return this.#call('login', email, password, options);
  }
  /** A one-time site login token for the account `userId` (`users/create-user-login-token`, platform
   * notes): the site logs that account in at `<site>?login_token=<token>`. It logs in as that
   * account: it is never logged, keep it out of yours. Kept at least the platform's advised 5 s
   * apart (see `loginTokenInterval`; `waitForInterval` waits); never retried automatically. */
  createLoginToken(userId: string, options?: CreateOptions): Promise<LoginTokenReply> {
    return this.#call('createLoginToken', userId, undefined, options);
  }

  /** When the next bulk create of this base URL and token is allowed, or `null` when it is now.
   * With an asynchronous `intervalStore`, as far as this realm has seen. */
  nextCreateAllowedAt(): Date | null {
    const c = this.#core;
    const key = core(() => c.guardKey);
    const store = this.#cfg.store;
    let stored;
    try {
      stored = store ? store.get(key) : undefined;
    } catch (e) {
      throw storeError('get', e, String);
    }
    // An asynchronous answer is not waited for (this realm's record stands in); its failure
    // is not left unhandled.
    if (isThenable(stored)) stored.then(undefined, () => {});
    const last = later(time(stored), time(seen.get(key)));
    const at = core(() => c.nextCreateAllowedAt(Date.now(), last));
    return Number.isNaN(at) ? null : new Date(at);
  }

  /**
   * Imports any number of accounts (bulk work beyond 100 rows): rows with contract-level issues
   * and repeats are set aside (never blocking the others), the rest are created in chunks of at
   * most `chunkSize` (100), one create call per create interval (the contract's 10 minutes,
   * also kept against this client's other creates). Every event is appended to `journal` before
   * the request it announces leaves, so a job interrupted anywhere (a killed process, a closed
   * laptop, a dropped connection) resumes from the same rows and journal without creating an
   * account twice: rows whose answer was lost are looked up (`search-user`) before anything is
   * sent again. Resolves with a report of every row; rejects with `ConfigError` on unusable
   * options or a journal of another input, and with `AbortError` when `signal` fires (its
   * `report` holds the rows as they stood; the journal resumes them).
   */
  async importUsers(rows: readonly unknown[], options?: ImportUsersOptions): Promise<ImportReport> {
    return this.#bulk('import', 'importUsers', rows, options) as Promise<ImportReport>;
  }

  /** Grants `courses` to any number of accounts: add-courses in chunks of at most 100 accounts,
   * journaled and resumable like `importUsers` (a chunk whose answer was lost is sent again:
   * granting twice is harmless). */
  async grantCourses(input: { users: readonly unknown[]; courses: readonly string[] }, options?: GrantCoursesOptions): Promise<GrantReport> {
    const given = input !== null && typeof input === 'object' ? { users: input.users, courses: input.courses } : input;
    return this.#bulk('grant', 'grantCourses', given, options) as Promise<GrantReport>;
  }

  async #bulk(kind: 'import' | 'grant', name: string, input: unknown, options: unknown): Promise<unknown> {
    // The bulk driver, or (lpm-client) the ConfigError of a client without the engines: `bulk`
    // is then `undefined`, and the minifier drops what follows.
    if (!bulk) {
      const expected = 'a client of the lpm-client-bulk package (the bulk engines are not in lpm-client)';
      throw makeError('config', `${name} needs ${expected}`, { problem: 'option', option: name, expected });
    }
    // What of this client the bulk driver uses: its core and settings, and the call machinery.
    const machinery: Machinery = { core: this.#core, cfg: this.#cfg, run, ANSWER, pause, lastSent, seen, storeError, toJson, configError, internalError, guard: core };
    return bulk(machinery, kind, name, input, options);
  }

  /** Every account, page by page with the largest allowed limit. */
  allUsers(options?: CallOptions): AsyncGenerator<User, void, undefined> {
    return pages((p, o) => this.#call<UserList>('getUsers', p, undefined, o, false), 'users', 'get-multi-user', options);
  }

  /** Every course, page by page with the largest allowed limit. */
  allCourses(options?: CallOptions): AsyncGenerator<Course, void, undefined> {
    return pages((p, o) => this.#call<CourseList>('getCourses', p, undefined, o, false), 'courses', 'get-multi-course', options);
  }

  /** Frees the wasm side now rather than when the garbage collector gets to it (on a
   * `withResponse()` view: nothing, its client owns the core). */
  free(): void {
    if (this.#owner) this.#core.free();
  }

  [Symbol.dispose](): void {
    this.free();
  }
}

/** Options of a bulk job besides its engine's (`chunkSize`, `lang`, ...). */
export interface BulkDriverOptions {
  /** Default: a journal in memory, which does not survive the process. */
  journal?: JournalStore;
  /** Told after every change: rows done, failed, set aside, remaining, next send, estimated end. */
  onProgress?: (progress: Progress) => void;
  /** Stops the job (an answer in flight is treated as lost: its rows are looked up on resume). */
  signal?: AbortSignal;
}
export type ImportUsersOptions = BulkDriverOptions & Partial<ImportOptions> & {
  /** Told once, before anything is journaled or sent, the rows with issues (set aside) or
   * warnings (sent anyway) as the job judged them: list them without validating the rows again.
   * Awaited; a throw or rejection stops the job there. */
  onIssues?: (rows: RowIssues[]) => void | Promise<void>;
};
export type GrantCoursesOptions = BulkDriverOptions & Partial<GrantOptions>;

/** create-user-login-token's reply: `{ token, tokenExpires, msg }`, login-user's shape. */
export type LoginTokenReply = LoginReply;

/** A reply beside the HTTP answer it came in (`withResponse()`). */
export interface WithResponse<T> {
  data: T;
  /** The final attempt's status and headers (lower-case names; the token redacted from values). */
  response: { status: number; headers: Record<string, string> };
}

/** `client.withResponse()`: each call method resolves `{ data, response }`. */
export type ClientWithResponse = {
  [K in CallMethod]: Client[K] extends (...args: infer A) => Promise<infer R>
    ? (...args: A) => Promise<WithResponse<R>>
    : never;
};

/** The Standard Schema v1 interface (standardschema.dev), declared here so the package has no dependency. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardSchemaV1.Result<Output> | Promise<StandardSchemaV1.Result<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
export declare namespace StandardSchemaV1 {
  type Result<Output> = SuccessResult<Output> | FailureResult;
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  type InferInput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["input"];
  type InferOutput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["output"];
}

/**
 * A validator: call it for the issues (empty when the input is good), hand it to a form library
 * as a Standard Schema, or fix its language and strictness with `withOptions`.
 */
export interface Validator<Output> extends StandardSchemaV1<unknown, Output> {
  (value: unknown, options?: ValidateOptions): Issue[];
  withOptions(options: Partial<ValidateOptions>): Validator<Output>;
}

/** A validator that is also a Standard Schema (`~standard`), with `withOptions` for lang/strictness.
 * `Output`: what a value without issues is (the core checked it against that shape). */
function schema<Output>(kind: string, options?: Partial<ValidateOptions>): Validator<Output> {
  const run = (value: unknown, opts: unknown): Issue[] => JSON.parse(core(() => wasm.validate(kind, toJson(value), optionsJson(opts))));
  const validate = (value: unknown, opts?: ValidateOptions) => run(value, opts === undefined ? options : opts);
  validate['~standard'] = {
    version: 1 as const,
    vendor: 'lpm-client',
    validate(value: unknown): StandardSchemaV1.Result<Output> {
      const issues = run(value, options);
      return issues.length === 0 ? { value: value as Output } : { issues };
    },
  };
  validate.withOptions = (opts: Partial<ValidateOptions>) => schema<Output>(kind, { ...(options || {}), ...opts });
  return validate;
}

/** A create-multi-user batch: 1 to 100 items, required fields, no duplicate e-mail or username. */
export const validateCreateUsers: Validator<NewUser[]> = schema('createUsers');
/** One account-creation item. */
export const validateCreateUser: Validator<NewUser> = schema('createUser');
/** get-multi-user's `{start, limit}` (limit 1..100). */
export const validateGetUsers: Validator<PageParams> = schema('getUsers');
/** get-multi-course's `{start, limit}` (limit 0..100). */
export const validateGetCourses: Validator<PageParams> = schema('getCourses');
/** search-user's `{email, username}` (at least one). */
export const validateSearchUser: Validator<SearchUserParams> = schema('searchUser');
/** search-course's title. */
export const validateSearchCourses: Validator<string> = schema('searchCourses');
/** An account or course id. */
export const validateId: Validator<string> = schema('id');
/** add-courses' `{users, courses}`. */
export const validateAddCourses: Validator<AddCoursesInput> = schema('addCourses');
/** login's `{email, password}`. */
export const validateLogin: Validator<{ email: string; password: string }> = schema('login');
/** For each spreadsheet header, the `NewUser` field it stands for (Vietnamese or English; case,
 * diacritics and punctuation ignored), or `null`; one alias table, in the core. */
export function mapColumns(headers: readonly string[]): (keyof NewUser | null)[] {
  return Array.from(headers, (h) => ((typeof h === 'string' && wasm.columnOf(h)) || null) as keyof NewUser | null);
}
