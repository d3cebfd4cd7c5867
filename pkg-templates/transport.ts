// One HTTP attempt: the fetch raced against the call's timeout and the caller's signal, the body
// read within its bound. Nothing here decides: the driver asks for an attempt and hands its
// outcome to the core.
import type { Pending } from './core.js';
import type { Answer, FetchFn, FetchResponse } from './internal.js';

// setTimeout treats anything above 2^31-1 ms (~24.8 days) as 1 ms; longer waits are cut to that
// and polled again.
export const MAX_TIMER_MS = 2147483647;
/** The runtime's fetch, as it was when this module loaded (see `attempt`). */
export const PLATFORM_FETCH = globalThis.fetch;

function parseRetryAfter(value: string | null): number {
  if (value == null || value === '') return -1;
  const secs = Number(value);
  if (!Number.isNaN(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : -1;
}

/** The response's headers as a plain object (lower-case names), the token redacted from values. */
export function headerObject(headers: FetchResponse['headers'], redact: (text: unknown) => string): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers && typeof headers.forEach === 'function') headers.forEach((v, k) => { out[k.toLowerCase()] = redact(v); });
  return out;
}

/** Thrown by `readBody` when the body is larger than allowed. */
const TOO_LARGE = Symbol('too large');

/** Why an attempt failed (`attempt` rejects with it). */
export type Failure = 'abort' | 'timeout' | 'network' | 'tooLarge';
export interface Failed {
  failure: Failure;
  cause?: unknown;
}

/**
 * The body's bytes; throws `TOO_LARGE` as soon as more than `max` bytes (0: no bound) are
 * announced by Content-Length or read, and stops reading there. A body stream is read chunk by
 * chunk; a response without one (a custom fetch) falls back to `arrayBuffer()`. When `length`
 * is the body's own size (`exact`), the last chunk ends the read: the stream's end, which comes
 * a turn of the host's loop later, is not waited for.
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
export function attempt(fetchFn: FetchFn, pending: Pending, signal: AbortSignal | undefined, headers: Record<string, string>, platform: boolean): Promise<Answer> {
  const req = pending.req;
  const ctrl = spare || new AbortController();
  // Decision: the runtime's own fetch (`platform`: the global one, as it was when this module
  // loaded) is given a bare GET as `{signal}` alone (a GET and no headers are its defaults):
  // undici's handling of a method and of an empty headers object shows on a loopback call
  // (bench/loopback.mjs). Every other call (a POST has its Content-Type), and any other
  // fetch (a custom one, a global replaced later: a test's mock, a wrapper), gets method and
  // headers, as FetchLike declares them.
  const init = (platform && !Object.keys(headers).length ? {} : { method: req.method, headers: { ...headers } }) as Parameters<FetchFn>[1];
  init.signal = ctrl.signal;
  if (req.body != null) init.body = req.body;
  // A fetch that throws rejects this instead (the executor runs now, in this turn).
  const sent = new Promise<FetchResponse>((ok) => ok(fetchFn(req.url, init)));
  // The next attempt's controller and its signal (which the host makes when first asked, which
  // would delay a cold call's request), made while this request is on its way.
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
