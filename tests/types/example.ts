// A typed tour of lpm-client's public surface, as a dashboard or Node script would write it.
// tests/types/check.sh compiles it with `tsc --strict --noEmit` against the packed package; it is
// never run. Every `@ts-expect-error` line is a wrong input that must not compile (tsc fails on an
// unused one), and the `Equals` checks pin the exact types, so an `any` cannot slip through.
import {
  isLpmError,
  AbortError,
  ApiError,
  Client,
  ConfigError,
  DecodeError,
  HttpError,
  IntervalError,
  LpmError,
  NetworkError,
  ResponseTooLargeError,
  TimeoutError,
  ValidationError,
  fileStore,
  validateAddCourses,
  validateCreateUser,
  validateCreateUsers,
  validateGetCourses,
  validateGetUsers,
  validateId,
  validateLogin,
  validateSearchCourses,
  validateSearchUser,
  webStorageStore,
  unlisted,
} from "lpm-client";
import { validateCreateUser as validateAlone } from "lpm-client/validate";
import type {
  AddCourseOutcome,
  AddCoursesInput,
  AddCoursesReply,
  CallOptions,
  Category,
  ClientOptions,
  Course,
  CourseList,
  CourseReply,
  CourseType,
  CreatedUser,
  CreateOptions,
  CreateStatus,
  CreateUsersReply,
  Endpoint,
  ErrorKind,
  FetchLike,
  IntervalStore,
  Issue,
  LoginTokenReply,
  RequestEvent,
  RetryEvent,
  WithResponse,
  Lang,
  LoginReply,
  MsgCounts,
  NewUser,
  PageParams,
  PathSegment,
  RawReply,
  RegisterReply,
  SearchUserParams,
  StandardSchemaV1,
  User,
  UserList,
  UserPath,
  UserReply,
  ValidateOptions,
  Validator,
  Unlisted,
} from "lpm-client";

// ---- type-level helpers ---------------------------------------------------------------------------

/** `true` only when A and B are the same type (`any` equals nothing but `any`). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type IsAny<T> = 0 extends 1 & T ? true : false;
function expectType<T extends true>(): void {}
declare function assertNever(x: never): never;

// ---- a client with every option ------------------------------------------------------------------

/** A fetch that logs each call's method and URL path (never the query: it carries the token). */
const loggingFetch: FetchLike = async (url, init) => {
  console.debug(init.method, new URL(url).pathname);
  return fetch(url, { method: init.method, headers: init.headers, body: init.body, signal: init.signal });
};
// The global fetch fits as is.
const plainFetch: FetchLike = fetch;

const userPath: UserPath = "user";
const options: ClientOptions = {
  baseUrl: "https://school.example.com/app",
  token: process.env.LPM_TOKEN,
  timeoutMs: 10_000,
  maxRetries: 3,
  retryDelayMs: 500,
  fetch: process.env.LPM_DEBUG ? loggingFetch : plainFetch,
  userPath,
  strictPlatformRules: true,
  createInterval: { guard: "wait", intervalMs: 10 * 60_000 },
};
const anonymous = new Client(options);
// @ts-expect-error the internal install() left the public types (the entries need none)
void (null as unknown as typeof import("lpm-client")).install;

// @ts-expect-error wrong option name (`timeout` is `timeoutMs`)
new Client({ baseUrl: "https://school.example.com", timeout: 5000 });
// @ts-expect-error wrong option type
new Client({ baseUrl: "https://school.example.com", maxRetries: "3" });
// @ts-expect-error baseUrl is required
new Client({ token: "t0k3n" });
// @ts-expect-error the get-single-user path is "users" or "user"
new Client({ baseUrl: "https://school.example.com", userPath: "accounts" });
// @ts-expect-error the interval guard is "reject", "wait" or "off"
new Client({ baseUrl: "https://school.example.com", createInterval: { guard: "skip" } });
// @ts-expect-error a custom fetch must take (url, init) and resolve with a response
new Client({ baseUrl: "https://school.example.com", fetch: (url: number) => url });

