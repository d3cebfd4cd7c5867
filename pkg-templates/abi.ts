// The wasm's boundary, by hand (wasm/src/abi.rs is the other side; ARCHITECTURE.md says why it
// replaced wasm-bindgen's generated glue): texts in and out of the instance's memory, and the
// core's objects as the driver (driver.ts) uses them (bundled into lib.js; the entries instantiate
// the wasm and hand the instance to `start`). Only numbers cross: arguments are written into
// a buffer the wasm keeps (`lpm_args`) and passed as lengths (-1: absent); a text result is read
// where the result area (`lpm_result`) says; a failure is a status (-1, a handle 0, a time -9)
// with the error's data as the text result, thrown as that text (errors.ts's `fromThrown` parses
// it). Handles never leave this module and the driver: a `Pending` is freed when its call ends, a
// `Core` by `Client.free()` or, for a client dropped without it, a FinalizationRegistry.
import type { Req } from './internal.js';

/** The exports of wasm/src/abi.rs (the bulk ones: abi-bulk.ts). */
export interface Exports {
  memory: WebAssembly.Memory;
  lpm_args(len: number): number;
  lpm_result(): number;
  lpm_core_new(options: number, base: number): number;
  lpm_core_with_token(core: number, token: number): number;
  lpm_core_free(core: number): void;
  lpm_core_text(core: number, which: number): number;
  lpm_core_next_create_allowed_at(core: number, now: number, last: number): number;
  lpm_plan(core: number, method: number, a: number, b: number, options: number): number;
  lpm_pending_free(pending: number): void;
  lpm_pending_poll(pending: number, now: number, last: number): number;
  lpm_pending_handle(pending: number, now: number, status: number, retryAfterMs: number, jitter: number, timedOut: number): number;
  lpm_pending_decode(pending: number, status: number, body: number, utf8: number): number;
  lpm_ascii(text: number): number;
  lpm_pending_failure(pending: number, kind: number): number;
  lpm_pending_redact(pending: number, text: number): number;
  lpm_validate(kind: number, value: number, options: number): number;
  lpm_column_of(header: number): number;
  [bulk: string]: unknown;
}

export let w: Exports;

/** The wasm's instance (it imports nothing), as an entry made it; once: later calls, with it or
 * without, give the first's exports (without, before any: `undefined`). lib.js's default export,
 * for the entries (node.ts, index.ts, workerd.ts) only: their `export *` leaves a default out. */
export const start = (instance?: WebAssembly.Instance): Exports => (w ||= instance?.exports as unknown as Exports);

/** The memory's bytes, and the result area's two u32 (address, length) and a new pending call's
 * numbers (`Pending::describe`); views made anew when the memory grows (which detaches the old). */
let bytes = new Uint8Array();
let area = new Uint32Array();
let nums = new Float64Array();

const encoder = new TextEncoder();
// ignoreBOM: a text that starts with U+FEFF keeps it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
/** A body as JSON.parse reads it: a byte order mark dropped, as the core reads it. */
const utf8 = new TextDecoder();

function memory(): Uint8Array {
  // A grown memory detaches the old views; another instance (an init again) has another buffer.
  if (bytes.buffer !== w.memory.buffer) {
    bytes = new Uint8Array(w.memory.buffer);
    area = new Uint32Array(w.memory.buffer, w.lpm_result(), 2);
    nums = new Float64Array(w.memory.buffer, w.lpm_result() + 8, 3);
  }
  return bytes;
}

