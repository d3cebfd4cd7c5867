// What every entry point shares (lib.js, bundled from the modules below): the client, its errors,
// validators, interval stores and journals. The entries (index.ts, node.ts, workerd.ts)
// instantiate the wasm their own way, hand it to lib.js's default export, and re-export this.
//
//   client.ts     Client: one method per endpoint, paging, bulk jobs
//   driver.ts     a planned call driven to its end (attempts, waits, hooks, errors)
//   transport.ts  one HTTP attempt: fetch, timeout, abort, the body read within its bound
//   options.ts    values and options as the JSON the core reads; the driver's options checked
//   hooks.ts      hooks and the logger; untrusted.ts what user code threw, read safely
//   stores.ts     create intervals kept beyond a call (Web Storage, files, the caller's)
//   schema.ts     validators as Standard Schemas; spreadsheet columns
//   errors.ts     the error classes; journal.ts the bulk journals; abi.ts the wasm's boundary
export type * from './wasm/lpm_client.js';
export type { ClientError, ErrorKind, InternalError } from './errors.js';
export type { JournalStore } from './journal.js';

export { memoryJournal, indexedDbJournal } from './journal.js';
/** @internal The entries' way to hand lib.js the wasm's instance (abi.ts). */
export { start as default } from './abi.js';

export {
  LpmError, ValidationError, ApiError, HttpError, DecodeError, NetworkError, TimeoutError,
  AbortError, IntervalError, ConfigError, ResponseTooLargeError, isLpmError,
} from './errors.js';
export { Client } from './client.js';
export type {
  BulkDriverOptions, ClientWithResponse, GrantCoursesOptions, ImportUsersOptions, LoginTokenReply,
  WithResponse,
} from './client.js';
export { fileJournal, fileStore, webStorageStore } from './stores.js';
export {
  mapColumns, validateAddCourses, validateCreateUser, validateCreateUsers, validateGetCourses,
  validateGetUsers, validateId, validateLogin, validateSearchCourses, validateSearchUser,
  validateCreateUsersInSlices,
} from './schema.js';
export type { StandardSchemaV1, Validator } from './schema.js';
