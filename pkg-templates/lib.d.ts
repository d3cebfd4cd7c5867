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
  GrantOptions,
  GrantReport,
  ImportOptions,
  ImportReport,
  IntervalStore,
  JournalEvent,
  Progress,
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
  /**
   * Imports any number of accounts (bulk work beyond 100 rows): rows with contract-level issues
   * and repeats are set aside (never blocking the others), the rest are created in chunks of at
   * most `chunkSize` (100), one create call per create interval (the contract's 10 minutes,
   * also kept against this client's other creates). Every event is appended to `journal` before
   * the request it announces leaves, so a job interrupted anywhere (a killed process, a closed
   * laptop, a dropped connection) resumes from the same rows and journal without creating an
   * account twice: rows whose answer was lost are looked up (`search-user`) before anything is
   * sent again. Resolves with a report of every row; rejects with `ConfigError` on unusable
   * options or a journal of another input, and with `AbortError` when `signal` fires (its
   * `report` holds the rows as they stood; the journal resumes them).
   */
  importUsers(rows: readonly unknown[], options?: ImportUsersOptions): Promise<ImportReport>;
  /** Grants `courses` to any number of accounts: add-courses in chunks of at most 100 accounts,
   * journaled and resumable like `importUsers` (a chunk whose answer was lost is sent again:
   * granting twice is harmless). */
  grantCourses(input: { users: readonly unknown[]; courses: readonly string[] }, options?: GrantCoursesOptions): Promise<GrantReport>;
  /** Frees the wasm side now rather than when the garbage collector gets to it. */
  free(): void;
  [Symbol.dispose](): void;
}

/** Where a bulk job's events are kept: `load` gives back every event appended so far, in order
 * (empty for a new job), `append` stores events durably (flushed) before it resolves. A job
 * started with a journal that holds events resumes from them. */
export interface JournalStore {
  load(): readonly JournalEvent[] | Promise<readonly JournalEvent[]>;
  append(events: readonly JournalEvent[]): void | Promise<void>;
  /** Called when the job ends (e.g. to close a file); optional. */
  close?(): void | Promise<void>;
}

/** Options of a bulk job besides its engine's (`chunkSize`, `lang`, ...). */
export interface BulkDriverOptions {
  /** Default: a journal in memory, which does not survive the process. */
  journal?: JournalStore;
  /** Told after every change: rows done, failed, set aside, remaining, next send, estimated end. */
  onProgress?: (progress: Progress) => void;
  /** Stops the job (an answer in flight is treated as lost: its rows are looked up on resume). */
  signal?: AbortSignal;
}
export type ImportUsersOptions = BulkDriverOptions & Partial<ImportOptions>;
export type GrantCoursesOptions = BulkDriverOptions & Partial<GrantOptions>;

/** A journal in memory (tests, short jobs); `events` is what it holds. */
export declare function memoryJournal(events?: readonly JournalEvent[]): JournalStore & { readonly events: JournalEvent[] };
/** A journal in a file of JSON lines, appended and fsync'ed before each send (Node, Deno, Bun;
 * other runtimes throw ConfigError). A torn last line (a process killed mid-write) is ignored. */
export declare function fileJournal(path: string): JournalStore;
/** A journal in IndexedDB (browsers): database `lpm-client-journals`, one journal per `name`;
 * `clear()` forgets it (a finished job). */
export declare function indexedDbJournal(name: string): JournalStore & { clear(): Promise<void> };

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

/** For each spreadsheet header, the `NewUser` field it stands for (Vietnamese or English; case, diacritics and punctuation ignored), or `null`; one alias table, in the core. */ export declare function mapColumns(headers: readonly string[]): (keyof NewUser | null)[];