/** Writes the texts for the next export; their lengths in bytes (-1: absent). */
export function args(...texts: (string | undefined)[]): number[] {
  let room = 0;
  for (const t of texts) if (t !== undefined) room += t.length * 3;
  // Past what the wasm's 32-bit memory can hold: as the trap a full memory is (an `internal` error).
  if (room > 0xffffffff) throw new WebAssembly.RuntimeError('arguments too large');
  let at = w.lpm_args(room);
  const m = memory();
  return texts.map((t) => {
    if (t === undefined) return -1;
    // A short text is copied by hand while it is ASCII (a method's name, a page's parameters,
    // `null` options): for a few dozen characters that is cheaper than a call into the host's
    // encodeInto and the view it needs. Anything else, or the rest, goes through encodeInto.
    let n = 0;
    if (t.length < 64) for (let c; n < t.length && (c = t.charCodeAt(n)) < 128; n++) m[at + n] = c;
    if (n < t.length) n = encoder.encodeInto(t, m.subarray(at, at + t.length * 3)).written!;
    at += n;
    return n;
  });
}

/** Writes bytes for the next export; their length. */
export function argBytes(b: Uint8Array): number {
  const at = w.lpm_args(b.length);
  memory().set(b, at);
  return b.length;
}

/** The last text result. */
export function text(): string {
  memory();
  return decoder.decode(bytes.subarray(area[0]!, area[0]! + area[1]!));
}

/** Throws the error's data the last export left as its text result. */
export function fail(): never {
  throw text();
}

/** A time's result (`ERR_TIME` in abi.rs): the time, or the error thrown (-9). */
export function time(r: number): number {
  if (r === -9) fail();
  return r;
}

/** A status's result: the text (1), nothing (0), or the error thrown (-1). */
export function result(status: number): string | undefined {
  if (status < 0) fail();
  return status > 0 ? text() : undefined;
}

const cores = new FinalizationRegistry<number>((h) => w.lpm_core_free(h));

/** A client's core (options, planning, the guard); `h` its handle. */
export class Core {
  h: number;
  constructor(h: number) {
    if (h === 0) fail();
    this.h = h;
    cores.register(this, h, this);
  }
  /** The same core with another token (`undefined`: the caller's is not a string). */
  withToken(token: string | undefined): Core {
    return new Core(w.lpm_core_with_token(this.h, args(token)[0]!));
  }
  get baseUrl(): string {
    return result(w.lpm_core_text(this.h, 0))!;
  }
  /** The interval store's key of this client's bulk creates. */
  get guardKey(): string {
    return result(w.lpm_core_text(this.h, 1))!;
  }
  nextCreateAllowedAt(now: number, last: number): number {
    return w.lpm_core_next_create_allowed_at(this.h, now, last);
  }
  /** Plans a call: the pending call with its description, in one crossing. */
  plan(method: string, a: string | undefined, b: string | undefined, options: string): Pending {
    const l = args(method, a, b, options);
    return pending(w.lpm_plan(this.h, l[0]!, l[1]!, l[2]!, l[3]!));
  }
  free(): void {
    if (this.h !== 0) {
      cores.unregister(this);
      w.lpm_core_free(this.h);
      this.h = 0;
    }
  }
}

/** A client core of the options (JSON text) and the guard's base URL. */
export const newCore = (options: string, guardBase: string | undefined): Core => {
  const l = args(options, guardBase);
  return new Core(w.lpm_core_new(l[0]!, l[1]!));
};

/** The pending call of a handle an export just gave, with its description (`Pending::describe` in
 * wasm/src/client.rs): the text result `endpoint \n url \n guardKey` (empty: none) then `\n body`
 * if any (the body, last, may hold newlines), and the numbers `[timeoutMs, maxResponseBytes,
 * flags]` (its `POST` 1, `TOKEN` 2, `POLLED` 4). */
export function pending(h: number): Pending {
  if (h === 0) fail();
  const t = text();
  const a = t.indexOf('\n');
  const b = t.indexOf('\n', a + 1);
  const c = t.indexOf('\n', b + 1);
  const f = nums[2]!;
  return new Pending(h, {
    endpoint: t.slice(0, a) as Req['endpoint'], method: f & 1 ? 'POST' : 'GET', url: t.slice(a + 1, b),
    body: c < 0 ? undefined : t.slice(c + 1), timeoutMs: nums[0]!, maxResponseBytes: nums[1]!,
    hasToken: (f & 2) > 0, guardKey: t.slice(b + 1, c < 0 ? t.length : c) || undefined, polled: (f & 4) > 0,
  });
}

