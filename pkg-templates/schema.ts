// Validators: call one for the issues, or hand it to a form library as a Standard Schema.
import * as wasm from './core.js';
import { loaded, whenLoaded } from './core.js';
import type { AddCoursesInput, Issue, NewUser, PageParams, SearchUserParams, ValidateOptions } from './wasm/lpm_client.js';
import { core, optionsJson, toJson } from './options.js';

/** The Standard Schema v1 interface (standardschema.dev), declared here so the package has no dependency. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema's properties: what a form library reads. */
  readonly "~standard": {
    /** The Standard Schema version: 1. */
    readonly version: 1;
    /** Who made the schema: `"lpm-client"`. */
    readonly vendor: string;
    /** Validates `value`: its issues, or the value when it has none. */
    readonly validate: (value: unknown) => StandardSchemaV1.Result<Output> | Promise<StandardSchemaV1.Result<Output>>;
    /** The input and output types, for inference only (absent at run time). */
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
/** The Standard Schema's result and inference types. */
export declare namespace StandardSchemaV1 {
  /** A validation's result: the value, or its issues. */
  type Result<Output> = SuccessResult<Output> | FailureResult;
  /** A value without issues. */
  interface SuccessResult<Output> {
    /** The value, as the schema's output type. */
    readonly value: Output;
    /** Absent: a value without issues. */
    readonly issues?: undefined;
  }
  /** A value with issues. */
  interface FailureResult {
    /** The issues (each with `path` and `message`). */
    readonly issues: ReadonlyArray<Issue>;
  }
  /** A schema's input type (a form's fields). */
  type InferInput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["input"];
  /** A schema's output type (a value without issues). */
  type InferOutput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["output"];
}

/**
 * A validator: call it for the issues of any value (empty when the value is good), hand it to a
 * form library as a Standard Schema, or fix its language and strictness with `withOptions`. Its
 * Standard Schema input is the shape it accepts, so a form library infers the form's fields
 * (`register('emial')` does not compile).
 */
export interface Validator<Output, Input = Output> extends StandardSchemaV1<Input, Output> {
  /** The issues of `value` (empty when it is good), messages in `options.lang`. */
  (value: unknown, options?: ValidateOptions): Issue[];
  /** The same validator with its options fixed (for a form library, which passes none). */
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
    validate(value: unknown): StandardSchemaV1.Result<Output> | Promise<StandardSchemaV1.Result<Output>> {
      const check = (): StandardSchemaV1.Result<Output> => {
        const issues = run(value, options);
        return issues.length === 0 ? { value: value as Output } : { issues };
      };
      // A form may validate before `lpm-client/lazy` has its wasm: the answer waits for it.
      const wait = loaded() ? undefined : whenLoaded();
      return wait ? wait.then(check) : check();
    },
  };
  validate.withOptions = (opts: Partial<ValidateOptions>) => schema<Output>(kind, { ...(options || {}), ...opts });
  return validate;
}

/** A create-multi-user batch: 1 to 100 items, required fields, no duplicate e-mail or username. */
export const validateCreateUsers: Validator<NewUser[]> = schema('createUsers');
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

