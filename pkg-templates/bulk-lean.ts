// lpm-client's bulk.js: the bulk engines and their driver are in lpm-client-bulk only; the
// client's importUsers and grantCourses reject with a ConfigError that says so.
import type { BulkFn, SlicesFn } from './internal.js';

export const bulk: BulkFn | undefined = undefined;
export const slices: SlicesFn | undefined = undefined;
