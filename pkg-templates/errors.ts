// The package's error classes. The wasm core throws plain data `{lpmKind, message, data}` (as
// JSON text); `fromThrown` makes it an instance of the class of its kind, so callers can test
// errors with `instanceof`. Messages come from the Rust side, which never puts the token in them.
import type { ReasonsByCategory } from './reasons.js';
import type {
  ApiErrorInfo,
  Category,
  ConfigErrorInfo,
  CoreErrorKind,
  DecodeErrorInfo,
  Endpoint,
  GrantReport,
  HttpErrorInfo,
  ImportReport,
  SyncReport,
  Issue,
} from './wasm/lpm_client.js';

/** What went wrong, for a `switch`: the kinds the core gives (defined in Rust), and `"internal"`,
 * a trap of the WebAssembly core (out of memory, a defect) whose `cause` is the trap. */
export type ErrorKind = CoreErrorKind | 'internal';

const RESERVED = new Set(['message', 'cause', 'name', 'stack']);

/** Base class of every error the package throws or rejects with. Never carries the token. */
export class LpmError extends Error {
  /** What went wrong; each kind but `internal` has its class (`api`: `ApiError`, ...). */
  declare readonly kind: ErrorKind;
  /** The endpoint called, where there was one. */
  declare readonly endpoint?: Endpoint;

  /** @internal The package makes its errors (`makeError`): `data`'s members become the error's. */
  constructor(message: string, data?: object, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    if (data && typeof data === 'object') {
      for (const [k, v] of Object.entries(data)) if (!RESERVED.has(k)) (this as Record<string, unknown>)[k] = v;
    }
  }
}

/** The input was refused before anything was sent. */
export class ValidationError extends LpmError {
  declare readonly kind: 'validation';
  declare readonly endpoint: Endpoint;
  /** Every finding, with its path, code, level and message. */
  declare readonly issues: Issue[];

  /** @internal */
  constructor(message: string, data?: { report?: { issues?: Issue[] } }, cause?: unknown) {
    super(message, data, cause);
    this.issues = (data && data.report && data.report.issues) || [];
    delete (this as { report?: unknown }).report;
  }
}

/** The class of `ApiError`, whose type pairs `category` and `reason`. */
class ApiErrorClass extends LpmError {
  declare readonly endpoint: Endpoint;
  declare readonly kind: 'api';
}
interface ApiErrorClass extends Readonly<Omit<ApiErrorInfo, 'kind' | 'endpoint' | 'category' | 'reason'>> {}

/** The server answered with an error `respCode`. Its type is one variant per `category`, whose
 * `reason` is one of that category's (`ReasonsByCategory`, generated from the Rust table), so
 * after `e.category === "authentication"` a check of `e.reason === "emailInUse"` does not compile. */
export type ApiError = {
  [C in Category]: ApiErrorClass & {
    /** What a program can branch on. */
    readonly category: C;
    /** The meaning of the code on this endpoint: one of its category's reasons. */
    readonly reason: ReasonsByCategory[C];
  };
}[Category];
/** The server answered with an error `respCode` (`e instanceof ApiError`). */
export const ApiError = ApiErrorClass as unknown as {
  /** @internal The package makes its errors (`makeError`). */
  new (message: string, data?: object, cause?: unknown): ApiError;
  readonly prototype: ApiError;
};

/** The server answered non-2xx without an API envelope. */
export class HttpError extends LpmError {
  declare readonly endpoint: Endpoint;
  declare readonly kind: 'http';
}
export interface HttpError extends Readonly<Omit<HttpErrorInfo, 'kind' | 'endpoint'>> {}

/** The body does not fit what the endpoint promises; `path` names where. */
export class DecodeError extends LpmError {
  declare readonly endpoint: Endpoint;
  declare readonly kind: 'decode';
}
export interface DecodeError extends Readonly<Omit<DecodeErrorInfo, 'kind' | 'endpoint'>> {}

/** The request did not complete; `cause` is the host's error. */
export class NetworkError extends LpmError {
  declare readonly kind: 'network';
  declare readonly endpoint: Endpoint;
}

/** No complete answer within `timeoutMs` (after any retries). */
export class TimeoutError extends LpmError {
  declare readonly kind: 'timeout';
  declare readonly endpoint: Endpoint;
  /** The per-attempt timeout that ran out, in ms. */
  declare readonly timeoutMs: number;
}

/** The caller's AbortSignal fired; `cause` is its reason. */
export class AbortError extends LpmError {
  declare readonly kind: 'abort';
  /** The call's endpoint (absent for a bulk job). */
  declare readonly endpoint?: Endpoint;
  /** A bulk job (`importUsers`, `grantCourses`, `syncAccounts`): its rows as they stood; the
   * journal resumes it. */
  declare readonly report?: ImportReport | GrantReport | SyncReport;
}

/** A bulk create inside the contract's 10-minute interval. */
export class IntervalError extends LpmError {
  declare readonly kind: 'interval';
  declare readonly endpoint: Endpoint;
  /** When the next bulk create is allowed. */
  declare readonly nextAllowedAt: Date;
  /** Milliseconds until then. */
  declare readonly waitMs: number;

  /** @internal */
  constructor(message: string, data: { nextAllowedAt: number }, cause?: unknown) {
    super(message, data, cause);
    this.nextAllowedAt = new Date(data.nextAllowedAt);
  }
}

