import type {
  AddCoursesInput,
  AddCoursesReply,
  CallOptions,
  ClientOptions,
  Course,
  CourseList,
  CourseReply,
  CreateOptions,
  CreateUsersReply,
  IntervalStore,
  Issue,
  LoginReply,
  NewUser,
  PageParams,
  RawReply,
  SearchUserParams,
  User,
  UserList,
  UserReply,
  ValidateOptions,
} from "./wasm/lpm_client.js";

export type * from "./wasm/lpm_client.js";
export * from "./errors.js";

/** The typed client of the management API. Every method validates its input first (rejecting
 * with `ValidationError` before anything is sent), and resolves with the endpoint's checked reply
 * or rejects with one of the package's errors. */
export declare class Client {
  /** A client of one platform. Throws `ConfigError` on unusable options. */
  constructor(options: ClientOptions);
  /** The same client with another token (e.g. the one `login` returned). */
  withToken(token: string): Client;
  /** The normalised base URL. */
  readonly baseUrl: string;
  /** Creates 1 to 100 accounts (`users/create-multi-user`). Resolves with one result per item,
   * also when none could be created (code 13). Keeps the contract's 10-minute interval (see
   * `createInterval`); never retried automatically. */
  createUsers(users: NewUser[], options?: CreateOptions): Promise<CreateUsersReply>;
  /** Creates one account through the bulk endpoint (the response of create-single-user is
   * unpublished). Same guard and validation as `createUsers`. */
  createUser(user: NewUser, options?: CreateOptions): Promise<CreateUsersReply>;
  /** The raw `users/create-single-user` call: the envelope as received. Not guarded; never retried. */
  createSingleUserRaw(user: NewUser, options?: CallOptions): Promise<RawReply>;
  /** A page of accounts (`users/get-multi-user`); `start` defaults to 0, `limit` (1..100) to 100. */
  getUsers(params?: PageParams, options?: CallOptions): Promise<UserList>;
  /** One account by id (`users/get-single-user/<id>`). */
  getUser(id: string, options?: CallOptions): Promise<UserReply>;
  /** The token's own account (`users/get-me`). */
  getMe(options?: CallOptions): Promise<UserReply>;
  /** One account by e-mail (tried first) or username (`users/search-user`). */
  searchUser(params: SearchUserParams, options?: CallOptions): Promise<UserReply>;
  /** One course by id (`courses/get-single-course/<id>`). */
  getCourse(id: string, options?: CallOptions): Promise<CourseReply>;
  /** A page of courses (`courses/get-multi-course`); `start` defaults to 0, `limit` (0..100) to 100. */
  getCourses(params?: PageParams, options?: CallOptions): Promise<CourseList>;
  /** Courses whose title matches the keywords (`courses/search-course`). */
  searchCourses(title: string, options?: CallOptions): Promise<CourseList>;
  /** Grants courses to 1 to 100 accounts (`courses/add-multi-course-to-multi-user`). Never retried. */
  addCoursesToUsers(input: AddCoursesInput, options?: CallOptions): Promise<AddCoursesReply>;
  /** Logs in (`users/login-user`) and resolves with the token and its expiry; needs no token. */
  login(email: string, password: string, options?: CallOptions): Promise<LoginReply>;
  /** A one-time site login token for the account `userId` (`users/create-user-login-token`, platform
   * notes): the site logs that account in at `<site>?login_token=<token>`. It logs in as that
   * account: it is never logged, keep it out of yours. Kept at least the platform's advised 5 s
   * apart (see `loginTokenInterval`; `waitForInterval` waits); never retried automatically. */
  createLoginToken(userId: string, options?: CreateOptions): Promise<LoginTokenReply>;
  /** The same client whose methods resolve `{ data, response: { status, headers } }`: the
   * decoded reply beside the final attempt's HTTP status and headers (token redacted). */
  withResponse(): ClientWithResponse;
  /** When the next bulk create of this base URL and token is allowed, or `null` when it is now.
   * With an asynchronous `intervalStore`, as far as this realm has seen. */
  nextCreateAllowedAt(): Date | null;
  /** Every account, page by page with the largest allowed limit. */
  allUsers(options?: CallOptions): AsyncGenerator<User, void, undefined>;
  /** Every course, page by page with the largest allowed limit. */
  allCourses(options?: CallOptions): AsyncGenerator<Course, void, undefined>;
  /** Frees the wasm side now rather than when the garbage collector gets to it. */
  free(): void;
  [Symbol.dispose](): void;
}

/** create-user-login-token's reply: `{ token, tokenExpires, msg }`, login-user's shape. */
export type LoginTokenReply = LoginReply;

/** A reply beside the HTTP answer it came in (`withResponse()`). */
export interface WithResponse<T> {
  data: T;
  /** The final attempt's status and headers (lower-case names; the token redacted from values). */
  response: { status: number; headers: Record<string, string> };
}

/** The methods of `Client` that make one call. */
export type CallMethod =
  | "createUsers" | "createUser" | "createSingleUserRaw" | "getUsers" | "getUser" | "getMe"
  | "searchUser" | "getCourse" | "getCourses" | "searchCourses" | "addCoursesToUsers" | "login"
  | "createLoginToken";

/** `client.withResponse()`: each call method resolves `{ data, response }`. */
export type ClientWithResponse = {
  [K in CallMethod]: Client[K] extends (...args: infer A) => Promise<infer R>
    ? (...args: A) => Promise<WithResponse<R>>
    : never;
};

/** An interval store over Web Storage (`localStorage`, `sessionStorage`): a reload or a second
 * tab keeps the intervals. Keys are prefixed with `prefix` (default `"lpm-client:"`). */
export declare function webStorageStore(
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void },
  prefix?: string,
): IntervalStore;

/** An interval store in a JSON file (Node, Deno, Bun; other runtimes throw ConfigError): a
 * restarted script keeps the intervals. */
export declare function fileStore(path: string): IntervalStore;

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

