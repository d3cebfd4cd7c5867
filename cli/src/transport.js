// @ts-check
// The command line's transport: the client's `fetch` option, on node:http and node:https with a
// keep-alive agent, instead of Node's global fetch (undici).
//
// Decision: `lpm` is a Node program, so it talks HTTP through Node's own module. Undici's fetch
// costs CPU to load at the first call and more CPU a call than node:http (cli/bench/import.mjs
// prints both hand loops; figures in docs/performance.md). The package keeps the global fetch
// for every other caller; set
// LPM_TRANSPORT=fetch to use it here too (a fault in this file is then told apart at once).
//
// What the client reads of an answer is all this gives: `status`, `headers` (`get`, `forEach`),
// and a `body` read chunk by chunk (`getReader`: `read`, `cancel`); no `url`, which would hold
// the token. Failures are fetch's: a request that cannot be sent or whose answer breaks off
// rejects with a TypeError ("fetch failed", its cause the socket's error, which names no URL),
// an abort with the signal's reason.
import http from 'node:http';
import { lazy } from './lazy.js';
/** @import { IncomingMessage, IncomingHttpHeaders } from 'node:http' */
/** @import { Socket } from 'node:net' */

/**
 * `fetch`'s init as the client passes it, and `onSent` (not fetch's).
 * @typedef {{ method?: string, headers?: Record<string, string>, body?: unknown, signal?: AbortSignal, onSent?: (ms: number) => void }} Init
 */
/**
 * The answer as the client reads it: status, headers, and the body as a reader of its chunks.
 * @typedef {{ status: number | undefined, headers: ReturnType<typeof headersOf>, body: ReturnType<typeof bodyOf> }} Answer
 */

// node:https (and TLS under it) loaded by the first https: request, not paid at every start.
/** @type {Record<string, () => typeof http>} */
const modules = { 'http:': () => http, 'https:': lazy('node:https') };
/** @type {Record<string, http.Agent>} */
const agents = {};
/**
 * The module and keep-alive agent of a protocol (undefined: not http: or https:).
 * @param {string} protocol
 */
function transportOf(protocol) {
  if (!Object.hasOwn(modules, protocol)) return undefined;
  const module = modules[protocol]();
  // Decision: an idle connection is closed after 4 s (as undici's fetch does), so that a create
  // sent after the contract's 10-minute wait never goes out on a connection a middlebox dropped
  // meanwhile (its answer would be lost, the row in doubt); within a burst of calls it is reused.
  // (The agent's timeout closes idle sockets only: a slow answer is the client's timeout's.)
  agents[protocol] ??= new module.Agent({ keepAlive: true, timeout: 4000 });
  return { module, agent: agents[protocol] };
}

// Decision: redirects are followed for GET and HEAD (at most 20, as fetch does) and handed to
// the client as they are for any other method: a create is never sent twice by the transport.
const MAX_REDIRECTS = 20;

const failed = (/** @type {unknown} */ cause) => new TypeError('fetch failed', { cause });

/**
 * Keeps a socket's late error from crashing the process. A server may answer before it has read
 * a large body and then close (nginx's 413, the emulator above 8 MiB): the answer is whole, and
 * the write of the rest of the body then fails (EPIPE, ECONNRESET) on a socket node:http has
 * already let go of, where nobody listens. While a request owns the socket its own 'error'
 * reports the failure; after that the socket is destroyed and the error concerns no call.
 */
const guarded = new WeakSet();
/** @param {Socket} socket */
function guard(socket) {
  if (guarded.has(socket)) return;
  guarded.add(socket);
  socket.on('error', () => socket.destroy());
}

/** The answer's headers as fetch's `Headers` reads them (`get`, `forEach`; repeated ones joined
 * by ", "). */
/** @param {IncomingHttpHeaders} raw */
function headersOf(raw) {
  const value = (/** @type {unknown} */ v) => (Array.isArray(v) ? v.join(', ') : String(v));
  return {
    /** @param {string} name */
    get(name) {
      const key = String(name).toLowerCase();
      return Object.hasOwn(raw, key) ? value(raw[key]) : null;
    },
    /** @param {(value: string, key: string) => void} fn */
    forEach(fn) {
      for (const key of Object.keys(raw)) fn(value(raw[key]), key);
    },
  };
}

/**
 * The body as a reader of its chunks. The response flows (its data queued here) whether or not
 * the reader is read to its end, so that the socket goes back to the agent when the answer
 * ends: the client stops reading at the last announced byte.
 */
