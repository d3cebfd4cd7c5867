// The typed client: one method per endpoint, each planned by the core and driven by driver.ts;
// paging over the list endpoints; the bulk jobs handed to the bulk driver where it is built in.
import { Core, afterPage, loaded, plan, whenLoaded } from './core.js';
import type {
  AddCoursesInput, AddCoursesReply, CallMethod, CallOptions, ClientOptions, Course, CourseList,
  CourseReply, CreateOptions, CreateUsersReply, Hooks, LoginReply, NewUser, PageParams, RawReply,
  RegisterReply, SearchUserParams, User, UserList, UserReply,
} from './wasm/lpm_client.js';
import { makeError } from './errors.js';
import type { Cfg, FetchFn } from './internal.js';
import { HOOKS, core, driverOptions, optionsJson, toJson } from './options.js';
import { isThenable, later, seen, storeError, time } from './stores.js';
import { run } from './driver.js';
import { envLogger } from './hooks.js';
// The bulk driver: in lpm-client-bulk, with the engines (more wasm than a form or dashboard page
// should load); in lpm-client a stub (bulk-lean.ts, bundled in its place): `bulk` is `undefined`.
// A static import, so that bundlers see one module graph in both packages. The driver is the
// module's default export, which lib.ts's `export *` of its public names leaves out.
import bulk from './bulk.js';
import type { BulkMethods } from './bulk.js';

/** What a listing (`allUsers`, `allCourses`) returns when it ends: how many records the server
 * sent again (overlapping pages) and the listing dropped. */
export interface ListingSummary {
  /** Records dropped because an earlier page had already handed them out. */
  repeated: number;
}

/** The largest page the list endpoints accept: the core's (`Pager::LIMIT`), whose full page
 * means there may be more. */
const PAGE = 100;

/**
 * Every record of a list endpoint, page by page, as the core decides (`afterPage`): each page's
 * `start`, and when the listing ends (a short page) or cannot go on (a full page with no new
 * record, the server repeating its pages: a `DecodeError` after the records handed out). A record
 * handed out before is dropped and counted; the ids are kept here, a `Set` being JavaScript's.
 */
async function* pages<K extends string, T>(fetchPage: (p: PageParams, o: CallOptions | undefined) => Promise<Record<K, T[]>>, key: K, endpoint: string, options: CallOptions | undefined): AsyncGenerator<T, ListingSummary, undefined> {
  const signal = options && options.signal;
  const seen = new Set<string>();
  let repeated = 0;
  for (let start: number | undefined = 0; start !== undefined;) {
    const page = await fetchPage({ start, limit: PAGE }, options);
    const items = page[key];
    const fresh = items.filter((item) => {
      const id = String((item as { _id?: unknown })._id);
      return !seen.has(id) && !!seen.add(id);
    });
    repeated += items.length - fresh.length;
    const at: number = start;
    start = core(() => afterPage(key === 'courses', at, items.length, fresh.length, seen.size));
    for (const item of fresh) {
      // Stop at once when aborted, not only at the next page's request.
      if (signal && signal.aborted) {
        throw makeError('abort', `${endpoint}: the call was aborted`, { endpoint }, signal.reason);
      }
      yield item;
    }
  }
  return { repeated };
}

/**
 * The base URL as the create-interval guard keys it: the WHATWG URL parser's scheme, host, port
 * and path (`127.1`, `0x7f.0.0.1` → `127.0.0.1`; default port and `/x/..` dropped), a trailing
 * dot of the host dropped, an IPv4-mapped IPv6 address as IPv4. Decision: every loopback name
 * (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`) is one host, as `localhost` may resolve to
 * either family. Other names that resolve to one server cannot be known to be the same.
 */
