// Validators: call one for the issues, or hand it to a form library as a Standard Schema.
import * as wasm from './abi.js';
import type { AddCoursesInput, Issue, NewUser, PageParams, SearchUserParams, ValidateOptions } from './wasm/lpm_client.js';
import { core, optionsJson, toJson } from './options.js';
import { makeError } from './errors.js';
import { slices } from './bulk.js';

/** The Standard Schema v1 interface (standardschema.dev), declared here so the package has no dependency. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardSchemaV1.Result<Output> | Promise<StandardSchemaV1.Result<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
export declare namespace StandardSchemaV1 {
  type Result<Output> = SuccessResult<Output> | FailureResult;
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  type InferInput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["input"];
  type InferOutput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["output"];
}

/**
 * A validator: call it for the issues of any value (empty when the value is good), hand it to a
 * form library as a Standard Schema, or fix its language and strictness with `withOptions`. Its
 * Standard Schema input is the shape it accepts, so a form library infers the form's fields
 * (`register('emial')` does not compile).
 */
export interface Validator<Output, Input = Output> extends StandardSchemaV1<Input, Output> {
  (value: unknown, options?: ValidateOptions): Issue[];
  withOptions(options: Partial<ValidateOptions>): Validator<Output, Input>;
}

/** A validator that is also a Standard Schema (`~standard`), with `withOptions` for lang/strictness.
 * `Output`: what a value without issues is (the core checked it against that shape). */
function schema<Output>(kind: string, options?: Partial<ValidateOptions>): Validator<Output> {
  const run = (value: unknown, opts: unknown): Issue[] => JSON.parse(core(() => wasm.validate(kind, toJson(value), optionsJson(opts))));
  const validate = (value: unknown, opts?: ValidateOptions) => run(value, opts === undefined ? options : opts);
  validate['~standard'] = {
    version: 1 as const,
    vendor: 'lpm-client',
    validate(value: unknown): StandardSchemaV1.Result<Output> {
      const issues = run(value, options);
      return issues.length === 0 ? { value: value as Output } : { issues };
    },
  };
  validate.withOptions = (opts: Partial<ValidateOptions>) => schema<Output>(kind, { ...(options || {}), ...opts });
  return validate;
}

/** A create-multi-user batch: 1 to 100 items, required fields, no duplicate e-mail or username. */
export const validateCreateUsers: Validator<NewUser[]> = schema('createUsers');
/**
 * `validateCreateUsers` of a list too long for one call (a sheet's 100,000 rows), given a slice
 * at a time so the wasm never holds it whole: yields each slice's issues as `validateCreateUsers`
 * gives them for those rows of the whole list (paths counted from the list's first row; a repeat
 * of any earlier row's e-mail or username found, in this slice or an earlier one). The list's own
 * issues (`empty`, `too_many`: about one call) are left out. `rows`, how many rows the slices hold
 * in all when it is known, lets the check make its tables for them at once. Bulk work: in
 * lpm-client-bulk (in lpm-client it throws a ConfigError that says so).
 */
export function validateCreateUsersInSlices(users: Iterable<readonly unknown[]>, options?: ValidateOptions, rows?: number): Generator<Issue[], void, undefined> {
  if (!slices) {
    const expected = 'the lpm-client-bulk package (the bulk engines are not in lpm-client)';
    throw makeError('config', `validateCreateUsersInSlices needs ${expected}`, { problem: 'option', option: 'validateCreateUsersInSlices', expected });
  }
  return slices(users, optionsJson(options), typeof rows === 'number' && rows > 0 && rows < 2 ** 32 ? Math.floor(rows) : 0);
}
/** One account-creation item. */
export const validateCreateUser: Validator<NewUser> = schema('createUser');
/** get-multi-user's `{start, limit}` (limit 1..100). */
export const validateGetUsers: Validator<PageParams> = schema('getUsers');
/** get-multi-course's `{start, limit}` (limit 0..100). */
export const validateGetCourses: Validator<PageParams> = schema('getCourses');
/** search-user's `{email, username}` (at least one). */
export const validateSearchUser: Validator<SearchUserParams> = schema('searchUser');
/** search-course's title. */
export const validateSearchCourses: Validator<string> = schema('searchCourses');
/** An account or course id. */
export const validateId: Validator<string> = schema('id');
/** add-courses' `{users, courses}`. */
export const validateAddCourses: Validator<AddCoursesInput> = schema('addCourses');
/** login's `{email, password}`. */
export const validateLogin: Validator<{ email: string; password: string }> = schema('login');
/** For each spreadsheet header, the `NewUser` field it stands for (Vietnamese or English; case,
 * diacritics and punctuation ignored), or `null`; one alias table, in the core. */
export function mapColumns(headers: readonly string[]): (keyof NewUser | null)[] {
  return Array.from(headers, (h) => ((typeof h === 'string' && wasm.columnOf(h)) || null) as keyof NewUser | null);
}

