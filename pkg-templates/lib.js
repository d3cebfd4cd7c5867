// What every entry point shares: the `Client` (a thin driver over the wasm `Core`, which plans,
// decides retries and the create interval, and checks every answer), the validators with their
// Standard Schema adapters, and the error classes. The driver only performs what the core asks:
// one fetch attempt bounded by a timeout and the caller's AbortSignal, a wait, or the end.
import * as wasm from './wasm/lpm_client.js';
import { fromThrown, internalError, makeError } from './errors.js';

export { memoryJournal, indexedDbJournal } from './journal.js';

// The bulk driver: in lpm-client-bulk, with the engines (they cost the wasm ~26 KB gzip, more
// than a form or dashboard page should load); in lpm-client a stub (bulk-lean.js) that says so.
// A static import, so that bundlers see one module graph in both packages.
import * as bulkDriver from './bulk.js';

/** The bulk driver, or the ConfigError of a client without the engines. */
function loadBulk(core, name) {
  if (typeof core.bulkJob !== 'function' || !bulkDriver.bulk) {
    const expected = 'a client of the lpm-client-bulk package (the bulk engines are not in lpm-client)';
    throw makeError('config', `${name} needs ${expected}`, { problem: 'option', option: name, expected });
  }
  return bulkDriver;
}

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

/**
 * A caller's value as the JSON text the core reads (`undefined` is `null`), or `undefined` when
 * it has none: a cycle, a BigInt, or a non-finite number (JSON.stringify would silently write
 * NaN and Infinity as null, which reads as "absent"; the core then reports `not_json`).
 */
function toJson(value) {
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
function names(value, deep) {
  if (!deep) return Object.keys(value);
  const all = new Set();
  for (let o = value; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const k of Object.getOwnPropertyNames(o)) all.add(k);
  }
  return all;
}