function guardBase(baseUrl: unknown): string | undefined {
  let u: URL;
  try { u = new URL(baseUrl as string); } catch { return undefined; }
  let host = u.hostname.replace(/\.$/, '');
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (mapped) {
    const [a, b] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    host = [a >> 8, a & 255, b >> 8, b & 255].join('.');
  }
  if (/^(.*\.)?localhost$|^127\.|^\[::1\]$/.test(host)) host = 'loopback';
  return `${u.protocol}//${host}:${u.port}${u.pathname.replace(/\/+$/, '')}`;
}

/**
 * Resolves when the package's WebAssembly is loaded and the package can be used: at once where
 * the entry loads it before the page's code runs (Node, Deno, Bun, Workers, and `lpm-client` in a
 * browser, whose import waits for it); `lpm-client/lazy` loads it beside the page's first render.
 * @returns A promise that resolves when the wasm is in.
 * @throws Rejects with the load's error (a 404, a blocked fetch) when it could not be loaded.
 * @example
 * import { Client, ready } from "lpm-client/lazy";
 * await ready();
 * const client = new Client({ baseUrl, token });
 */
export function ready(): Promise<void> {
  if (loaded()) return Promise.resolve();
  const loading = whenLoaded();
  return loading ? loading.then(() => undefined) : Promise.reject(new Error('lpm-client: no entry loaded its WebAssembly'));
}

/** Passed by `withToken` to the constructor: an existing core, not options. */
const INTERNAL = Symbol('lpm-client internal');

/** What a derived client (`withToken`, `withResponse`) shares or changes of its client. */
interface Derived {
  core: Core;
  cfg: Cfg;
  raw: boolean;
  /** A view shares its client's core (and does not free it). */
  view?: boolean;
}

/** A derived client: the constructor's internal path, which its public type leaves out. */
const derive = (d: Derived) => new (Client as unknown as new (key: typeof INTERNAL, d: Derived) => Client)(INTERNAL, d);

/**
 * A record with the keys its type leaves out: the same object, every key the contract does not
 * list typed `unknown` (see `unlisted`).
 */
export type Unlisted<T> = T & { readonly [key: string]: unknown };

/**
 * The keys of a record that the contract does not list. A record's type has only the keys the
 * contract lists, so a misspelt one (`user.emial`) does not compile; the others are still on the
 * object, as the platform sent them. This returns the same object (no copy), typed so that any
 * key can be read as `unknown`: check it before use.
 *
 * @param record A record a method resolved with (`User`, `Course`, `user.profile`, ...).
 * @returns The same object, as `Unlisted<T>`.
 * @example
 * ```ts
 * const { course } = await client.getCourse(id);
 * const seo = unlisted(course).seo; // unknown: a key the contract does not list
 * if (typeof seo === "string") console.log(seo);
 * ```
 */
// Decision: unlisted keys are reached through a typed view of the same object rather than an
// `extra` member: the objects stay exactly the checked body, and no second list of known keys is
// kept beside the Rust models.
export const unlisted = <T extends object>(record: T): Unlisted<T> => record as Unlisted<T>;

/**
 * The typed client of the management API. Every method validates its input first (rejecting
 * with `ValidationError` before anything is sent), and resolves with the endpoint's checked reply
 * or rejects with one of the package's errors.
 *
 * @example
 * ```ts
 * import { Client } from "lpm-client";
 *
 * const client = new Client({ baseUrl: "https://school.example.com", token: process.env.LPM_TOKEN });
 * const { users } = await client.getUsers({ start: 0, limit: 100 });
 * ```
 */
// lpm-client-bulk's types add `importUsers`, `grantCourses` and `syncAccounts` (`BulkMethods`); lpm-client's add
// nothing, so there a call of either does not compile.
export interface Client extends BulkMethods {}
export class Client {
  /** @internal Its name survives minification (logs and stack traces show it). */
  static name = 'Client';

  #core: Core | undefined;
  /** Makes the core of a client made before the wasm was in (`lpm-client/lazy`). */
  #make: (() => Core) | undefined;
  #cfg: Cfg;
  #raw: boolean;
  /** Whether `free` frees the core (a `withResponse()` view shares its client's). */
  #owner: boolean;

