// What every entry point shares (lib.js, bundled from the modules below): the client, its errors,
// validators, interval stores and journals. The entries (index.ts, node.ts, workerd.ts)
// instantiate the wasm their own way through lib.js's default export, and re-export this.
//
//   client.ts     Client: one method per endpoint, paging; records' unlisted keys
//   bulk.ts       bulk jobs (lpm-client-bulk; bulk-lean.ts in lpm-client): types, abort errors, driver
//   driver.ts     a planned call driven to its end (attempts, waits, hooks, errors)
//   transport.ts  one HTTP attempt: fetch, timeout, abort, the body read within its bound
//   options.ts    values and options as the JSON the core reads; the driver's options checked
//   hooks.ts      hooks and the logger; untrusted.ts what user code threw, read safely
//   stores.ts     create intervals kept beyond a call (Web Storage, files, the caller's)
//   schema.ts     validators as Standard Schemas; columns.ts spreadsheet columns
//   limits.ts     the contract's limits and the account fields (generated from the core)
//   errors.ts     the error classes; journal.ts the bulk journals
//   core.ts       the wasm's classes (wasm-bindgen's glue) as the driver uses them; instance.ts its instantiation
export type * from './wasm/lpm_client.js';
export type { ClientError, ErrorKind, InternalError } from './errors.js';
export type { ReasonsByCategory } from './reasons.js';
export type { JournalStore } from './journal.js';

export { memoryJournal, indexedDbJournal } from './journal.js';
/** @internal The entries' way to instantiate the wasm (core.ts). */
export { start as default } from './core.js';

export {
  LpmError, ValidationError, ApiError, HttpError, DecodeError, NetworkError, TimeoutError,
  AbortError, IntervalError, ConfigError, ResponseTooLargeError, isLpmError,
} from './errors.js';
export { Client, ready, unlisted } from './client.js';
export type { ClientWithResponse, ListingSummary, LoginTokenReply, Unlisted, WithResponse } from './client.js';
// lpm-client-bulk's bulk jobs (their types and abort errors); lpm-client's bulk.js has only an
// empty `BulkMethods`.
export * from './bulk.js';
export { fileJournal, fileStore, webStorageStore } from './stores.js';
export { mapColumns } from './columns.js';
export {
  validateAddCourses, validateCreateUser, validateCreateUsers, validateGetCourses,
  validateGetUsers, validateId, validateLogin, validateSearchCourses, validateSearchUser,
} from './schema.js';
export type { Checks, FormIssue, FormOf, StandardSchemaV1, Validator } from './schema.js';
export {
  ACCOUNT_FIELDS, CREATE_INTERVAL_MS, LOGIN_TOKEN_INTERVAL_MS, MAX_ITEMS_PER_CALL, MAX_PAGE,
  REGISTER_INTERVAL_MS, REQUIRED_FIELDS,
} from './limits.js';
