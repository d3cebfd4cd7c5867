// Validators: call one for the issues, or hand it to a form library as a Standard Schema.
import { validate as validateIn } from './wasm/lpm_client.js';
import { loaded, whenLoaded } from './instance.js';
import type { AddCoursesInput, Issue, Lang, NewUser, PageParams, PathSegment, SearchUserParams, ValidateOptions } from './wasm/lpm_client.js';
import { core, optionsJson, toJson } from './options.js';

/** The Standard Schema v1 interface (standardschema.dev), declared here so the package has no dependency. */
export interface StandardSchemaV1<Input = unknown, Output = Input, I = Issue> {
  /** The Standard Schema's properties: what a form library reads. */
  readonly "~standard": {
    /** The Standard Schema version: 1. */
    readonly version: 1;
    /** Who made the schema: `"lpm-client"`. */
    readonly vendor: string;
    /** Validates `value`: its issues, or the value when it has none. */
    readonly validate: (value: unknown) => StandardSchemaV1.Result<Output, I> | Promise<StandardSchemaV1.Result<Output, I>>;
    /** The input and output types, for inference only (absent at run time). */
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
/** The Standard Schema's result and inference types. */
export declare namespace StandardSchemaV1 {
  /** A validation's result: the value, or its issues. */
  type Result<Output, I = Issue> = SuccessResult<Output> | FailureResult<I>;
  /** A value without issues. */
  interface SuccessResult<Output> {
    /** The value, as the schema's output type. */
    readonly value: Output;
    /** Absent: a value without issues. */
    readonly issues?: undefined;
  }
  /** A value with issues. */
  interface FailureResult<I = Issue> {
    /** The issues (each with `path` and `message`). */
    readonly issues: ReadonlyArray<I>;
  }
  /** A schema's input type (a form's fields). */
  type InferInput<S extends StandardSchemaV1<any, any, any>> = NonNullable<S["~standard"]["types"]>["input"];
  /** A schema's output type (a value without issues). */
  type InferOutput<S extends StandardSchemaV1<any, any, any>> = NonNullable<S["~standard"]["types"]>["output"];
}

/**
 * A validator: call it for the issues of any value (empty when the value is good), hand it to a
 * form library as a Standard Schema, fix its language and strictness with `withOptions`, or add
 * a form's own fields and checks with `extend`. Its Standard Schema input is the shape it
 * accepts, so a form library infers the form's fields (`register('emial')` does not compile).
 * `I`: its issues' type (`Issue`, and `FormIssue` once extended).
 */
export interface Validator<Output, Input = Output, I extends Issue | FormIssue = Issue> extends StandardSchemaV1<Input, Output, I> {
  /** The issues of `value` (empty when it is good), messages in `options.lang`. */
  (value: unknown, options?: ValidateOptions): I[];
  /** The same validator with its options fixed (for a form library, which passes none). */
  withOptions(options: Partial<ValidateOptions>): Validator<Output, Input, I>;
  /**
   * The same validator with a form's own fields: each key of `checks` is a field the platform
   * does not take (`confirmPassword`), left out before the package's rules see the value, and
   * checked by its function, which returns a message (or nothing when the field is good).
   * @param checks For each added field, `(value, form, lang) => message | undefined`.
   * @returns A validator of the form: the package's issues, then the added fields' (`code: "form"`).
   * @example
   * ```ts
   * const signUp = validateCreateUser.extend({
   *   confirmPassword: (value: string, form) => (value === form.password ? undefined : "The passwords differ"),
   * });
   * ```
   */
  extend<Extra extends object>(checks: Checks<FormOf<Output>, Extra>): Validator<Output & Extra, Input & Extra, I | FormIssue>;
}

/** A finding of a check a form added (`Validator.extend`): its field's path and the check's message. */
export interface FormIssue {
  /** The added field (`["confirmPassword"]`). */
  path: PathSegment[];
  /** Always `"form"`: a check of the form's own. */
  code: 'form';
  /** Always `"form"`. */
  level: 'form';
  /** What the check returned. */
  message: string;
}

/** The form as a check of `extend` sees it: the validator's shape, any other field `unknown`.
 * (Not the added fields' types: those are inferred from the checks.) */
export type FormOf<Output> = Output & { readonly [field: string]: unknown };

/** The checks of a form's added fields (`Validator.extend`): for each, its value, the whole form
 * and the language asked for give a message, or nothing when the field is good. */
export type Checks<Form, Extra> = {
  [K in keyof Extra]: (value: Extra[K], form: Form, lang: Lang) => string | undefined | null | false;
};

type Run<I> = (value: unknown, opts: Partial<ValidateOptions> | undefined) => I[];

/** A validator of `run` that is also a Standard Schema (`~standard`), with `withOptions` and
 * `extend`. `Output`: what a value without issues is (the core checked it against that shape). */
function schema<Output, I extends Issue | FormIssue>(run: Run<I>, options?: Partial<ValidateOptions>): Validator<Output, Output, I> {
  const validate = (value: unknown, opts?: ValidateOptions) => run(value, opts === undefined ? options : opts);
  validate['~standard'] = {
    version: 1 as const,
    vendor: 'lpm-client',
    validate(value: unknown): StandardSchemaV1.Result<Output, I> | Promise<StandardSchemaV1.Result<Output, I>> {
      const check = (): StandardSchemaV1.Result<Output, I> => {
        const issues = run(value, options);
        return issues.length === 0 ? { value: value as Output } : { issues };
      };
      // A form may validate before `lpm-client/lazy` has its wasm: the answer waits for it.
      const wait = loaded() ? undefined : whenLoaded();
      return wait ? wait.then(check) : check();
    },
  };
  validate.withOptions = (opts: Partial<ValidateOptions>) => schema<Output, I>(run, { ...(options || {}), ...opts });
  validate.extend = <Extra extends object>(checks: Checks<FormOf<Output>, Extra>) => {
    const added = Object.keys(checks) as (keyof Extra & string)[];
    const both: Run<I | FormIssue> = (value, opts) => {
      if (!value || typeof value != 'object') return run(value, opts);
      const form = value as Record<string, unknown>;
      const rest = { ...form };
      for (const k of added) delete rest[k];
      const issues: (I | FormIssue)[] = run(rest, opts);
      const lang: Lang = opts?.lang || 'en';
      for (const k of added) {
        const message = checks[k](form[k] as Extra[typeof k], form as FormOf<Output>, lang);
        if (message) issues.push({ path: [k], code: 'form', level: 'form', message });
      }
      return issues;
    };
    return schema<Output & Extra, I | FormIssue>(both, options);
  };
  return validate as Validator<Output, Output, I>;
}

/** The package's validator `kind` (`wasm/src/validators.rs`). */
const rules = <Output>(kind: string): Validator<Output> =>
  schema<Output, Issue>((value, opts) => JSON.parse(core(() => validateIn(kind, toJson(value), optionsJson(opts)))));

/** A create-multi-user batch: 1 to 100 items, required fields, no duplicate e-mail or username. */
export const validateCreateUsers: Validator<NewUser[]> = rules('createUsers');
/** One account-creation item. */
export const validateCreateUser: Validator<NewUser> = rules('createUser');
/** get-multi-user's `{start, limit}` (limit 1..100). */
export const validateGetUsers: Validator<PageParams> = rules('getUsers');
/** get-multi-course's `{start, limit}` (limit 0..100). */
export const validateGetCourses: Validator<PageParams> = rules('getCourses');
/** search-user's `{email, username}` (at least one). */
export const validateSearchUser: Validator<SearchUserParams> = rules('searchUser');
/** search-course's title. */
export const validateSearchCourses: Validator<string> = rules('searchCourses');
/** An account or course id. */
export const validateId: Validator<string> = rules('id');
/** add-courses' `{users, courses}`. */
export const validateAddCourses: Validator<AddCoursesInput> = rules('addCourses');
/** login's `{email, password}`. */
export const validateLogin: Validator<{ email: string; password: string }> = rules('login');