/** The value read as options (a member's value; depth 0: an object here is `{}`). */
function plain(value, depth) {
  switch (typeof value) {
    case 'function': return FUNCTION;
    case 'number': return Number.isFinite(value) ? value : null;
    case 'bigint': case 'symbol': return String(value);
    case 'object': {
      if (value === null) return null;
      const out = {};
      if (depth > 0) {
        for (const k of names(value, depth > 1)) {
          let v;
          try { v = value[k]; } catch { continue; }
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
function optionsJson(options) {
  return options === undefined ? 'null' : JSON.stringify(plain(options, 2));
}

/** Runs `fn`, turning what the core throws into the package's error classes. */
function core(fn) {
  try {
    return fn();
  } catch (e) {
    throw fromThrown(e);
  }
}

function parseRetryAfter(value) {
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
function cleanCause(pending, cause, hasToken, depth = 3) {
  if (!hasToken || cause == null) return cause;
  if (typeof cause === 'string') return pending.redact(cause);
  const text = (v) => (typeof v === 'string' ? pending.redact(v) : undefined);
  const clean = new Error(text(cause.message) ?? 'host error');
  const name = text(cause.name);
  if (name !== undefined) clean.name = name;
  const code = text(cause.code);
  if (code !== undefined) clean.code = code;
  if (depth > 1 && cause.cause !== undefined) clean.cause = cleanCause(pending, cause.cause, hasToken, depth - 1);
  return clean;
}

/** The caller's abort reason is kept as it is (callers compare it), unless it shows the token. */
function scrubReason(pending, reason, hasToken) {
  if (!hasToken) return reason;
  const shows = (v) => typeof v === 'string' && pending.redact(v) !== v;
  const leaks = shows(reason) || (reason != null && (shows(reason.message) || shows(reason.stack)));
  return leaks ? cleanCause(pending, reason, hasToken) : reason;
}

function hostError(pending, kind, cause, hasToken) {
  const clean = kind === 'abort' ? scrubReason(pending, cause, hasToken) : cleanCause(pending, cause, hasToken);
  return fromThrown(pending.failure(kind), clean);
}

/** Waits `ms`, or rejects with the abort reason's error when `signal` fires. */
function pause(ms, signal, onAbort) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) return reject(onAbort());
    const abort = () => { clearTimeout(timer); reject(onAbort()); };
    const timer = setTimeout(() => { if (signal) signal.removeEventListener('abort', abort); resolve(); }, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    if (signal) signal.addEventListener('abort', abort, { once: true });
  });
}

function configError(option, expected) {
  return makeError('config', `option \`${option}\` must be ${expected}`, { problem: 'option', option, expected });
}

/** Header options as lower-case names to string values (`undefined` when absent). */
function headerMap(value, option) {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw configError(option, 'an object of header names to string values');
  const out = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw configError(option, 'an object of header names to string values');
    out[name.toLowerCase()] = v;
  }
  return out;
}

const HOOKS = ['onRequest', 'onResponse', 'onRetry', 'onError'];

/** Checks the driver's own options (hooks, logger, headers, store) of the client or of a call. */
function driverOptions(o, client) {
  if (o == null || typeof o !== 'object') return {};
  for (const h of HOOKS) if (o[h] !== undefined && typeof o[h] !== 'function') throw configError(h, 'a function');
  if (client && o.logger !== undefined && (o.logger === null || typeof o.logger !== 'object')) throw configError('logger', 'an object with debug/info/warn/error functions (console fits)');
  const store = client ? o.intervalStore : undefined;
  if (store !== undefined && (store === null || typeof store.get !== 'function' || typeof store.set !== 'function')) throw configError('intervalStore', 'an object with get(key) and set(key, atMs)');
  return { headers: headerMap(o.headers, 'headers'), store };
}

/**
 * Tells the hooks (the client's, then the call's) and the logger. A hook that throws or rejects
 * does not break the call: the error is ignored and logged at `error` (redacted).
 */
function emit(cfg, options, name, event, redact) {
  for (const fn of [cfg.hooks[name], options && options[name]]) {
    if (typeof fn !== 'function') continue;
    const failed = (e) => log(cfg, 'error', redact(`lpm-client: the ${name} hook failed (ignored): ${e && e.message !== undefined ? e.message : e}`));
    try {
      const r = fn({ ...event, headers: { ...event.headers } });
      if (r && typeof r.then === 'function') r.then(undefined, failed);
    } catch (e) {
      failed(e);
    }
  }
}

function log(cfg, level, line) {
  const logger = cfg.logger;
  if (logger && typeof logger[level] === 'function') {
    try {
      logger[level](line);
    } catch {
      // A logger that throws is ignored: it cannot be told.
    }
  }
}

/** When each guard key last sent, as this realm knows it: the default store, and the floor of any
 * other (a second call in this realm sees the first before an asynchronous store has written). */
const seen = new Map();

/** The later of two times, NaN standing for none. */
const later = (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b));
const time = (v) => (typeof v === 'number' ? v : Number.NaN);

/** When `key` last sent: the later of this realm's record and the store's (NaN: never). A store
 * answering synchronously is not awaited, so two calls in this realm cannot both pass the guard. */
function lastSent(store, key) {
  const v = store ? store.get(key) : undefined;
  const floor = () => time(seen.get(key));
  return v && typeof v.then === 'function' ? v.then((t) => later(time(t), floor())) : later(time(v), floor());
}

/** A store that threw or rejected: a ConfigError naming it, the store's error as its cause. */
function storeError(op, e, redact) {
  const detail = redact(e && e.message !== undefined ? e.message : e);
  return makeError('config', `intervalStore.${op} failed: ${detail}`, { problem: 'option', option: 'intervalStore', expected: 'a store whose get and set work' }, e);
}

/** A store over Web Storage (`localStorage`, `sessionStorage`, or anything with getItem/setItem). */
export function webStorageStore(storage, prefix = 'lpm-client:') {
  if (!storage || typeof storage.getItem !== 'function' || typeof storage.setItem !== 'function') throw configError('storage', 'a Web Storage (localStorage or sessionStorage)');
  return {
    get(key) {
      const v = storage.getItem(prefix + key);
      return v == null ? undefined : Number(v);
    },
    set(key, atMs) {
      storage.setItem(prefix + key, String(atMs));
    },
  };
}

/** A store in a JSON file: Node only (the `node` entry, also used by Deno and Bun). */
export function fileStore() {
  throw configError('intervalStore', 'a store this runtime supports: fileStore needs the package\'s `node` entry (Node, Deno, Bun)');
}

/** A journal in a file of JSON lines: Node only (the `node` entry, also used by Deno and Bun). */
export function fileJournal() {
  throw configError('journal', 'a journal this runtime supports: fileJournal needs the package\'s `node` entry (Node, Deno, Bun)');
}

/** The response's headers as a plain object (lower-case names), the token redacted from values. */
function headerObject(headers, redact) {
  const out = {};
  if (headers && typeof headers.forEach === 'function') headers.forEach((v, k) => { out[k.toLowerCase()] = redact(v); });
  return out;
}

/** Thrown by `readBody` when the body is larger than allowed. */
const TOO_LARGE = Symbol('too large');

/**
 * The body's bytes; throws `TOO_LARGE` as soon as more than `max` bytes (0: no bound) are
 * announced by Content-Length or read, and stops reading there. A body stream is read chunk by
 * chunk; a response without one (a custom fetch) falls back to `arrayBuffer()`.
 */
async function readBody(res, max, length) {
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
  const chunks = [];
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
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) { bytes.set(c, at); at += c.length; }
  return bytes;
}

