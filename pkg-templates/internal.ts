// The package's internal plumbing, as types only (nothing here is shipped): what the driver
// (driver.ts, client.ts) keeps of a client and a call, and the `machinery` a client hands the bulk driver.
import type { Endpoint, Hooks, IntervalStore, Issue, Logger } from './wasm/lpm_client.js';
import type { Core, Pending } from './abi.js';
import type { LpmError } from './errors.js';

/** A client's settings the driver uses (the core keeps the rest). */
export interface Cfg {
  fetch?: FetchFn;
  headers?: Record<string, string>;
  store?: IntervalStore;
  hooks: Hooks;
  logger?: Logger;
}

/** The fetch as the driver calls it: a response may have a body stream (a custom fetch's may not). */
export type FetchFn = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal }) => Promise<FetchResponse>;
export interface FetchResponse {
  status: number;
  /** A browser's `'cors'` or `'opaque'`: headers beyond the safelisted ones are hidden. */
  type?: string;
  headers?: { get(name: string): string | null; forEach?(fn: (value: string, name: string) => void): void };
  body?: ReadableStream<Uint8Array> | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** What the driver reads of a call (`Pending::describe` in wasm/src/client.rs), which comes with
 * it from `Core.plan`. */
export interface Req {
  endpoint: Endpoint;
  method: 'GET' | 'POST';
  /** Holds the token: for the fetch only. */
  url: string;
  body?: string | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
  hasToken: boolean;
  guardKey?: string | undefined;
  /** Its first poll was made at planning (an unguarded call's: it can only say send). */
  polled: boolean;
}

/** An attempt's answer: its status, the body read, the Retry-After in ms (-1: none), headers. */
export interface Answer {
  status: number;
  body: Uint8Array;
  retryAfterMs: number;
  headers: FetchResponse['headers'];
}

/** `raw` of `run` that resolves the final answer unchecked (a bulk job checks it). */
export type AnswerMode = 'answer';

/** What of a client the bulk driver uses: its core and settings, and the call machinery. */
export interface Machinery {
  core: Core;
  cfg: Cfg;
  run(cfg: Cfg, plan: () => Pending, options: { signal?: AbortSignal | undefined }, raw: AnswerMode): Promise<Answer>;
  ANSWER: AnswerMode;
  pause(ms: number, signal: AbortSignal | undefined, onAbort: () => unknown): Promise<void>;
  lastSent(store: IntervalStore | undefined, key: string): number | Promise<number>;
  seen: Map<string, number>;
  storeError(op: string, e: unknown, redact: (text: unknown) => string): LpmError;
  toJson(value: unknown): string | undefined;
  configError(option: string, expected: string): LpmError;
  internalError(cause: unknown): LpmError;
  guard<T>(fn: () => T): T;
}

/** The bulk driver's entry (bulk.ts; `undefined` in lpm-client's stub). */
export type BulkFn = (m: Machinery, kind: 'import' | 'grant', name: string, input: unknown, options: unknown) => Promise<unknown>;
/** The bulk module's `validateCreateUsersInSlices` (schema.ts): `options` the validators' as JSON
 * text, `rows` how many rows in all (0: not known). */
export type SlicesFn = (slices: Iterable<unknown>, options: string, rows: number) => Generator<Issue[], void, undefined>;
