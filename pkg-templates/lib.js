// What both entry points share: the generated bindings plus the small JS-only parts (error
// classes, async iterators over pages, Standard Schema adapters). `install()` runs once the
// wasm module is instantiated.
import * as wasm from './wasm/lpm_client.js';
import { makeError } from './errors.js';

export {
  LpmError, ValidationError, ApiError, HttpError, DecodeError, NetworkError, TimeoutError,
  AbortError, IntervalError, ConfigError,
} from './errors.js';
export { Client } from './wasm/lpm_client.js';

/** The largest page the list endpoints accept. */
const PAGE = 100;

async function* pages(fetchPage, key, endpoint, options) {
  const signal = options && options.signal;
  let start = 0;
  for (;;) {
    const page = await fetchPage({ start, limit: PAGE }, options);
    const items = page[key];
    for (const item of items) {
      // Stop at once when aborted, not only at the next page's request.
      if (signal && signal.aborted) {
        throw makeError('abort', `${endpoint}: the call was aborted`, { endpoint }, signal.reason);
      }
      yield item;
    }
    if (items.length < PAGE) return;
    start += items.length;
  }
}

wasm.Client.prototype.allUsers = function allUsers(options) {
  return pages((p, o) => this.getUsers(p, o), 'users', 'get-multi-user', options);
};
wasm.Client.prototype.allCourses = function allCourses(options) {
  return pages((p, o) => this.getCourses(p, o), 'courses', 'get-multi-course', options);
};

/** A validator that is also a Standard Schema (`~standard`), with `withOptions` for lang/strictness. */
function schema(run, options) {
  const validate = (value, opts) => run(value, opts === undefined ? options : opts);
  validate['~standard'] = {
    version: 1,
    vendor: 'lpm-client',
    validate(value) {
      const issues = run(value, options);
      return issues.length === 0 ? { value } : { issues };
    },
  };
  validate.withOptions = (opts) => schema(run, { ...(options || {}), ...opts });
  return validate;
}

export const validateCreateUsers = schema(wasm.validateCreateUsers);
export const validateCreateUser = schema(wasm.validateCreateUser);
export const validateGetUsers = schema(wasm.validateGetUsers);
export const validateGetCourses = schema(wasm.validateGetCourses);
export const validateSearchUser = schema(wasm.validateSearchUser);
export const validateSearchCourses = schema(wasm.validateSearchCourses);
export const validateId = schema(wasm.validateId);
export const validateAddCourses = schema(wasm.validateAddCourses);
export const validateLogin = schema(wasm.validateLogin);

let installed = false;
/** Connects the instantiated wasm module to the JS error classes. Idempotent. */
export function install() {
  if (installed) return;
  wasm.__setErrorFactory(makeError);
  installed = true;
}