// ---- login, then every endpoint ----------------------------------------------------------------

const login: LoginReply = await anonymous.login("admin@school.example.com", "matkhau123");
const expires: Date = new Date(login.tokenExpires);
console.log(`token valid until ${expires.toISOString()}`);
const client: Client = anonymous.withToken(login.token);
const baseUrl: string = client.baseUrl;
// @ts-expect-error baseUrl is read-only
client.baseUrl = "https://elsewhere.example.com";
// @ts-expect-error login takes the e-mail and password, not an object
await anonymous.login({ email: "admin@school.example.com", password: "matkhau123" });

const controller = new AbortController();
const call: CallOptions = { signal: controller.signal };

const me: UserReply = await client.getMe();
console.log(`${me.user.profile.name} <${me.user.emails[0]?.address ?? "no e-mail"}> on ${baseUrl}`);
const page: UserList = await client.getUsers({ start: 0, limit: 50 }, call);
const firstPage: UserList = await client.getUsers();
const one: UserReply = await client.getUser(page.users[0]?._id ?? "Xq3kPz9LmN2bVc7Rt", call);
const found: UserReply = await client.searchUser({ email: "an@example.vn" });
const byName: UserReply = await client.searchUser({ username: "nguyenvanan" }, call);
const params: PageParams = { start: 100 };
const courses: CourseList = await client.getCourses(params, { signal: AbortSignal.timeout(5_000) });
const course: CourseReply = await client.getCourse(courses.courses[0]?._id ?? "2Jr4ToXdMAJQX2");
const hits: CourseList = await client.searchCourses("Vật lý");
console.log(firstPage.users.length, one.user.username, found.user._id, byName.msg, hits.courses.length);

// @ts-expect-error an id is a string, not a number
await client.getUser(12345);
// @ts-expect-error getCourse takes the id, not the record
await client.getCourse(course.course);
// @ts-expect-error start and limit are numbers
await client.getUsers({ start: "0", limit: 100 });
// @ts-expect-error search-user takes `email` and/or `username`
await client.searchUser({ mail: "an@example.vn" });
// @ts-expect-error the per-call options have no `retries`
await client.getMe({ retries: 0 });

expectType<Equals<Awaited<ReturnType<Client["getMe"]>>, UserReply>>();
expectType<Equals<Awaited<ReturnType<Client["getCourses"]>>, CourseList>>();
expectType<Equals<Awaited<ReturnType<Client["addCoursesToUsers"]>>, AddCoursesReply>>();
expectType<Equals<Awaited<ReturnType<Client["createUsers"]>>, CreateUsersReply>>();
expectType<Equals<Awaited<ReturnType<Client["createSingleUserRaw"]>>, RawReply>>();
// @ts-expect-error a reply's `msg` is no `mgs` (a reply's own keys are typed too)
void me.mgs;
expectType<Equals<Awaited<ReturnType<Client["registerUser"]>>, RegisterReply>>();

// ---- records: open value sets, optional fields, extra keys ---------------------------------------

function describe(c: Course): string {
  // An open set narrows on its known values and still takes any other string.
  switch (c.type) {
    case "SALE":
      return `${c.title}: ${c.price.original.toLocaleString("vi-VN")} ₫`;
    case "UPCOMMING":
      return `${c.title}: coming soon`;
    default: {
      const other: string = c.type;
      return `${c.title}: ${other}`;
    }
  }
}
const workshop: CourseType = "WORKSHOP"; // a type the contract does not list is still a CourseType
// @ts-expect-error an open set is known literals plus any string, never a number
const badType: CourseType = 3;
// @ts-expect-error a course type may be a value the contract does not list
const closed: "SALE" | "UPCOMMING" = course.course.type;
expectType<Equals<Extract<CourseType, "SALE">, "SALE">>();