  /**
   * A client of one platform.
   * @param options The platform's `baseUrl`, the `token`, and the client's settings (timeouts, retries, intervals, hooks, ...).
   * @throws {@link ConfigError} Options that cannot be used (a `baseUrl` that is no URL, a token of other characters, ...); made before `lpm-client/lazy` has its wasm, its first call rejects with it instead (its calls wait for the wasm).
   * @example
   * ```ts
   * const client = new Client({ baseUrl: "https://school.example.com", token, timeoutMs: 10_000 });
   * ```
   */
  constructor(options: ClientOptions);
  constructor(options: ClientOptions | typeof INTERNAL, internal?: Derived) {
    if (options === INTERNAL) {
      this.#core = internal!.core;
      this.#cfg = internal!.cfg;
      this.#raw = internal!.raw;
      this.#owner = !internal!.view;
    } else {
      const make = (): Core => new Core(
        optionsJson(options),
        guardBase(options?.baseUrl),
        // In a browser page (it has a document; a Web Worker or a server has none) the core
        // refuses a token unless `ownToken` says it is the signed-in user's own.
        typeof document == 'object',
      );
      // Decision: a client made before `lpm-client/lazy` has its wasm makes its core once the
      // wasm is in; its calls wait for that, and unusable options reject its first call.
      this.#make = make;
      if (loaded()) void this.#c;
      const { headers, store } = driverOptions(options, true);
      const hooks: Hooks = {};
      for (const h of HOOKS) (hooks as Record<string, unknown>)[h] = options[h];
      this.#cfg = { fetch: options.fetch as FetchFn | undefined, headers, store, hooks, logger: options.logger ?? envLogger() };
      this.#raw = false;
      this.#owner = true;
    }
  }

  /** The core, made now if the client was made before the wasm was in (`ConfigError`
   * `notLoaded` while it is not). */
  get #c(): Core {
    return (this.#core ||= core(this.#make!));
  }