/**
 * One attempt: the fetch, raced against the timeout and the caller's signal so that the call
 * settles whatever the fetch does with `init.signal`. Resolves `{status, body, retryAfterMs}`,
 * or rejects `{failure: 'abort' | 'timeout' | 'network' | 'tooLarge', cause}`.
 */
function attempt(fetchFn, pending, signal, headers) {
  return new Promise((resolve, reject) => {
    const ctrl = new AbortController();
    let settled = false;
    const finish = (fn, value) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      if (signal) signal.removeEventListener('abort', onAbort);
      fn(value);
    };
    const onAbort = () => {
      ctrl.abort(signal.reason);
      finish(reject, { failure: 'abort', cause: signal.reason });
    };
    const timeoutMs = pending.req.timeoutMs;
    const timer = timeoutMs > 0
      ? setTimeout(() => {
          const cause = new Error(`no complete response within ${timeoutMs} ms`);
          cause.name = 'TimeoutError';
          ctrl.abort(cause);
          finish(reject, { failure: 'timeout', cause });
        }, Math.min(timeoutMs, MAX_TIMER_MS))
      : undefined;
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
    const init = { method: pending.req.method, headers, signal: ctrl.signal };
    const body = pending.req.body;
    if (body != null) init.body = body;
    (async () => {
      const res = await fetchFn(pending.req.url, init);
      const header = (name) => (res.headers && typeof res.headers.get === 'function' ? res.headers.get(name) : null);
      const bytes = await readBody(res, pending.req.maxResponseBytes, Number(header('content-length')));
      return { status: res.status, body: bytes, retryAfterMs: parseRetryAfter(header('retry-after')), headers: res.headers };
    })().then(
      (answer) => finish(resolve, answer),
      (cause) => finish(reject, cause === TOO_LARGE ? { failure: 'tooLarge' }
        : { failure: signal && signal.aborted ? 'abort' : 'network', cause: signal && signal.aborted ? signal.reason : cause }),
    );
  });
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The reply: the checked body as received, parsed by JSON.parse, plus the derived fields. */
function reply(pending, answer) {
  // The strict decode JSON.parse needs anyway also tells the core the bytes are UTF-8 (it drops
  // a byte order mark, as the core does); when it fails, the core finds why.
  let text;
  try {
    text = strictUtf8.decode(answer.body);
  } catch {
    text = undefined;
  }
  const derived = core(() => pending.decode(answer.status, answer.body, text !== undefined));
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
const ANSWER = 'answer';

/** Drives a planned call to its end, then frees it (not left to the garbage collector);
 * `raw`: resolve `{data, response}` (or with ANSWER the answer itself). */
async function run(cfg, plan, options, raw) {
  const pending = core(plan);
  // What the driver reads of the call, fetched from the core once.
  pending.req = JSON.parse(pending.describe());
  try {
    return await drive(pending, cfg, options, raw);
  } finally {
    // After a trap the wasm side may refuse this too; the call's outcome stands.
    try { pending.free(); } catch { /* nothing to free */ }
  }
}

async function drive(pending, cfg, options, raw) {
  const call = driverOptions(options, false);
  const signal = options && options.signal;
  const fetchFn = cfg.fetch ?? globalThis.fetch;
  const hasToken = pending.req.hasToken;
  const redact = (text) => (hasToken ? pending.redact(String(text)) : String(text));
  const headers = { accept: 'application/json', ...cfg.headers, ...call.headers };
  if (pending.req.body != null) headers['content-type'] = 'application/json';
  // What hooks and the logger see: the URL with the token redacted (the fetch gets the real one).
  const view = { method: pending.req.method, url: redact(pending.req.url), endpoint: pending.req.endpoint, headers };
  const key = pending.req.guardKey;
  let answer;
  let failure;
  let tries = 0;
  const retrying = (event, delayMs) => {
    emit(cfg, options, 'onRetry', { ...event, delayMs }, redact);
    log(cfg, 'warn', line(`attempt ${event.attempt}: ${event.status ?? event.failure}; retrying in ${Math.round(delayMs)} ms`));
  };
  const line = (text) => `lpm-client: ${view.method} ${view.url} ${text}`;
  try {
    for (;;) {
      // The two ways an attempt fails before sending anything: such a create is not recorded.
      if (signal && signal.aborted) throw hostError(pending, 'abort', signal.reason, hasToken);
      if (typeof fetchFn !== 'function') throw hostError(pending, 'network', new TypeError('no fetch function is available'), hasToken);
      // A store that fails before sending fails the call unsent: the rule could not be checked
      // (or kept) beyond this realm. After the answer it is only logged: the reply is not lost.
      let last;
      try {
        last = key === undefined ? Number.NaN : lastSent(cfg.store, key);
        if (typeof last !== 'number') last = await last;
      } catch (e) {
        throw storeError('get', e, redact);
      }
      const now = Date.now();
      let next = core(() => pending.poll(now, last));
      if (next === SEND + RECORD || next === FINISH + RECORD) {
        next -= RECORD;
        const prev = seen.get(key);
        seen.set(key, now);
        try {
          if (cfg.store) await cfg.store.set(key, now);
        } catch (e) {
          if (next !== SEND) {
            log(cfg, 'error', storeError('set', e, redact).message);
          } else {
            // Not sent: it does not count in this realm either.
            if (prev === undefined) seen.delete(key);
            else seen.set(key, prev);
            throw storeError('set', e, redact);
          }
        }
      }
      if (next === FINISH) {
        if (failure) throw failure;
        if (raw === ANSWER) return answer;
        const data = reply(pending, answer);
        return raw ? { data, response: { status: answer.status, headers: headerObject(answer.headers, redact) } } : data;
      }
      if (next !== SEND) {
        await pause(next, signal, () => hostError(pending, 'abort', signal.reason, hasToken));
        continue;
      }
      tries += 1;
      const info = { ...view, attempt: tries };
      emit(cfg, options, 'onRequest', info, redact);
      const started = Date.now();
      try {
        answer = await attempt(fetchFn, pending, signal, { ...headers });
      } catch (f) {
        const durationMs = Date.now() - started;
        log(cfg, 'debug', line(`attempt ${tries}: ${f.failure} after ${durationMs} ms`));
        if (f.failure === 'abort' || f.failure === 'tooLarge') throw hostError(pending, f.failure, f.cause, hasToken);
        const timedOut = f.failure === 'timeout';
        const delayMs = pending.handleFailure(Date.now(), timedOut, Math.random());
        // Final: the next poll finishes (recording a guarded call's end), then this is thrown.
        if (delayMs < 0) failure = hostError(pending, timedOut ? 'timeout' : 'network', f.cause, hasToken);
        else retrying({ ...info, failure: f.failure, durationMs }, delayMs);
        continue;
      }
      const durationMs = Date.now() - started;
      log(cfg, 'debug', line(`attempt ${tries}: ${answer.status} in ${durationMs} ms`));
      emit(cfg, options, 'onResponse', { ...info, status: answer.status, durationMs }, redact);
      const delayMs = pending.handleResponse(Date.now(), answer.status, answer.retryAfterMs, Math.random());
      if (delayMs >= 0) retrying({ ...info, status: answer.status, durationMs }, delayMs);
    }
  } catch (error) {
    emit(cfg, options, 'onError', { ...view, attempt: tries, error }, redact);
    log(cfg, 'warn', line(`failed: ${redact(error && error.message)}`));
    throw error;
  }
}

async function* pages(fetchPage, key, endpoint, options) {
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
function guardBase(baseUrl) {
  let u;
  try { u = new URL(baseUrl); } catch { return undefined; }
  let host = u.hostname.replace(/\.$/, '');
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (mapped) {
    const [a, b] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
    host = [a >> 8, a & 255, b >> 8, b & 255].join('.');
  }
  if (/^(.*\.)?localhost$|^127\.|^\[::1\]$/.test(host)) host = 'loopback';
  return `${u.protocol}//${host}:${u.port}${u.pathname.replace(/\/+$/, '')}`;
}

/** Passed by `withToken` to the constructor: an existing core, not options. */
const INTERNAL = Symbol('lpm-client internal');

/** The typed client of the management API. */
export class Client {
  // Its name survives minification (logs and stack traces show it).
  static name = 'Client';

  #core;
  #cfg;
  #raw;
  /** Whether `free` frees the core (a `withResponse()` view shares its client's). */
  #owner;

  /** A client of one platform. Throws `ConfigError` on unusable options. */
  constructor(options, internal) {
    if (options === INTERNAL) {
      this.#core = internal.core;
      this.#cfg = internal.cfg;
      this.#raw = internal.raw;
      this.#owner = !internal.view;
    } else {
      this.#core = core(() => new wasm.Core(optionsJson(options), guardBase(options?.baseUrl)));
      const { headers, store } = driverOptions(options, true);
      const hooks = {};
      for (const h of HOOKS) hooks[h] = options[h];
      this.#cfg = { fetch: options.fetch, headers, store, hooks, logger: options.logger };
      this.#raw = false;
      this.#owner = true;
    }
  }

  /** The same client with another token (e.g. the one `login` returned). */
  withToken(token) {
    return new Client(INTERNAL, { core: core(() => this.#core.withToken(typeof token === 'string' ? token : undefined)), cfg: this.#cfg, raw: this.#raw });
  }

  /** The same client whose methods resolve `{ data, response: { status, headers } }`. */
  withResponse() {
    return new Client(INTERNAL, { core: this.#core, cfg: this.#cfg, raw: true, view: true });
  }

  /** The normalised base URL. */
  get baseUrl() {
    return this.#core.baseUrl;
  }

  #call(method, a, b, options, raw = this.#raw) {
    return run(this.#cfg, () => this.#core.plan(method, toJson(a), toJson(b), optionsJson(options)), options, raw);
  }

  createUsers(users, options) {
    return this.#call('createUsers', users, undefined, options);
  }
  createUser(user, options) {
    return this.#call('createUser', user, undefined, options);
  }
  createSingleUserRaw(user, options) {
    return this.#call('createSingleUserRaw', user, undefined, options);
  }
  getUsers(params, options) {
    return this.#call('getUsers', params, undefined, options);
  }
  getUser(id, options) {
    return this.#call('getUser', id, undefined, options);
  }
  getMe(options) {
    return this.#call('getMe', undefined, undefined, options);
  }
  searchUser(params, options) {
    return this.#call('searchUser', params, undefined, options);
  }
  getCourse(id, options) {
    return this.#call('getCourse', id, undefined, options);
  }
  getCourses(params, options) {
    return this.#call('getCourses', params, undefined, options);
  }
  searchCourses(title, options) {
    return this.#call('searchCourses', title, undefined, options);
  }
  addCoursesToUsers(input, options) {
    return this.#call('addCoursesToUsers', input, undefined, options);
  }
  login(email, password, options) {
    return this.#call('login', email, password, options);
  }
  /** A one-time site login token for the account `userId` (never logged); at least 5 s apart. */
  createLoginToken(userId, options) {
    return this.#call('createLoginToken', userId, undefined, options);
  }

  /** When the next bulk create of this base URL and token is allowed, or `null` when it is now.
   * With an asynchronous `intervalStore`, as far as this realm has seen. */
  nextCreateAllowedAt() {
    const key = this.#core.guardKey;
    const store = this.#cfg.store;
    let stored;
    try {
      stored = store ? store.get(key) : undefined;
    } catch (e) {
      throw storeError('get', e, String);
    }
    // An asynchronous answer is not waited for (this realm's record stands in); its failure
    // is not left unhandled.
    if (stored && typeof stored.then === 'function') stored.then(undefined, () => {});
    const last = later(time(stored), time(seen.get(key)));
    const at = this.#core.nextCreateAllowedAt(Date.now(), last);
    return Number.isNaN(at) ? null : new Date(at);
  }

  /** Imports any number of accounts: a resumable job of the core's import engine. */
  async importUsers(rows, options) {
    return this.#bulk('import', 'importUsers', rows, options);
  }

  /** Grants courses to any number of accounts: a resumable job of the core's grant engine. */
  async grantCourses(input, options) {
    const given = input !== null && typeof input === 'object' ? { users: input.users, courses: input.courses } : input;
    return this.#bulk('grant', 'grantCourses', given, options);
  }

  async #bulk(kind, name, input, options) {
    // What of this client the bulk driver uses: its core and settings, and the call machinery.
    const machinery = { core: this.#core, cfg: this.#cfg, run, ANSWER, lastSent, seen, storeError, toJson, configError, internalError, guard: core };
    return loadBulk(this.#core, name).bulk(machinery, kind, name, input, options);
  }

  /** Every account, page by page with the largest allowed limit. */
  allUsers(options) {
    return pages((p, o) => this.#call('getUsers', p, undefined, o, false), 'users', 'get-multi-user', options);
  }

  /** Every course, page by page with the largest allowed limit. */
  allCourses(options) {
    return pages((p, o) => this.#call('getCourses', p, undefined, o, false), 'courses', 'get-multi-course', options);
  }

  /** Frees the wasm side now rather than when the garbage collector gets to it (on a
   * `withResponse()` view: nothing, its client owns the core). */
  free() {
    if (this.#owner) this.#core.free();
  }

  [Symbol.dispose]() {
    this.free();
  }
}

/** A validator that is also a Standard Schema (`~standard`), with `withOptions` for lang/strictness. */
function schema(kind, options) {
  const run = (value, opts) => JSON.parse(core(() => wasm.validate(kind, toJson(value), optionsJson(opts))));
  const validate = (value, opts) => run(value, opts === undefined ? options : opts);
  validate['~standard'] = {
    version: 1,
    vendor: 'lpm-client',
    validate(value) {
      const issues = run(value, options);
      return issues.length === 0 ? { value } : { issues };
    },
  };
  validate.withOptions = (opts) => schema(kind, { ...(options || {}), ...opts });
  return validate;
}

export const validateCreateUsers = schema('createUsers');
export const validateCreateUser = schema('createUser');
export const validateGetUsers = schema('getUsers');
export const validateGetCourses = schema('getCourses');
export const validateSearchUser = schema('searchUser');
export const validateSearchCourses = schema('searchCourses');
export const validateId = schema('id');
export const validateAddCourses = schema('addCourses');
export const validateLogin = schema('login');
export const mapColumns = (headers) => Array.from(headers, (h) => (typeof h === 'string' && wasm.columnOf(h)) || null);