const c: Course = course.course;
console.log(describe(c), workshop);
// Optional fields are `field?: T`: absent, never null.
const requirement: string = c.requirement ?? "";
// @ts-expect-error an optional field may be absent
const requirementLength: number = c.requirement.length;
const thumbnail: string | undefined = c.image_primary?.thumbnail160?.url;
for (const doc of c.docs ?? []) {
  const kind = doc.type === "VIDEO" ? "video" : doc.type === "PDF" ? "pdf" : `other (${doc.type})`;
  console.log(doc.title, kind, doc.source ?? "(no source)", doc.sourceType);
}
const purposes: string[] = c.purpose.flatMap((p) => (p.content === undefined ? [] : [p.content]));
console.log(requirement, thumbnail, purposes, c.trailer.sourceType, c.credit_shared.value);
// A record's type has the keys the contract lists only: a misspelt key does not compile.
// @ts-expect-error `emial` is no key of an account (its addresses are `emails`)
console.log(me.user.emial);
// @ts-expect-error nor `titel` of a course
console.log(c.titel);
// @ts-expect-error nor of a nested record
console.log(me.user.profile.nmae);
// The keys the contract does not list are kept on the object: `unlisted` reads them, typed unknown.
const seo = unlisted(c).seo;
expectType<Equals<typeof seo, unknown>>();
if (typeof seo === "object" && seo !== null && "keywords" in seo) console.log(seo.keywords);
// @ts-expect-error an unlisted key is unknown, not string
const seoText: string = unlisted(c).seo;
// The listed keys keep their types through the view; it is the same object.
const viewed: Unlisted<User> = unlisted(me.user);
expectType<Equals<typeof viewed._id, string>>();
const nickname: unknown = unlisted(me.user.profile)["nickname"];
console.log(nickname, viewed === me.user);
expectType<Equals<Course["_id"], string>>();
expectType<Equals<Course["requirement"], string | undefined>>();
expectType<Equals<Course["price"]["original"], number>>();
expectType<Equals<IsAny<Course["inCombo"][number]>, false>>();
// Payout percent per affiliate level: the body has `"basic_payout_value": {"L1": 10, "L2": 5}` and the
// package hands it over as a plain object (JSON text parsed by JSON.parse), not a Map.
const levelOne: number | undefined = c.affiliates.basic_payout_value?.["L1"];
console.log(`L1 payout ${levelOne ?? 0}%`);
// Keys whose value is `null` in the body (or when the item failed) arrive as `null`, never undefined.
expectType<Equals<Exclude<Course["price"]["discount_enable"], undefined>, boolean | null>>();
expectType<Equals<Exclude<Course["price"]["use_private_discount"], undefined>, boolean | null>>();
expectType<Equals<Exclude<CreatedUser["userId"], undefined>, string | null>>();
const discountOn: boolean | null = c.price.discount_enable ?? null;
// A discount window is `{start, end}` or `{}`.
const window = c.price.private_discount_time;
if (discountOn && window.start !== undefined && window.end !== undefined) console.log(`discount ${window.start} → ${window.end}`);

function enrolments(u: User): string[] {
  return (u.myCourses ?? []).map((e) => `${e.courseId} until ${e.expiredAt}${e.finish ? " (finished)" : ""}`);
}
console.log(enrolments(me.user), me.user.forSeller?.getCall, me.user.profile.avatar?.imageLink);

// ---- every course and every account, page by page -----------------------------------------------

let sale = 0;
for await (const each of client.allCourses()) {
  expectType<Equals<typeof each, Course>>();
  if (each.type === "SALE" && each.approval) sale += 1;
}
const unverified: string[] = [];
for await (const user of client.allUsers({ signal: controller.signal })) {
  expectType<Equals<typeof user, User>>();
  for (const email of user.emails) if (!email.verified) unverified.push(email.address);
}
console.log(`${sale} courses on sale; unverified: ${unverified.join(", ")}`);

// ---- creating accounts and granting a course -------------------------------------------------------

