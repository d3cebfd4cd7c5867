// lpm-client's bulk.js: the bulk engines and their driver are in lpm-client-bulk only; the
// client's importUsers and grantCourses reject with a ConfigError that says so, and its types
// declare neither.
import type { BulkFn } from './internal.js';

/** lpm-client-bulk's bulk jobs (`importUsers`, `grantCourses`): none in lpm-client. */
export interface BulkMethods {}

/** @internal The client's bulk driver: none. */
export default undefined as BulkFn | undefined;
