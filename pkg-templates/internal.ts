// The package's internal plumbing, as types only (nothing here is shipped): what the driver
// (driver.ts, client.ts) keeps of a client and a call, and the bulk driver's signature.
import type { Hooks, IntervalStore, Logger, PlannedRequest } from './wasm/lpm_client.js';
import type { Core, Pending } from './core.js';

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

/** What the driver reads of a call (`PlannedRequest` in wasm/src/client.rs) and its body, read once
 * when it is planned (core.ts). */
export type Req = PlannedRequest & { body?: string | undefined };

/** An attempt's answer: its status, the body read, the Retry-After in ms (-1: none), headers. */
export interface Answer {
  status: number;
  body: Uint8Array;
  retryAfterMs: number;
  headers: FetchResponse['headers'];
}

/** `raw` of `run` that resolves the final answer unchecked (a bulk job checks it). */
export type AnswerMode = 'answer';

/** The bulk driver's entry (bulk.ts; `undefined` in lpm-client's stub). */
export type BulkFn = (wasm: Core, cfg: Cfg, kind: 'import' | 'grant' | 'sync', name: string, input: unknown, options: unknown) => Promise<unknown>;