const rows: NewUser[] = [
  { name: "Nguyễn Văn An", username: "nguyenvanan", email: "an@example.vn", password: "matkhau123" },
  {
    name: "Trần Thị Bình",
    username: "tranthibinh",
    email: "binh@example.vn",
    password: "matkhau456",
    phone: "0912345678",
    city: "Hà Nội",
    district: "Cầu Giấy",
    street: "144 Xuân Thủy",
    gender: "Nữ",
    job: "Giáo viên",
  },
];
// @ts-expect-error a NewUser needs a password
const missing: NewUser = { name: "Lê Văn Cường", username: "levancuong", email: "cuong@example.vn" };
// @ts-expect-error a NewUser has no `age` (request shapes are strict)
const extra: NewUser = { name: "Lê Văn Cường", username: "levancuong", email: "c@example.vn", password: "x12345", age: 20 };
// @ts-expect-error createUsers takes an array of NewUser
await client.createUsers(rows[0]!);

const createOptions: CreateOptions = { waitForInterval: true, signal: controller.signal };
const when: Date | null = client.nextCreateAllowedAt();
// @ts-expect-error nextCreateAllowedAt is null when a create is allowed now
const whenSure: Date = client.nextCreateAllowedAt();
if (when) console.log(`next bulk create at ${when.toLocaleTimeString()}`);

const created: CreateUsersReply = await client.createUsers(rows, createOptions);
// Code 13 (none created) resolves too; the counts come from the items, msgCounts from the msg.
const noneCreated: boolean = created.respCode === "13";
console.log(`${created.created} created, ${created.failed} failed${noneCreated ? " (none created)" : ""}`);
const stated: MsgCounts | null | undefined = created.msgCounts;
if (stated && stated.succeeded !== created.created) console.warn(`the msg says ${stated.succeeded} created`);
const newIds: string[] = [];
for (const item of created.users) {
  const outcome: CreatedUser = item;
  const status: CreateStatus = outcome.status;
  if (outcome.success && outcome.userId) newIds.push(outcome.userId);
  else if (status === "Email already in use" || status === "Username already in use") console.log(`${outcome.email}: taken`);
  else console.log(`${outcome.email ?? "?"}: ${status}`);
  // @ts-expect-error a status is text, not a number
  const statusCode: number = outcome.status;
}
const single: CreateUsersReply = await client.createUser(rows[1]!, { waitForInterval: false });
const raw: RawReply = await client.createSingleUserRaw(rows[1]!, call);
const registered = await client.registerUser(rows[1]!, { waitForInterval: true });
expectType<Equals<typeof registered.respCode, "00">>();
// @ts-expect-error: only its success code is "00"
const notRegistered: RegisterReply = { respCode: "13", msg: "" };
const rawData: unknown = raw["data"];
console.log(single.msg, raw.respCode, raw.msg, rawData);

const grant: AddCoursesInput = { users: newIds, courses: [c._id] };
const granted: AddCoursesReply = await client.addCoursesToUsers(grant, call);
for (const r of granted.result) {
  const outcome: AddCourseOutcome = r;
  console.log(outcome.userId, outcome.success, outcome.status === "Success" ? "ok" : outcome.status);
}
console.log(granted.validCourses.map((v) => v.title).join(", "));
const grantedCounts: [number, number] = [granted.succeeded, granted.failed];
console.log(`granted to ${grantedCounts[0]}, failed for ${grantedCounts[1]}; msg says ${granted.msgCounts?.succeeded ?? "?"}`);
// @ts-expect-error account and course ids are strings
await client.addCoursesToUsers({ users: [1, 2], courses: [c._id] });

// ---- errors: instanceof narrows to typed fields ------------------------------------------------------

