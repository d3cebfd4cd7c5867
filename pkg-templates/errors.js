// The package's error classes. The wasm core throws plain data `{lpmKind, message, data}` (as
// JSON text); `fromThrown` makes it an instance of the class of its kind, so callers can test
// errors with `instanceof`. Messages come from the Rust side, which never puts the token in them.

const RESERVED = new Set(['message', 'cause', 'name', 'stack']);

export class LpmError extends Error {
  constructor(message, data, cause) {
    super(message, cause === undefined ? undefined : { cause });
    if (data && typeof data === 'object') {
      for (const [k, v] of Object.entries(data)) if (!RESERVED.has(k)) this[k] = v;
    }
  }
}
LpmError.prototype.name = 'LpmError';

export class ValidationError extends LpmError {
  constructor(message, data, cause) {
    super(message, data, cause);
    this.issues = (data && data.report && data.report.issues) || [];
    delete /** @type {{ report?: unknown }} */ (this).report;
  }
}
ValidationError.prototype.name = 'ValidationError';

export class ApiError extends LpmError {}
ApiError.prototype.name = 'ApiError';

export class HttpError extends LpmError {}
HttpError.prototype.name = 'HttpError';

export class DecodeError extends LpmError {}
DecodeError.prototype.name = 'DecodeError';

export class NetworkError extends LpmError {}
NetworkError.prototype.name = 'NetworkError';

export class TimeoutError extends LpmError {}
TimeoutError.prototype.name = 'TimeoutError';

export class AbortError extends LpmError {}
AbortError.prototype.name = 'AbortError';

export class IntervalError extends LpmError {
  constructor(message, data, cause) {
    super(message, data, cause);
    this.nextAllowedAt = new Date(data.nextAllowedAt);
  }
}
IntervalError.prototype.name = 'IntervalError';

export class ConfigError extends LpmError {}
ConfigError.prototype.name = 'ConfigError';

export class ResponseTooLargeError extends LpmError {}
ResponseTooLargeError.prototype.name = 'ResponseTooLargeError';

// The class of each kind the core gives. The kinds are defined once, in Rust (`ErrorKind` in
// src/error.rs); scripts/build-pkg.sh type-checks this table against their generated union, so a
// kind added, renamed or dropped there fails the build until it is here.
/** @type {{ [K in import('./wasm/lpm_client.js').CoreErrorKind]: typeof LpmError }} */
const classes = {
  validation: ValidationError,
  api: ApiError,
  http: HttpError,
  decode: DecodeError,
  network: NetworkError,
  timeout: TimeoutError,
  abort: AbortError,
  interval: IntervalError,
  config: ConfigError,
  tooLarge: ResponseTooLargeError,
};

// Every class's own name, as its prototype's `name` says, so it survives minification too.
for (const C of [LpmError, ...Object.values(classes)]) {
  Object.defineProperty(C, 'name', { value: C.prototype.name });
}

/** Builds the error of `kind`. */
export function makeError(kind, message, data, cause) {
  const Class = classes[kind] || LpmError;
  return new Class(message, { ...(data || {}), kind }, cause);
}

/** The error class instance for what the core threw. A trap of the wasm (out of memory, a
 * defect) becomes an `LpmError` of kind `internal` with the trap as its cause (the engine's text,
 * which holds no data); the message is made here, as the trapped core cannot be asked. Anything
 * else (what a caller's getter threw) is passed on as it is. */
export function fromThrown(thrown, cause) {
  // The core throws its data as JSON text; nothing else the wasm runs throws a string.
  if (typeof thrown === 'string') thrown = JSON.parse(thrown);
  if (thrown && typeof thrown === 'object' && typeof thrown.lpmKind === 'string') {
    return makeError(thrown.lpmKind, thrown.message, thrown.data, cause);
  }
  return thrown instanceof WebAssembly.RuntimeError ? internalError(thrown) : thrown;
}

/** The client itself failed (a wasm trap, memory exhausted); `cause` is the engine's error. */
export function internalError(cause) {
  return makeError('internal', `the client failed (${cause && cause.message}); the call did not complete`, {}, cause);
}