/** What a call does next, as `Pending::poll` decides: send an attempt, wait, or finish (with the
 * answer or failure it has); `record`: first note `now` as the guard key's last send. */
export type Step = { kind: 'send'; record: boolean } | { kind: 'finish'; record: boolean } | { kind: 'wait'; ms: number };

/** The codes `Pending::poll` answers with (wasm/src/client.rs) besides a wait in ms. */
const SEND = -1;
const FINISH = -2;
const SEND_RECORD = -3;
const FINISH_RECORD = -4;

function step(code: number): Step {
  switch (code) {
    case SEND: return { kind: 'send', record: false };
    case SEND_RECORD: return { kind: 'send', record: true };
    case FINISH: return { kind: 'finish', record: false };
    case FINISH_RECORD: return { kind: 'finish', record: true };
    default: return { kind: 'wait', ms: code };
  }
}

/** `lpm_pending_handle`'s answer: -1 final, else the retry's delay in ms. */
const delay = (code: number): number | null => (code < 0 ? null : code);

/** How an attempt failed, by the index the core knows them by. */
const FAILURES = ['network', 'timeout', 'abort', 'tooLarge'] as const;
export type HostFailure = (typeof FAILURES)[number];
export const failureCode = (kind: HostFailure): number => FAILURES.indexOf(kind);

/** A planned call: what the driver sends (`req`), the core's decisions on its attempts. Freed
 * (`free`) when the driver is done with it. */
export class Pending {
  constructor(public h: number, public req: Req) {}
  /** What the call does next (`last`: when its guard key last sent, NaN: never); throws an
   * `IntervalError`'s data when the guard refuses. Not asked first when `req.polled`. */
  poll(now: number, last: number): Step {
    return step(time(w.lpm_pending_poll(this.h, now, last)));
  }
  /** The attempt's answer: `null` when it is final, else the retry's delay in ms. */
  handleResponse(now: number, status: number, retryAfterMs: number, jitter: number): number | null {
    return delay(w.lpm_pending_handle(this.h, now, status, retryAfterMs, jitter, -1));
  }
  /** The attempt got no answer: `null` when the call gives up, else the retry's delay in ms. */
  handleFailure(now: number, timedOut: boolean, jitter: number): number | null {
    return delay(w.lpm_pending_handle(this.h, now, 0, 0, jitter, timedOut ? 1 : 0));
  }
  /** Checks the final answer: the body as the text JSON.parse reads (the core's ASCII form of
   * it when it has other characters: a one-byte string, decoded much faster) and the derived
   * fields as JSON text, or nothing; throws the error's data. */
  decode(status: number, body: Uint8Array): [string, string | undefined] {
    const n = argBytes(body);
    // The ASCII form, read before the check replaces the text result; the check then reads the
    // same arguments, their UTF-8 known from it.
    const r = w.lpm_ascii(n);
    return [r > 0 ? text() : utf8.decode(body), result(w.lpm_pending_decode(this.h, status, n, r + 1))];
  }
  /** The error data (JSON text) of a failure the host saw. */
  failure(kind: HostFailure): string {
    return result(w.lpm_pending_failure(this.h, failureCode(kind)))!;
  }
  redact(t: string): string {
    return result(w.lpm_pending_redact(this.h, args(t)[0]!))!;
  }
  free(): void {
    if (this.h !== 0) w.lpm_pending_free(this.h);
    this.h = 0;
  }
}

/** The issues (JSON text) of the validator `kind` for a value's JSON text (or none). */
export function validate(kind: string, value: string | undefined, options: string): string {
  const l = args(kind, value, options);
  return result(w.lpm_validate(l[0]!, l[1]!, l[2]!))!;
}

/** The `NewUser` field a spreadsheet header stands for. */
export const columnOf = (header: string): string | undefined => result(w.lpm_column_of(args(header)[0]!));