function report(err: unknown): string {
  if (!(err instanceof LpmError)) throw err;
  const kind: ErrorKind = err.kind;
  const endpoint: Endpoint | undefined = err.endpoint;
  const cause: unknown = err.cause;
  if (err instanceof ValidationError) {
    return err.issues.map((i: Issue) => `${i.path.join(".")}: ${i.message} (${i.code}, ${i.level})`).join("\n");
  }
  if (err instanceof ApiError) {
    expectType<Equals<typeof err.kind, "api">>();
    const category: Category = err.category;
    const slots: number | undefined = err.availableSlots;
    // @ts-expect-error an ApiError has no `respCode`: it is `code`
    console.log(err.respCode);
    // @ts-expect-error an ApiError's kind is "api"
    if (err.kind === "network") console.log("unreachable");
    switch (category) {
      case "authentication":
        return `log in again (${err.code}: ${err.msg})`;
      case "capacity":
        return `only ${slots ?? 0} account slots left`;
      default:
        return `${err.endpoint} answered ${err.code} (${err.reason}, HTTP ${err.status}, ${err.basis}): ${err.explanation}${err.retryable ? "; try again" : ""}`;
    }
  }
  if (err instanceof HttpError) return `HTTP ${err.status} from ${err.endpoint}: ${err.excerpt}`;
  if (err instanceof DecodeError) return `unexpected body from ${err.endpoint} (HTTP ${err.status}) at ${err.path}: ${err.detail}`;
  if (err instanceof TimeoutError) return `no answer within ${err.timeoutMs} ms`;
  if (err instanceof AbortError) return `aborted: ${String(err.cause)}`;
  if (err instanceof NetworkError) return `network: ${err.cause instanceof Error ? err.cause.message : String(err.cause)}`;
  if (err instanceof IntervalError) {
    const at: Date = err.nextAllowedAt;
    return `next bulk create at ${at.toISOString()} (in ${Math.ceil(err.waitMs / 1000)} s)`;
  }
  if (err instanceof ResponseTooLargeError) return `answer over ${err.maxResponseBytes} bytes from ${err.endpoint}`;
  if (err instanceof ConfigError) {
    const problem: "baseUrl" | "token" | "noToken" | "option" | "journal" | "notLoaded" = err.problem;
    return `bad client options: ${problem}`;
  }
  switch (kind) {
    case "validation": case "api": case "http": case "decode": case "network":
    case "timeout": case "abort": case "interval": case "config": case "tooLarge": case "internal":
      return `${kind} on ${endpoint ?? "?"}: ${err.message} ${String(cause)}`;
    default:
      return assertNever(kind);
  }
}
try {
  await client.createUsers(rows, { signal: AbortSignal.timeout(30_000) });
} catch (err) {
  console.error(report(err));
}

// ---- validation for forms: plain functions and Standard Schemas --------------------------------------

const batchIssues: Issue[] = validateCreateUsers(rows);
const vietnamese: Validator<NewUser[]> = validateCreateUsers.withOptions({ lang: "vi" });
const vOptions: ValidateOptions = { lang: "en", platformRules: false };
const lang: Lang | undefined = vOptions.lang;
const loose: Issue[] = vietnamese(rows, vOptions);
const segment: PathSegment | undefined = batchIssues[0]?.path[0];
console.log(loose.length, lang, typeof segment === "number" ? `row ${segment + 1}` : segment);
// @ts-expect-error messages are English or Vietnamese
validateCreateUsers(rows, { lang: "fr" });

const others: Issue[][] = [
  validateCreateUser(rows[0]),
  validateGetUsers({ start: 0, limit: 100 }),
  validateGetCourses({ start: 0, limit: 0 }),
  validateSearchUser({ email: "an@example.vn" } satisfies SearchUserParams),
  validateSearchCourses("Vật lý"),
  validateId("Xq3kPz9LmN2bVc7Rt"),
  validateAddCourses({ users: ["Xq3kPz9LmN2bVc7Rt"], courses: ["2Jr4ToXdMAJQX2"] }),
  validateLogin({ email: "admin@school.example.com", password: "matkhau123" }),
];
console.log(others.flat().length);

