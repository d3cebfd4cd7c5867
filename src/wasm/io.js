// Host primitives the Rust client drives: one fetch attempt bounded by a timeout and the caller's
// AbortSignal, an abortable sleep, and the clock. Everything else (retries, decoding, the
// create-interval guard) is decided in Rust.

function parseRetryAfter(value) {
  if (value == null || value === '') return -1;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : -1;
}

// setTimeout treats anything above 2^31-1 ms (~24.8 days) as 1 ms; longer waits are cut to
// that and re-checked by the caller (the interval guard loops; a timeout that long is none).
const MAX_TIMER_MS = 2147483647;

function failure(kind, cause) {
  return { lpmFailure: kind, cause };
}

export async function fetchOnce(fetchFn, method, url, body, timeoutMs, signal) {
  const f = typeof fetchFn === 'function' ? fetchFn : globalThis.fetch;
  if (typeof f !== 'function') throw failure('network', new TypeError('no fetch function is available'));
  if (signal && signal.aborted) throw failure('abort', signal.reason);
  const ctrl = new AbortController();
  let timedOut = false;
  const timer = timeoutMs > 0 ? setTimeout(() => { timedOut = true; ctrl.abort(); }, Math.min(timeoutMs, MAX_TIMER_MS)) : undefined;
  const onAbort = () => ctrl.abort(signal.reason);
  if (signal) signal.addEventListener('abort', onAbort, { once: true });
  try {
    const headers = { accept: 'application/json' };
    const init = { method, headers, signal: ctrl.signal };
    if (body != null) {
      headers['content-type'] = 'application/json';
      init.body = body;
    }
    const res = await f(url, init);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const retryAfter = res.headers && typeof res.headers.get === 'function' ? res.headers.get('retry-after') : null;
    return { status: res.status, body: bytes, retryAfterMs: parseRetryAfter(retryAfter) };
  } catch (e) {
    if (signal && signal.aborted) throw failure('abort', signal.reason);
    if (timedOut) throw failure('timeout', e);
    throw failure('network', e);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (signal) signal.removeEventListener('abort', onAbort);
  }
}

export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) return reject(failure('abort', signal.reason));
    const onAbort = () => { clearTimeout(timer); reject(failure('abort', signal.reason)); };
    const timer = setTimeout(() => { if (signal) signal.removeEventListener('abort', onAbort); resolve(); }, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function now() {
  return Date.now();
}

// JSON text of a caller's value for validation, or undefined when it has none: a cycle, a BigInt,
// or a non-finite number (JSON.stringify would silently write NaN and Infinity as null, which
// reads as "absent").
export function toJson(value) {
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

// The body of a response the core has decoded: JSON.parse of its bytes, decoded strictly
// (a byte sequence that is not UTF-8 throws instead of turning into U+FFFD).
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
export function parseBody(bytes) {
  return JSON.parse(strictUtf8.decode(bytes));
}