  /**
   * The same client with another token (e.g. the one `login` returned); this one is unchanged.
   * @param token The API token.
   * @returns A new client sharing this one's settings.
   * @throws {@link ConfigError} A token that cannot be one (`problem: "token"`).
   * @example
   * ```ts
   * const anonymous = new Client({ baseUrl });
   * const { token } = await anonymous.login(email, password);
   * const client = anonymous.withToken(token);
   * ```
   */
  withToken(token: string): Client {
    return derive({ core: core(() => this.#c.withToken(typeof token === 'string' ? token : undefined)), cfg: this.#cfg, raw: this.#raw });
  }

  /**
   * The same client whose methods resolve `{ data, response: { status, headers } }`: the decoded
   * reply beside the final attempt's HTTP status and headers (token redacted).
   * @returns A view of this client (it shares its settings and is freed with it).
   * @example
   * ```ts
   * const { data, response } = await client.withResponse().getCourses();
   * console.log(response.status, data.courses.length);
   * ```
   */
  withResponse(): ClientWithResponse {
    return derive({ core: this.#c, cfg: this.#cfg, raw: true, view: true }) as unknown as ClientWithResponse;
  }

  /** The normalised base URL. */
  get baseUrl(): string {
    return core(() => this.#c.baseUrl);
  }

  /** Plans and drives one call; the core checked the reply against `T`'s shape. */
  #call<T>(method: CallMethod, a: unknown, b: unknown, options: CallOptions | undefined, raw = this.#raw): Promise<T> {
    // Before the wasm is in (`lpm-client/lazy`), the call waits for it.
    if (!loaded()) return ready().then(() => this.#call<T>(method, a, b, options, raw));
    return run(this.#cfg, () => plan(this.#c, method, toJson(a), toJson(b), optionsJson(options)), options, raw) as Promise<T>;
  }

  /**
   * Creates 1 to 100 accounts (`users/create-multi-user`). Resolves with one result per item,
   * also when none could be created (code 13); the passwords the platform echoes are left out
   * unless `keepPasswords`. Keeps the contract's 10-minute interval (see `createInterval`); never
   * retried automatically.
   * @param users The accounts, 1 to 100.
   * @param options Per-call options; `waitForInterval` waits out the interval instead of rejecting.
   * @returns The items' results (`users`), `created`, `failed`, `respCode` and `msgCounts`.
   * @throws {@link ValidationError} Input the platform would refuse (nothing is sent).
   * @throws {@link IntervalError} Inside the create interval (`nextAllowedAt`), unless `waitForInterval`.
   * @throws {@link ApiError} The server refused the call (`category` `capacity`, `authentication`, ...).
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * const result = await client.createUsers(rows, { waitForInterval: true });
   * for (const item of result.users) if (!item.success) console.log(item.email, item.status);
   * ```
   */
  createUsers(users: NewUser[], options?: CreateOptions): Promise<CreateUsersReply> {
    return this.#created(this.#call('createUsers', users, undefined, options), options);
  }
  /**
   * Creates one account through the bulk endpoint (create-multi-user), with the same guard and
   * validation as `createUsers`: one account per 10 minutes. A sign-up form wants `registerUser`.
   * @param user The account.
   * @param options Per-call options; `waitForInterval` waits out the interval instead of rejecting.
   * @returns The item's result (`users[0]`, its `userId`) and the counts.
   * @throws {@link ValidationError} Input the platform would refuse (nothing is sent).
   * @throws {@link IntervalError} Inside the create interval, unless `waitForInterval`.
   * @throws {@link ApiError} The server refused the call.
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * const { users: [item] } = await client.createUser({ name, username, email, password });
   * ```
   */
  createUser(user: NewUser, options?: CreateOptions): Promise<CreateUsersReply> {
    return this.#created(this.#call('createUser', user, undefined, options), options);
  }
  /** Decision: the passwords create-multi-user echoes in each item are left out of the reply
   * unless `keepPasswords` (a reply is logged more often than it is read for them). */
  async #created(reply: Promise<CreateUsersReply>, options: CreateOptions | undefined): Promise<CreateUsersReply> {
    const value = await reply;
    if (!(options && options.keepPasswords)) {
      const data = (this.#raw ? (value as unknown as WithResponse<CreateUsersReply>).data : value) as CreateUsersReply;
      for (const item of data.users) delete item.password;
    }
    return value;
  }
  /**
   * Registers one account (`users/create-single-user`, the path a sign-up form takes). Kept at
   * least the platform's advised 5 s apart (see `registerInterval`); never retried automatically.
   * @param user The account.
   * @param options Per-call options; `waitForInterval` waits out the 5 s instead of rejecting.
   * @returns The envelope: `respCode` "00", `msg`; the rest is unpublished, kept as received.
   * @throws {@link ValidationError} Input the platform would refuse (nothing is sent).
   * @throws {@link IntervalError} Within 5 s of the last one, unless `waitForInterval`.
   * @throws {@link ApiError} The server refused: `reason` `emailInUse` or `usernameInUse` for an account that exists.
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * try {
   *   await client.registerUser(values);
   * } catch (e) {
   *   if (e instanceof ApiError && e.reason === "emailInUse") setError("email", { message: "taken" });
   *   else throw e;
   * }
   * ```
   */
  registerUser(user: NewUser, options?: CreateOptions): Promise<RegisterReply> {
    return this.#call('registerUser', user, undefined, options);
  }
  /**
   * The raw `users/create-single-user` call: the envelope as received. Not guarded; never retried.
   * @deprecated Use `registerUser`: the same call, its answer decoded (an account that exists
   * rejects with `ApiError`) and kept the platform's advised 5 s apart.
   * @param user The account.
   * @param options Per-call options.
   * @returns The envelope as received.
   * @throws {@link ValidationError} Input the platform would refuse (nothing is sent).
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * const reply = await client.registerUser(user); // instead
   * ```
   */
  createSingleUserRaw(user: NewUser, options?: CallOptions): Promise<RawReply> {
    return this.#call('createSingleUserRaw', user, undefined, options);
  }
  /**
   * A page of accounts (`users/get-multi-user`), newest first as the platform serves them.
   * @param params `start` (default 0) and `limit` (1..100, default 100).
   * @param options Per-call options.
   * @returns `{ users, msg }`.
   * @throws {@link ValidationError} A `start` or `limit` out of range (nothing is sent).
   * @throws {@link ApiError} The server refused (`category` `authentication`, `permission`, ...).
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * const { users } = await client.getUsers({ start: 0, limit: 50 });
   * ```
   */
  getUsers(params?: PageParams, options?: CallOptions): Promise<UserList> {
    return this.#call('getUsers', params, undefined, options);
  }
  /**
   * One account by id (`users/get-single-user/<id>`).
   * @param id The account's `_id`.
   * @param options Per-call options.
   * @returns `{ user, msg }`.
   * @throws {@link ValidationError} An id that cannot be one (nothing is sent).
   * @throws {@link ApiError} The server refused (`category` `notFound`: no such account).
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * const { user } = await client.getUser("Xq3kPz9LmN2bVc7Rt");
   * ```
   */
  getUser(id: string, options?: CallOptions): Promise<UserReply> {
    return this.#call('getUser', id, undefined, options);
  }
  /**
   * The token's own account (`users/get-me`).
   * @param options Per-call options.
   * @returns `{ user, msg }`.
   * @throws {@link ApiError} The server refused (`category` `authentication`: the token).
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * const { user } = await client.getMe();
   * ```
   */
  getMe(options?: CallOptions): Promise<UserReply> {
    return this.#call('getMe', undefined, undefined, options);
  }
  /**
   * One account by e-mail (tried first) or username (`users/search-user`).
   * @param params `email` and/or `username`.
   * @param options Per-call options.
   * @returns `{ user, msg }`.
   * @throws {@link ValidationError} Neither given (nothing is sent).
   * @throws {@link ApiError} The server refused (`category` `notFound`: no such account).
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * const { user } = await client.searchUser({ email: "an@example.vn" });
   * ```
   */
  searchUser(params: SearchUserParams, options?: CallOptions): Promise<UserReply> {
    return this.#call('searchUser', params, undefined, options);
  }
  /**
   * One course by id (`courses/get-single-course/<id>`).
   * @param id The course's `_id`.
   * @param options Per-call options.
   * @returns `{ course, msg }`.
   * @throws {@link ValidationError} An id that cannot be one (nothing is sent).
   * @throws {@link ApiError} The server refused (`reason` `courseNotFound`).
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * const { course } = await client.getCourse("2Jr4ToXdMAJQX2");
   * ```
   */
  getCourse(id: string, options?: CallOptions): Promise<CourseReply> {
    return this.#call('getCourse', id, undefined, options);
  }
  /**
   * A page of courses (`courses/get-multi-course`).
   * @param params `start` (default 0) and `limit` (0..100, default 100).
   * @param options Per-call options.
   * @returns `{ courses, msg }`.
   * @throws {@link ValidationError} A `start` or `limit` out of range (nothing is sent).
   * @throws {@link ApiError} The server refused.
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * const { courses } = await client.getCourses({ limit: 20 });
   * ```
   */
  getCourses(params?: PageParams, options?: CallOptions): Promise<CourseList> {
    return this.#call('getCourses', params, undefined, options);
  }
  /**
   * Courses whose title matches the keywords (`courses/search-course`).
   * @param title The keywords.
   * @param options Per-call options.
   * @returns `{ courses, msg }`.
   * @throws {@link ValidationError} Empty keywords (nothing is sent).
   * @throws {@link ApiError} The server refused.
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * const { courses } = await client.searchCourses("Vật lý");
   * ```
   */
  searchCourses(title: string, options?: CallOptions): Promise<CourseList> {
    return this.#call('searchCourses', title, undefined, options);
  }
  /**
   * Grants courses to 1 to 100 accounts (`courses/add-multi-course-to-multi-user`). Never retried.
   * @param input `users` (1 to 100 account ids) and `courses` (course ids).
   * @param options Per-call options.
   * @returns One outcome per account (`result`), the `validCourses`, `succeeded`, `failed` and `msgCounts`.
   * @throws {@link ValidationError} Input the platform would refuse (nothing is sent).
   * @throws {@link ApiError} The server refused.
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * const { result } = await client.addCoursesToUsers({ users: [userId], courses: [courseId] });
   * ```
   */
  addCoursesToUsers(input: AddCoursesInput, options?: CallOptions): Promise<AddCoursesReply> {
    return this.#call('addCoursesToUsers', input, undefined, options);
  }
  /**
   * Logs in (`users/login-user`); the only call that needs no token.
   * @param email The account's e-mail.
   * @param password Its password (never logged).
   * @param options Per-call options.
   * @returns The API `token` and its expiry (`tokenExpires`).
   * @throws {@link ValidationError} An empty e-mail or password (nothing is sent).
   * @throws {@link ApiError} The server refused (`reason` `wrongEmail`, `wrongPassword`, ...).
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * const { token } = await new Client({ baseUrl }).login(email, password);
   * ```
   */
  login(email: string, password: string, options?: CallOptions): Promise<LoginReply> {
    return this.#call('login', email, password, options);
  }
  /**
   * A one-time site login token for the account `userId` (`users/create-user-login-token`): the
   * site logs that account in at `<site>?login_token=<token>`. It logs in as that account: it is
   * never logged, keep it out of yours. Kept at least the platform's advised 5 s apart (see
   * `loginTokenInterval`); never retried automatically.
   * @param userId The account's `_id`.
   * @param options Per-call options; `waitForInterval` waits out the 5 s instead of rejecting.
   * @returns `{ token, tokenExpires, msg }`.
   * @throws {@link ValidationError} An id that cannot be one (nothing is sent).
   * @throws {@link IntervalError} Within 5 s of the last one, unless `waitForInterval`.
   * @throws {@link ApiError} The server refused.
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError`, `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * const { token } = await client.createLoginToken(userId, { waitForInterval: true });
   * location.assign(`https://school.example.com/?login_token=${encodeURIComponent(token)}`);
   * ```
   */
  createLoginToken(userId: string, options?: CreateOptions): Promise<LoginTokenReply> {
    return this.#call('createLoginToken', userId, undefined, options);
  }

  /**
   * When the next bulk create of this base URL and token is allowed, or `null` when it is now.
   * With an asynchronous `intervalStore`, as far as this realm has seen.
   * @returns The time, or `null`.
   * @throws {@link ConfigError} The `intervalStore` threw.
   * @example
   * ```ts
   * const at = client.nextCreateAllowedAt();
   * button.disabled = at !== null;
   * ```
   */
  nextCreateAllowedAt(): Date | null {
    const c = this.#c;
    const key = core(() => c.guardKey);
    const store = this.#cfg.store;
    let stored;
    try {
      stored = store ? store.get(key) : undefined;
    } catch (e) {
      throw storeError('get', e, String);
    }
    // An asynchronous answer is not waited for (this realm's record stands in); its failure
    // is not left unhandled.
    if (isThenable(stored)) stored.then(undefined, () => {});
    const last = later(time(stored), time(seen.get(key)));
    const at = core(() => c.nextCreateAllowedAt(Date.now(), last));
    return Number.isNaN(at) ? null : new Date(at);
  }

  static {
    // The bulk jobs, on the prototype rather than in the class body so that lpm-client's types
    // can leave them out (`BulkMethods`); there they reject with a ConfigError naming the package.
    Object.assign(this.prototype, {
      async importUsers(this: Client, rows: unknown, options?: unknown) {
        return this.#bulk('import', 'importUsers', rows, options);
      },
      async grantCourses(this: Client, input: { users: unknown; courses: unknown }, options?: unknown) {
        const given = input !== null && typeof input === 'object' ? { users: input.users, courses: input.courses } : input;
        return this.#bulk('grant', 'grantCourses', given, options);
      },
      async syncAccounts(this: Client, input: { rows: unknown; courses: unknown }, options?: unknown) {
        const given = input !== null && typeof input === 'object' ? { rows: input.rows, courses: input.courses } : input;
        return this.#bulk('sync', 'syncAccounts', given, options);
      },
    });
  }

  async #bulk(kind: 'import' | 'grant' | 'sync', name: string, input: unknown, options: unknown): Promise<unknown> {
    // The bulk driver, or (lpm-client) the ConfigError of a client without the engines: `bulk`
    // is then `undefined`, and the minifier drops what follows.
    if (!bulk) {
      const expected = 'a client of the lpm-client-bulk package (the bulk engines are not in lpm-client)';
      throw makeError('config', `${name} needs ${expected}`, { problem: 'option', option: name, expected });
    }
    return bulk(this.#c, this.#cfg, kind, name, input, options);
  }

  /**
   * Every account, page by page with the largest allowed limit (100), until a short page; an
   * account a later page repeats is handed out once (the count of those dropped is the iterator's
   * return value).
   * @param options Per-call options, for each page's call; `signal` also stops the iteration.
   * @returns An async iterator of the accounts.
   * @throws {@link ApiError} A page's call was refused.
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError` (also when a full page holds no account not already read: the server repeats its pages), `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * for await (const user of client.allUsers()) console.log(user.username);
   * ```
   */
  allUsers(options?: CallOptions): AsyncGenerator<User, ListingSummary, undefined> {
    return pages((p, o) => this.#call<UserList>('getUsers', p, undefined, o, false), 'users', 'get-multi-user', options);
  }

  /**
   * Every course, page by page with the largest allowed limit (100), until a short page; a
   * course a later page repeats is handed out once (the count of those dropped is the iterator's
   * return value).
   * @param options Per-call options, for each page's call; `signal` also stops the iteration.
   * @returns An async iterator of the courses.
   * @throws {@link ApiError} A page's call was refused.
   * @throws {@link LpmError} With no answer or an unusable one: `NetworkError`, `TimeoutError`, `AbortError` (`signal`), `HttpError`, `DecodeError` (also when a full page holds no course not already read: the server repeats its pages), `ResponseTooLargeError` (see `ClientError`).
   * @example
   * ```ts
   * for await (const course of client.allCourses({ signal })) console.log(course.title);
   * ```
   */
  allCourses(options?: CallOptions): AsyncGenerator<Course, ListingSummary, undefined> {
    return pages((p, o) => this.#call<CourseList>('getCourses', p, undefined, o, false), 'courses', 'get-multi-course', options);
  }

  /**
   * Frees the wasm side now rather than when the garbage collector gets to it (on a
   * `withResponse()` view: nothing, its client owns the core). A call after it rejects.
   * @example
   * ```ts
   * client.free();
   * ```
   */
  free(): void {
    if (this.#owner) this.#core?.free();
  }

  /** `free()`, for `using client = new Client(...)`. */
  [Symbol.dispose](): void {
    this.free();
  }
}

/** create-user-login-token's reply: `{ token, tokenExpires, msg }`, login-user's shape. */
export type LoginTokenReply = LoginReply;

/** A reply beside the HTTP answer it came in (`withResponse()`). */
export interface WithResponse<T> {
  /** The decoded reply, as the method of `Client` resolves it. */
  data: T;
  /** The final attempt's status and headers (lower-case names; the token redacted from values). */
  response: { status: number; headers: Record<string, string> };
}

/** `client.withResponse()`: each call method resolves `{ data, response }`. */
export type ClientWithResponse = {
  [K in CallMethod]: Client[K] extends (...args: infer A) => Promise<infer R>
    ? (...args: A) => Promise<WithResponse<R>>
    : never;
};