type NewUsersOut = StandardSchemaV1.InferOutput<typeof validateCreateUsers>;
expectType<Equals<NewUsersOut, NewUser[]>>();
expectType<Equals<StandardSchemaV1.InferOutput<typeof validateLogin>, { email: string; password: string }>>();
expectType<Equals<StandardSchemaV1.InferOutput<typeof validateAddCourses>, AddCoursesInput>>();
expectType<Equals<StandardSchemaV1.InferInput<typeof validateId>, string>>();
// A form's fields come from the validator's input: a misspelt field does not compile.
expectType<Equals<StandardSchemaV1.InferInput<typeof validateCreateUser>, NewUser>>();
type FormField = keyof StandardSchemaV1.InferInput<typeof validateCreateUser>;
// @ts-expect-error `emial` is no field of a new account
const misspelt: FormField = "emial";
console.log(misspelt);

// A form's own fields and checks beside the package's rules (`extend`), typed from the checks:
// no hand-written Standard Schema.
const signUp = validateCreateUser.withOptions({ platformRules: true }).extend({
  confirmPassword: (value: string, form) => (value === form.password ? undefined : "The passwords differ"),
});
expectType<Equals<StandardSchemaV1.InferInput<typeof signUp>, NewUser & { confirmPassword: string }>>();
const account: NewUser = { name: "An", username: "an", email: "an@example.vn", password: "matkhau123" };
for (const i of signUp({ ...account, confirmPassword: "x" }, { lang: "vi", platformRules: true })) {
  if (i.code === "form") console.log(i.path[0], i.message);
  else console.log(i.level, i.code);
}
// @ts-expect-error a check answers a message or nothing
validateCreateUser.extend({ confirmPassword: (value: string) => value.length });
// lpm-client/validate: the same validators, typed alike.
expectType<Equals<StandardSchemaV1.InferInput<typeof validateAlone>, NewUser>>();
const aloneIssues: Issue[] = validateAlone(account, { lang: "vi", platformRules: true });
console.log(aloneIssues.length);
// @ts-expect-error the form's fields are the account's and the added ones
const unknownField: keyof StandardSchemaV1.InferInput<typeof signUp> = "confirmPasword";
console.log(unknownField);

/** One switch over the package's errors narrows each kind to its class. */
function explain(e: unknown): string {
  if (!isLpmError(e)) throw e;
  switch (e.kind) {
    case "api": return `${e.category} ${e.reason} ${e.code}`;
    case "validation": return e.issues.map((i) => i.path.join(".")).join(", ");
    case "interval": return e.nextAllowedAt.toISOString();
    case "timeout": return String(e.timeoutMs);
    case "tooLarge": return String(e.maxResponseBytes);
    case "internal": return String(e.cause);
    default: return e.message;
  }
}
console.log(explain(new Error("x")));

/** `category` and `reason` go together: a reason of another category does not compile. */
function linked(e: unknown): string {
  if (e instanceof ApiError && e.category === "badRequest" && e.reason === "emailInUse") return "taken";
  // @ts-expect-error emailInUse is a badRequest reason, never an authentication one
  if (e instanceof ApiError && e.category === "authentication" && e.reason === "emailInUse") return "never";
  if (isLpmError(e) && e.kind === "api" && e.category === "capacity") return String(e.reason satisfies "capacityExhausted" | "notEnoughSlots");
  return "";
}
console.log(linked(new Error("x")));

/** What a form library does with any Standard Schema. */
async function submit<S extends StandardSchemaV1>(schema: S, input: unknown): Promise<StandardSchemaV1.InferOutput<S> | string[]> {
  const std = schema["~standard"];
  console.log(`validating with ${std.vendor} v${std.version}`);
  const result = await std.validate(input);
  if (result.issues) return result.issues.map((i) => i.message);
  return result.value;
}
const submitted = await submit(validateCreateUser, { name: "An", username: "an", email: "an@example.vn", password: "x" });
if (!Array.isArray(submitted)) {
  const user: NewUser = submitted;
  console.log(user.email);
}
const direct = await validateCreateUsers["~standard"].validate(rows);
if (direct.issues === undefined) {
  const value: NewUser[] = direct.value;
  console.log(value.length);
} else {
  for (const issue of direct.issues) console.log(issue.path, issue.message);
}