/** @param {IncomingMessage} res @param {AbortSignal | undefined} signal */
function bodyOf(res, signal) {
  /** @type {Uint8Array[]} */
  const queue = [];
  let ended = false;
  let cancelled = false;
  /** @type {unknown} */
  let error;
  /** @type {(() => void)[]} */
  const waiting = [];
  const wake = () => {
    for (const w of waiting.splice(0)) w();
  };
  res.on('data', (/** @type {Buffer} */ chunk) => { queue.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length)); wake(); });
  res.on('end', () => { ended = true; wake(); });
  res.on('error', (/** @type {unknown} */ e) => { error ??= e; wake(); });
  // A connection that closes before the answer's end (`complete` unset) broke it off. The
  // answer's last event: the abort no longer concerns it.
  res.on('close', () => {
    if (!res.complete) error ??= new Error('the connection closed before the end of the answer');
    ended = true;
    if (signal) signal.removeEventListener('abort', onAbort);
    wake();
  });
  const onAbort = () => { error ??= signal?.reason; res.destroy(); wake(); };
  const cancel = async () => {
    cancelled = true;
    queue.length = 0;
    res.destroy();
    wake();
  };
  if (signal) signal.addEventListener('abort', onAbort, { once: true });
  return {
    getReader() {
      return {
        async read() {
          for (;;) {
            // As a stream's reader: after cancel(), done.
            if (cancelled) return { done: true, value: undefined };
            if (queue.length > 0) return { done: false, value: queue.shift() };
            if (error !== undefined) throw signal && signal.aborted && error === signal.reason ? error : failed(error);
            if (ended) return { done: true, value: undefined };
            await new Promise((resolve) => { waiting.push(() => resolve(undefined)); });
          }
        },
        cancel,
      };
    },
    cancel,
  };
}

/**
 * One request; resolves with the answer once its head is in (redirects of GET/HEAD followed).
 * `onSent(ms)`, if given, is told when the request's last byte has been written.
 * @param {string} url @param {string} method @param {Record<string, string>} headers
 * @param {string | undefined} body @param {AbortSignal | undefined} signal @param {number} hops
 * @param {(ms: number) => void} [onSent] @returns {Promise<Answer>}
 */
function request(url, method, headers, body, signal, hops, onSent) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) {
      reject(signal.reason);
      return;
    }
    // (Causes made here name no URL: its query holds the token.)
    let target;
    try {
      target = new URL(url);
    } catch {
      reject(failed(new Error('not a URL')));
      return;
    }
    const via = transportOf(target.protocol);
    if (!via) {
      reject(failed(new Error(`${target.protocol} is not http: or https:`)));
      return;
    }
    const options = { agent: via.agent, method, headers: { ...headers } };
    if (body !== undefined) options.headers['content-length'] = String(Buffer.byteLength(body));
    let req;
    try {
      req = via.module.request(target, options);
    } catch (e) {
      // A header Node refuses (a line break, a character beyond Latin-1): fetch's TypeError.
      reject(failed(e));
      return;
    }
    const onAbort = () => {
      req.destroy();
      reject(signal?.reason);
    };
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
    req.on('socket', guard);
    if (onSent) req.on('finish', () => onSent(Date.now()));
    req.on('error', (/** @type {unknown} */ e) => {
      if (signal) signal.removeEventListener('abort', onAbort);
      reject(signal && signal.aborted ? signal.reason : failed(e));
    });
    req.on('response', (res) => {
      if (signal) signal.removeEventListener('abort', onAbort);
      const status = res.statusCode;
      const location = res.headers.location;
      if ((method === 'GET' || method === 'HEAD') && status !== undefined && [301, 302, 303, 307, 308].includes(status) && location) {
        // Its connection is not kept: a redirect's body left to trickle would hold the process.
        res.destroy();
        let next;
        try {
          next = new URL(location, target);
        } catch {
          reject(failed(new Error('the redirect\'s location is not a URL')));
          return;
        }
        if (hops >= MAX_REDIRECTS) {
          reject(failed(new Error('too many redirects')));
          return;
        }
        // To another origin, the caller's headers stay behind (as fetch drops credentials).
        resolve(request(next.href, method, next.origin === target.origin ? headers : {}, undefined, signal, hops + 1));
        return;
      }
      resolve({ status, headers: headersOf(res.headers), body: bodyOf(res, signal) });
    });
    req.end(body);
  });
}

/**
 * `fetch(url, { method, headers, body, signal })` as the client calls it; `init.onSent(ms)`
 * (not fetch's) is told when the request has left (its last byte written).
 * @param {string | URL} url @param {Init} [init]
 */
export function httpFetch(url, init = {}) {
  const method = (init.method ?? 'GET').toUpperCase();
  const body = init.body === undefined || init.body === null ? undefined : String(init.body);
  const onSent = typeof init.onSent === 'function' ? init.onSent : undefined;
  return request(String(url), method, init.headers ?? {}, body, init.signal, 0, onSent);
}

/** The transport `clientOf` gives the client: this one unless LPM_TRANSPORT=fetch. */
export const transport = (env = process.env) => (env.LPM_TRANSPORT === 'fetch' ? undefined : httpFetch);
