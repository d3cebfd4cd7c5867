// A caller's values and options as the JSON text the core reads, and the driver's own options
// (hooks, logger, headers, interval store) checked before anything is sent.
import type { IntervalStore } from './wasm/lpm_client.js';
import { fromThrown, makeError } from './errors.js';
import { loaded } from './instance.js';
import type { LpmError } from './errors.js';

/**
 * A caller's value as the JSON text the core reads (`undefined` is `null`), or `undefined` when
 * it has none: a cycle, a BigInt, or a non-finite number (JSON.stringify would silently write
 * NaN and Infinity as null, which reads as "absent"; the core then reports `not_json`).
 */
const encoder = new TextEncoder();

/** `toJson` as UTF-8 bytes, the way a long value (a bulk job's rows, a slice) crosses into the
 * wasm: at its exact length (wasm-bindgen's string passing reserves three bytes a character). */
export function jsonBytes(value: unknown): Uint8Array | undefined {
  const text = toJson(value);
  return text === undefined ? undefined : encoder.encode(text);
}

export function toJson(value: unknown): string | undefined {
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
export function optionsJson(options: unknown): string {
  return options === undefined ? 'null' : JSON.stringify(plain(options, 2));
}

/** Runs `fn`, turning what the core throws into the package's error classes. Before the wasm is
 * in (`lpm-client/lazy` before `ready()`), a `ConfigError` (`problem: "notLoaded"`) that says so. */
export function core<T>(fn: () => T): T {
  if (!loaded()) throw makeError('config', 'lpm-client is still loading its WebAssembly: `await ready()` (lpm-client/lazy) before using a client or a validator', { problem: 'notLoaded' });
  try {
    return fn();
  } catch (e) {
    throw fromThrown(e);
  }
}

export function configError(option: string, expected: string): LpmError {
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

export const HOOKS = ['onRequest', 'onResponse', 'onRetry', 'onError'] as const;

/** Checks the driver's own options (hooks, logger, headers, store) of the client or of a call. */
export function driverOptions(given: unknown, client: boolean): { headers?: Record<string, string> | undefined; store?: IntervalStore | undefined } {
  if (given == null || typeof given !== 'object') return {};
  const o = given as Record<string, unknown> & { intervalStore?: Partial<IntervalStore> | null };
  for (const h of HOOKS) if (o[h] !== undefined && typeof o[h] !== 'function') throw configError(h, 'a function');
  if (client && o.logger !== undefined && (o.logger === null || typeof o.logger !== 'object')) throw configError('logger', 'an object with debug/info/warn/error functions (console fits)');
  const store = client ? o.intervalStore : undefined;
  if (store !== undefined && (store === null || typeof store.get !== 'function' || typeof store.set !== 'function')) throw configError('intervalStore', 'an object with get(key) and set(key, atMs)');
  return { headers: headerMap(o.headers, 'headers'), store: store as IntervalStore | undefined };
}
