import type {
  AddCoursesInput,
  Issue,
  NewUser,
  PageParams,
  SearchUserParams,
  ValidateOptions,
} from "./wasm/lpm_client.js";

export type * from "./wasm/lpm_client.js";
export { Client } from "./wasm/lpm_client.js";
export * from "./errors.js";

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
 * A validator: call it for the issues (empty when the input is good), hand it to a form library
 * as a Standard Schema, or fix its language and strictness with `withOptions`.
 */
export interface Validator<Output> extends StandardSchemaV1<unknown, Output> {
  (value: unknown, options?: ValidateOptions): Issue[];
  withOptions(options: Partial<ValidateOptions>): Validator<Output>;
}

/** A create-multi-user batch: 1 to 100 items, required fields, no duplicate e-mail or username. */
export declare const validateCreateUsers: Validator<NewUser[]>;
/** One account-creation item. */
export declare const validateCreateUser: Validator<NewUser>;
/** get-multi-user's `{start, limit}` (limit 1..100). */
export declare const validateGetUsers: Validator<PageParams>;
/** get-multi-course's `{start, limit}` (limit 0..100). */
export declare const validateGetCourses: Validator<PageParams>;
/** search-user's `{email, username}` (at least one). */
export declare const validateSearchUser: Validator<SearchUserParams>;
/** search-course's title. */
export declare const validateSearchCourses: Validator<string>;
/** An account or course id. */
export declare const validateId: Validator<string>;
/** add-courses' `{users, courses}`. */
export declare const validateAddCourses: Validator<AddCoursesInput>;
/** login's `{email, password}`. */
export declare const validateLogin: Validator<{ email: string; password: string }>;

/** Connects the wasm module to the error classes; the entry points call it. */
export declare function install(): void;
