// The wasm's classes (wasm-bindgen's generated glue, ./wasm/lpm_client.js, over wasm/src) as the
// driver uses them: a planned call's request read once when it is planned, and its poll as a
// `Step` union. The glue throws a failure's data as JSON text (errors.ts's `fromThrown` reads
// it); a `Core` is freed by `Client.free()` or, for a client dropped without it, by the glue's
// FinalizationRegistry; a `Pending` by the driver when its call ends. Its instantiation is
// instance.ts's.
import { Core, Pending as Planned, afterPage, columnOf, validate } from './wasm/lpm_client.js';
import type { HostFailure, PlannedRequest } from './wasm/lpm_client.js';
import { start as instanceStart } from './instance.js';
import type { Req } from './internal.js';

export { Core, afterPage, columnOf, validate };
export { loaded, whenLoaded } from './instance.js';
export type { HostFailure };

/** What a call does next: send an attempt, wait, or finish (with the answer or failure it has);
 * `record`: first note `now` as the guard key's last send. */
export type Step = { kind: 'send'; record: boolean } | { kind: 'finish'; record: boolean } | { kind: 'wait'; ms: number };

/** A body as JSON.parse reads it: a byte order mark dropped, as the core reads it. */
const utf8 = new TextDecoder();

/** A planned call: what the driver sends (`req`), the core's decisions on its attempts. Freed
 * (`free`) when the driver is done with it. */
export class Pending {
  readonly req: Req;
  #call: Planned | undefined;

  constructor(call: Planned) {
    this.#call = call;
    this.req = JSON.parse(call.request()) as PlannedRequest;
    this.req.body = call.takeBody();
  }

  get #c(): Planned {
    // Used after `free`: the driver's defect, an `internal` error (`core` in options.ts).
    if (!this.#call) throw new Error('the call was freed');
    return this.#call;
  }

  /** What the call does next (`last`: when its guard key last sent, NaN: never); throws an
   * `IntervalError`'s data when the guard refuses. Not asked first when `req.polled`. */
  poll(now: number, last: number): Step {
    const c = this.#c;
    const kind = c.poll(now, last);
    return kind === 'wait' ? { kind, ms: c.waitMs } : { kind, record: c.record };
  }
  /** The attempt's answer: `null` when it is final, else the retry's delay in ms. */
  handleResponse(now: number, status: number, retryAfterMs: number, jitter: number): number | null {
    return this.#c.handleResponse(now, status, retryAfterMs, jitter) ?? null;
  }
  /** The attempt got no answer: `null` when the call gives up, else the retry's delay in ms. */
  handleFailure(now: number, timedOut: boolean, jitter: number): number | null {
    return this.#c.handleFailure(now, timedOut, jitter) ?? null;
  }
  /** The attempt was given up (aborted, or its answer too large): final; the next poll finishes,
   * recording a guarded call's end. */
  giveUp(now: number): void {
    this.#c.giveUp(now);
  }
  /** Checks the final answer: the body as the text JSON.parse reads (the core's ASCII form of it
   * when it has other characters: a one-byte string, parsed much faster) and the derived fields
   * as JSON text, or nothing; throws the error's data. */
  decode(status: number, body: Uint8Array): [string, string | undefined] {
    const c = this.#c;
    const derived = c.decode(status, body);
    return [utf8.decode(c.takeText() ?? body), derived];
  }
  /** The error data (JSON text) of a failure the host saw. */
  failure(kind: HostFailure): string {
    return this.#c.failure(kind);
  }
  /** `text` with the call's token (in any encoding the redactor knows) replaced. */
  redact(text: string): string {
    return this.#c.redact(text);
  }
  free(): void {
    const c = this.#call;
    this.#call = undefined;
    if (c) c.free();
  }
}

/** Plans a call of `core`: the pending call, its request read in the same turn. */
export const plan = (core: Core, method: string, a: string | undefined, b: string | undefined, options: string): Pending =>
  new Pending(core.plan(method, a, b, options));

/** The entries' way to instantiate the wasm (instance.ts), with the generated class for tests of
 * the boundary itself (tests/js-bulk). */
export const start = Object.assign(instanceStart, { Core });
