// What every entry point shares: the `Client` (a thin driver over the wasm `Core`, which plans,
// decides retries and the create interval, and checks every answer), the validators with their
// Standard Schema adapters, and the error classes. The driver only performs what the core asks:
// one fetch attempt bounded by a timeout and the caller's AbortSignal, a wait, or the end.
import * as wasm from './wasm/lpm_client.js';
import { fromThrown, internalError, makeError } from './errors.js';

export {
  LpmError, ValidationError, ApiError, HttpError, DecodeError, NetworkError, TimeoutError,
  AbortError, IntervalError, ConfigError, ResponseTooLargeError,
} from './errors.js';

/** The largest page the list endpoints accept. */
const PAGE = 100;
/** `Pending.poll` answers besides a wait in ms. */
const SEND = -1;
const FINISH = -2;
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
  const shows = (v) => typeof v === 'string' && pending.leaks(v);
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
function attempt(fetchFn, pending, signal) {
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
    const timeoutMs = pending.timeoutMs;
    const timer = timeoutMs > 0
      ? setTimeout(() => {
          const cause = new Error(`no complete response within ${timeoutMs} ms`);
          cause.name = 'TimeoutError';
          ctrl.abort(cause);
          finish(reject, { failure: 'timeout', cause });
        }, Math.min(timeoutMs, MAX_TIMER_MS))
      : undefined;
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
    const headers = { accept: 'application/json' };
    const init = { method: pending.method, headers, signal: ctrl.signal };
    const body = pending.body;
    if (body != null) {
      headers['content-type'] = 'application/json';
      init.body = body;
    }
    (async () => {
      const res = await fetchFn(pending.url, init);
      const header = (name) => (res.headers && typeof res.headers.get === 'function' ? res.headers.get(name) : null);
      const bytes = await readBody(res, pending.maxResponseBytes, Number(header('content-length')));
      return { status: res.status, body: bytes, retryAfterMs: parseRetryAfter(header('retry-after')) };
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

/** Drives a planned call to its end, then frees it (not left to the garbage collector). */
async function run(customFetch, plan, options) {
  const pending = core(plan);
  try {
    return await drive(pending, customFetch, options);
  } finally {
    // After a trap the wasm side may refuse this too; the call's outcome stands.
    try { pending.free(); } catch { /* nothing to free */ }
  }
}

async function drive(pending, customFetch, options) {
  const signal = options && options.signal;
  const fetchFn = customFetch ?? globalThis.fetch;
  const hasToken = pending.hasToken;
  let answer;
  for (;;) {
    // The two ways an attempt fails before sending anything: such a create is not recorded.
    if (signal && signal.aborted) throw hostError(pending, 'abort', signal.reason, hasToken);
    if (typeof fetchFn !== 'function') throw hostError(pending, 'network', new TypeError('no fetch function is available'), hasToken);
    const next = core(() => pending.poll(Date.now()));
    if (next === FINISH) return reply(pending, answer);
    if (next !== SEND) {
      await pause(next, signal, () => hostError(pending, 'abort', signal.reason, hasToken));
      continue;
    }
    try {
      answer = await attempt(fetchFn, pending, signal);
    } catch (f) {
      if (f.failure === 'abort' || f.failure === 'tooLarge') throw hostError(pending, f.failure, f.cause, hasToken);
      const timedOut = f.failure === 'timeout';
      if (pending.handleFailure(Date.now(), timedOut)) {
        throw hostError(pending, timedOut ? 'timeout' : 'network', f.cause, hasToken);
      }
      continue;
    }
    pending.handleResponse(Date.now(), answer.status, answer.retryAfterMs);
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
  #core;
  #fetch;

  /** A client of one platform. Throws `ConfigError` on unusable options. */
  constructor(options, internal) {
    if (options === INTERNAL) {
      this.#core = internal.core;
      this.#fetch = internal.fetch;
    } else {
      this.#core = core(() => new wasm.Core(options, guardBase(options?.baseUrl)));
      this.#fetch = options.fetch;
    }
  }

  /** The same client with another token (e.g. the one `login` returned). */
  withToken(token) {
    return new Client(INTERNAL, { core: core(() => this.#core.withToken(token)), fetch: this.#fetch });
  }

  /** The normalised base URL. */
  get baseUrl() {
    return this.#core.baseUrl;
  }

  #run(plan, options) {
    return run(this.#fetch, plan, options);
  }

  createUsers(users, options) {
    return this.#run(() => this.#core.plan('createUsers', toJson(users), undefined, !!(options && options.waitForInterval)), options);
  }
  createUser(user, options) {
    return this.#run(() => this.#core.plan('createUser', toJson(user), undefined, !!(options && options.waitForInterval)), options);
  }
  createSingleUserRaw(user, options) {
    return this.#run(() => this.#core.plan('createSingleUserRaw', toJson(user), undefined, false), options);
  }
  getUsers(params, options) {
    return this.#run(() => this.#core.plan('getUsers', toJson(params), undefined, false), options);
  }
  getUser(id, options) {
    return this.#run(() => this.#core.plan('getUser', toJson(id), undefined, false), options);
  }
  getMe(options) {
    return this.#run(() => this.#core.plan('getMe', toJson(undefined), undefined, false), options);
  }
  searchUser(params, options) {
    return this.#run(() => this.#core.plan('searchUser', toJson(params), undefined, false), options);
  }
  getCourse(id, options) {
    return this.#run(() => this.#core.plan('getCourse', toJson(id), undefined, false), options);
  }
  getCourses(params, options) {
    return this.#run(() => this.#core.plan('getCourses', toJson(params), undefined, false), options);
  }
  searchCourses(title, options) {
    return this.#run(() => this.#core.plan('searchCourses', toJson(title), undefined, false), options);
  }
  addCoursesToUsers(input, options) {
    return this.#run(() => this.#core.plan('addCoursesToUsers', toJson(input), undefined, false), options);
  }
  login(email, password, options) {
    return this.#run(() => this.#core.plan('login', toJson(email), toJson(password), false), options);
  }

  /** When the next bulk create of this base URL and token is allowed, or `null` when it is now. */
  nextCreateAllowedAt() {
    const at = core(() => this.#core.nextCreateAllowedAt(Date.now()));
    return Number.isNaN(at) ? null : new Date(at);
  }

  /** Every account, page by page with the largest allowed limit. */
  allUsers(options) {
    return pages((p, o) => this.getUsers(p, o), 'users', 'get-multi-user', options);
  }

  /** Every course, page by page with the largest allowed limit. */
  allCourses(options) {
    return pages((p, o) => this.getCourses(p, o), 'courses', 'get-multi-course', options);
  }

  /** Frees the wasm side now rather than when the garbage collector gets to it. */
  free() {
    this.#core.free();
  }

  [Symbol.dispose]() {
    this.free();
  }
}

/** A validator that is also a Standard Schema (`~standard`), with `withOptions` for lang/strictness. */
function schema(kind, options) {
  const run = (value, opts) => core(() => wasm.validate(kind, toJson(value), opts));
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