/** The client's options cannot be used. */
export class ConfigError extends LpmError {
  declare readonly kind: 'config';
  /** What cannot be used: the `baseUrl`, the `token`, a call that needs a token without one
   * (`noToken`), an `option`, a bulk job's `journal`, or `notLoaded`: the package's
   * WebAssembly is not loaded yet (`lpm-client/lazy`: `await ready()` first). */
  declare readonly problem: ConfigErrorInfo['problem'] | 'notLoaded';
  /** For `problem: "option"`: the option's name. */
  declare readonly option?: string;
  /** For `problem: "option"`: what the option must be. */
  declare readonly expected?: string;
  /** For `problem: "baseUrl"`: why it cannot be used; for `problem: "token"`: `"empty"`,
   * `"character"` (outside `A-Z a-z 0-9 - . _ ~`) or `"tooShort"` (fewer than 8). */
  declare readonly reason?: string;
}

/** The response body is larger than the client's `maxResponseBytes`; it was not read (further). */
export class ResponseTooLargeError extends LpmError {
  declare readonly kind: 'tooLarge';
  declare readonly endpoint: Endpoint;
  /** The client's bound, in bytes. */
  declare readonly maxResponseBytes: number;
}

/** A failure of the client itself (a WebAssembly trap, memory exhausted); `cause` is the engine's
 * error. An `LpmError`, with no class of its own. */
export type InternalError = LpmError & { readonly kind: 'internal' };

/** Every error the package throws or rejects with, as one union whose `kind` tells them apart:
 * after `isLpmError(e)`, `switch (e.kind) { case 'api': e.category }` narrows to each class. */
export type ClientError =
  | ValidationError | ApiError | HttpError | DecodeError | NetworkError | TimeoutError | AbortError
  | IntervalError | ConfigError | ResponseTooLargeError | InternalError;

/** Whether `e` is one of the package's errors, typed as their union (`ClientError`) so that a
 * `switch` on its `kind` narrows. */
export const isLpmError = (e: unknown): e is ClientError => e instanceof LpmError;

// The class of each kind the core gives. The kinds are defined once, in Rust (`ErrorKind` in
// src/error.rs); this table's type is their generated union, so a kind added, renamed or dropped
// there fails the build until it is here.
const classes: { [K in CoreErrorKind]: typeof LpmError } = {
  validation: ValidationError,
  api: ApiErrorClass,
  http: HttpError,
  decode: DecodeError,
  network: NetworkError,
  timeout: TimeoutError,
  abort: AbortError,
  interval: IntervalError,
  config: ConfigError,
  tooLarge: ResponseTooLargeError,
};

// Every class's name, its own and its prototype's (the instances' `name`), written out so that
// it survives minification; in the order of `classes`, after their base.
const NAMES = 'LpmError ValidationError ApiError HttpError DecodeError NetworkError TimeoutError AbortError IntervalError ConfigError ResponseTooLargeError'.split(' ');
[LpmError, ...Object.values(classes)].forEach((C, i) => {
  Object.defineProperty(C, 'name', { value: (C.prototype.name = NAMES[i]!) });
});

/** @internal Builds the error of `kind` (`internal`: a trap; any other: its class). */
export function makeError(kind: ErrorKind, message: string, data?: object, cause?: unknown): LpmError {
  const Class = (classes as Partial<Record<ErrorKind, typeof LpmError>>)[kind] || LpmError;
  return new Class(message, { ...(data || {}), kind }, cause);
}

/** What the core throws (as JSON text): its error kind, message and data. */
interface CoreData {
  lpmKind: ErrorKind;
  message: string;
  data?: object;
}
const isCoreData = (v: unknown): v is CoreData =>
  v !== null && typeof v === 'object' && typeof (v as { lpmKind?: unknown }).lpmKind === 'string';

/** What wasm-bindgen's glue throws when an object is used after it was freed or while a trap left
 * it borrowed (and core.ts for a freed call): the client's own failure, as a trap is. */
const GLUE = /^(null pointer passed to rust|recursive use of an object|attempted to take ownership|the call was freed)/;

/** @internal The error class instance for what the core threw. A trap of the wasm (out of
 * memory, a defect) or the glue's refusal of a freed or borrowed object (`GLUE`) becomes an
 * `LpmError` of kind `internal` with it as its cause (the engine's text, which holds no data);
 * the message is made here, as the trapped core cannot be asked. Anything else (what a caller's
 * getter threw) is passed on as it is. */
export function fromThrown(thrown: unknown, cause?: unknown): unknown {
  // The core throws its data as JSON text; nothing else the wasm runs throws a string.
  if (typeof thrown === 'string') thrown = JSON.parse(thrown);
  if (isCoreData(thrown)) return makeError(thrown.lpmKind, thrown.message, thrown.data, cause);
  return thrown instanceof WebAssembly.RuntimeError || (thrown instanceof Error && GLUE.test(thrown.message)) ? internalError(thrown) : thrown;
}

/** @internal The client itself failed (a wasm trap, memory exhausted); `cause` is the engine's error. */
export function internalError(cause: unknown): LpmError {
  return makeError('internal', `the client failed (${cause && (cause as Error).message}); the call did not complete`, {}, cause);
}