// The Standard Schema v1 interface as published (standardschema.dev), copied here: the package's
// validators must fit what a form library that only knows the spec asks for.
declare namespace Spec {
  interface StandardSchemaV1<Input = unknown, Output = Input> {
    readonly "~standard": Props<Input, Output>;
  }
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
  }
  type Result<Output> = SuccessResult<Output> | FailureResult;
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  interface PathSegment {
    readonly key: PropertyKey;
  }
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
}
declare function useForm<T>(options: { validators: { onSubmit: Spec.StandardSchemaV1<unknown, T> } }): { values: T };
const form = useForm({ validators: { onSubmit: validateCreateUser } });
expectType<Equals<typeof form.values, NewUser>>();
// @ts-expect-error a validator of NewUser is not a schema of Course
const wrongForm: Spec.StandardSchemaV1<unknown, Course> = validateCreateUser;

// ---- shaping and watching requests -----------------------------------------------------------------

const watched = new Client({
  baseUrl: "https://school.example.com",
  token: login.token,
  headers: { "x-gateway-key": "gw" },
  logger: console,
  intervalStore: fileStore("/tmp/lpm-intervals.json"),
  loginTokenInterval: { guard: "wait" },
  onRequest: (e: RequestEvent) => console.log(e.method, e.url, e.endpoint, e.attempt),
  onRetry: (e: RetryEvent) => console.log(e.status ?? e.failure, e.delayMs),
  onError: (e) => console.error(e.error.message),
});
const page2 = await watched.getUsers({ limit: 10 }, { timeoutMs: 5_000, maxRetries: 0, headers: { "x-trace": "1" }, signal: AbortSignal.timeout(10_000) });
expectType<Equals<typeof page2, UserList>>();
const linkToken = await watched.createLoginToken(page2.users[0]?._id ?? "", { waitForInterval: true });
expectType<Equals<typeof linkToken, LoginTokenReply>>();
expectType<Equals<typeof linkToken.token, string>>();
const { data, response } = await watched.withResponse().getCourses({ limit: 5 });
expectType<Equals<typeof data, CourseList>>();
expectType<Equals<typeof response.status, number>>();
expectType<Equals<Awaited<ReturnType<ReturnType<Client["withResponse"]>["getMe"]>>, WithResponse<UserReply>>>();
const tabs: IntervalStore = webStorageStore({ getItem: () => null, setItem: () => {} });
const own: IntervalStore = { get: async (_key: string) => 0, set: async () => {} };
new Client({ baseUrl: "https://school.example.com", intervalStore: tabs });
new Client({ baseUrl: "https://school.example.com", intervalStore: own });
// @ts-expect-error header values are strings
new Client({ baseUrl: "https://school.example.com", headers: { "x-retries": 3 } });
// @ts-expect-error createLoginToken takes an account id
await watched.createLoginToken({ userid: "u1" });
// @ts-expect-error a store needs set
new Client({ baseUrl: "https://school.example.com", intervalStore: { get: () => 0 } });
// @ts-expect-error withResponse has no iterators
watched.withResponse().allUsers();

// ---- cleanup ---------------------------------------------------------------------------------------

{
  using scoped = new Client({ baseUrl: "https://school.example.com", token: login.token });
  console.log((await scoped.getMe()).user.username);
}
// Bulk work is lpm-client-bulk's (tests/types/bulk.ts): lpm-client's Client declares neither job.
// @ts-expect-error lpm-client has no importUsers (lpm-client-bulk has)
void client.importUsers;
// @ts-expect-error nor grantCourses
void client.grantCourses;
anonymous.free();
client.free();
