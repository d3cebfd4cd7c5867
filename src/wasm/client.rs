//! `Client`: the JS-facing client. Each method plans with the core, runs the exchange (fetch,
//! timeout, retries for GET, abort) and decodes with the core.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Promise, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use crate::decode::{check_reply, ReplyPlan};
use crate::error::{ConfigError, DecodeError, Error, ValidationError};
use crate::guard::{guard_key, IntervalGuard, CREATE_INTERVAL_MS};
use crate::json::{self, JsonView, Value};
use crate::plan::{Api, Request, UserPath};
use crate::reply::Reply;
use crate::retry::{self, Attempt};
use crate::validate::{self, ValidateOptions};
use crate::Endpoint;

use super::convert::{get, json_text, parse_js};
use super::errors::Failure;
use super::host;
use super::validators::not_json;

#[wasm_bindgen(typescript_custom_section)]
const TS_CLIENT: &str = r#"
/** The fetch a client uses: the global `fetch` fits, and so does any function of this shape. */
export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal }) => Promise<{ status: number; headers: { get(name: string): string | null }; arrayBuffer(): Promise<ArrayBuffer> }>;

/** Options of `new Client(...)`. */
export interface ClientOptions {
    /** Base address of the platform; may carry a path prefix (`https://school.example.com/app`). */
    baseUrl: string;
    /** API token (from `login`); never shown in an error or a log. Only `login` works without one. */
    token?: string;
    /** Per-attempt timeout in ms; default 30000; 0 turns it off. */
    timeoutMs?: number;
    /** Automatic retries of GET calls on network errors, timeouts, HTTP 429/5xx; default 2. POSTs are never retried. */
    maxRetries?: number;
    /** First retry delay in ms, doubled each retry, unless the server sends Retry-After; default 300. */
    retryDelayMs?: number;
    /** A custom fetch (proxies, tests); default the global `fetch`. */
    fetch?: FetchLike;
    /** Spelling of the get-single-user path; default "users". */
    userPath?: UserPath;
    /** Refuse input that breaks the platform's documented rules too, not only the contract's; default false. */
    strictPlatformRules?: boolean;
    /** The contract's 10-minute interval between bulk creates. */
    createInterval?: {
        /** "reject" (default): a create inside the interval rejects with IntervalError; "wait": it waits; "off": no guard. */
        guard?: "reject" | "wait" | "off";
        /** Interval length in ms; default 600000 (the contract's 10 minutes). */
        intervalMs?: number;
    };
}

/** Options of one call. */
export interface CallOptions {
    /** Aborts the call (and any retry wait); it rejects with AbortError. */
    signal?: AbortSignal;
}

/** Options of a bulk create. */
export interface CreateOptions extends CallOptions {
    /** Wait for the create interval to pass instead of rejecting with IntervalError. */
    waitForInterval?: boolean;
}

/** A page request; `start` defaults to 0, `limit` to 100. */
export interface PageParams {
    start?: number;
    limit?: number;
}

/** search-user parameters: at least one of them. */
export interface SearchUserParams {
    email?: string;
    username?: string;
}

export interface Client {
    /** Every account, page by page with the largest allowed limit. */
    allUsers(options?: CallOptions): AsyncGenerator<User, void, undefined>;
    /** Every course, page by page with the largest allowed limit. */
    allCourses(options?: CallOptions): AsyncGenerator<Course, void, undefined>;
}
"#;

thread_local! {
    /// One guard per JS realm: every client of the same base URL and token shares it.
    static GUARD: RefCell<IntervalGuard> = RefCell::new(IntervalGuard::new());
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum GuardMode {
    Reject,
    Wait,
    Off,
}

#[derive(Clone)]
struct Settings {
    api: Api,
    fetch: JsValue,
    timeout_ms: f64,
    max_retries: u32,
    retry_delay_ms: f64,
    guard: GuardMode,
    interval_ms: f64,
}

impl Settings {
    /// The create-interval guard's key: this client's base URL and token.
    fn guard_key(&self) -> String {
        guard_key(self.api.base_url(), self.api.token().map(|t| t.expose()))
    }

    fn secret(&self) -> Option<String> {
        self.api.token().map(|t| t.expose().to_owned())
    }
}

fn option_error(name: &'static str, expected: &'static str) -> Error {
    Error::Config(ConfigError::Option {
        option: name,
        expected,
    })
}

/// A non-negative finite number option, `default` when absent.
fn number(
    obj: &JsValue,
    name: &'static str,
    default: f64,
    expected: &'static str,
) -> Result<f64, Error> {
    let v = get(obj, name);
    if v.is_undefined() {
        return Ok(default);
    }
    v.as_f64()
        .filter(|n| n.is_finite() && *n >= 0.0)
        .ok_or(option_error(name, expected))
}

fn parse_options(options: &JsValue) -> Result<Settings, Error> {
    if !options.is_object() {
        return Err(option_error("options", "an object with at least `baseUrl`"));
    }
    let base = get(options, "baseUrl")
        .as_string()
        .ok_or(option_error("baseUrl", "a string"))?;
    let mut api = Api::new(&base)?;
    let token = get(options, "token");
    if !token.is_undefined() && !token.is_null() {
        api = api.with_token(&token.as_string().ok_or(option_error("token", "a string"))?)?;
    }
    let user_path = get(options, "userPath");
    if !user_path.is_undefined() {
        api = api.with_user_path(match user_path.as_string().as_deref() {
            Some("users") => UserPath::Users,
            Some("user") => UserPath::User,
            _ => return Err(option_error("userPath", "\"users\" or \"user\"")),
        });
    }
    let strict = get(options, "strictPlatformRules");
    if !strict.is_undefined() {
        api = api.with_strict_platform_rules(
            strict
                .as_bool()
                .ok_or(option_error("strictPlatformRules", "a boolean"))?,
        );
    }
    let fetch = get(options, "fetch");
    if !fetch.is_undefined() && !fetch.is_function() {
        return Err(option_error("fetch", "a function"));
    }
    let max_retries = number(options, "maxRetries", 2.0, "an integer from 0 to 10")?;
    if max_retries.fract() != 0.0 || max_retries > 10.0 {
        return Err(option_error("maxRetries", "an integer from 0 to 10"));
    }
    let interval = get(options, "createInterval");
    if !(interval.is_undefined() || interval.is_object()) {
        return Err(option_error("createInterval", "an object"));
    }
    let guard = match get(&interval, "guard").as_string().as_deref() {
        None if get(&interval, "guard").is_undefined() => GuardMode::Reject,
        Some("reject") => GuardMode::Reject,
        Some("wait") => GuardMode::Wait,
        Some("off") => GuardMode::Off,
        _ => {
            return Err(option_error(
                "createInterval.guard",
                "\"reject\", \"wait\" or \"off\"",
            ))
        }
    };
    Ok(Settings {
        api,
        fetch,
        timeout_ms: number(
            options,
            "timeoutMs",
            30_000.0,
            "a number of milliseconds >= 0",
        )?,
        max_retries: max_retries as u32,
        retry_delay_ms: number(
            options,
            "retryDelayMs",
            300.0,
            "a number of milliseconds >= 0",
        )?,
        guard,
        interval_ms: number(
            &interval,
            "intervalMs",
            CREATE_INTERVAL_MS,
            "a number of milliseconds >= 0",
        )
        .map_err(|_| option_error("createInterval.intervalMs", "a number of milliseconds >= 0"))?,
    })
}

/// Waits `ms`, or fails with an abort when the signal fires.
async fn pause(endpoint: Endpoint, ms: f64, signal: &JsValue) -> Result<(), Failure> {
    JsFuture::from(host::sleep(ms, signal))
        .await
        .map(|_| ())
        .map_err(|e| Failure::Abort {
            endpoint,
            cause: get(&e, "cause"),
        })
}

/// A planned call with its decoder, erased to one type so that every method shares one
/// exchange loop and one promise adapter (each generic copy cost ~7 KB of wasm).
struct Prepared {
    endpoint: Endpoint,
    method: &'static str,
    url: String,
    body: Option<String>,
    idempotent: bool,
    reply: ReplyPlan<'static>,
    secret: Option<String>,
}

/// The reply handed to JS: the body as received, parsed by the engine's `JSON.parse`, plus the
/// fields the core derives (counts, `respCode`). The core's typed decode has checked that body
/// first, so it fits the generated types; unlisted keys are there as received. Measured in
/// bench/boundary.mjs against serializing the typed reply back to JSON text or through
/// serde-wasm-bindgen: ~1.8x faster for a 100-course page, and no Serialize code in the wasm.
fn prepare<R: Reply + 'static>(req: Request<R>) -> Prepared {
    let reply = req.plan();
    Prepared {
        endpoint: req.endpoint(),
        method: req.method().as_str(),
        url: req.url().to_owned(),
        body: req.body().map(str::to_owned),
        idempotent: req.is_idempotent(),
        secret: reply.secret.map(str::to_owned),
        reply: ReplyPlan {
            secret: None,
            ..reply
        },
    }
}

/// Turns (HTTP status, body) into the JS reply.
fn decode(p: &Prepared, status: u16, body: &Uint8Array) -> Result<JsValue, Failure> {
    let plan = ReplyPlan {
        secret: p.secret.as_deref(),
        ..p.reply
    };
    let checked = check_reply(&plan, status, &body.to_vec())?;
    // JS parses the bytes it already holds (no copy of the text out of wasm); the gate has
    // checked that they are UTF-8 and JSON of the reply's shape.
    let value = host::parse_body(body).map_err(|_| {
        Failure::Core(Error::Decode(DecodeError {
            endpoint: p.endpoint,
            status,
            path: ".".into(),
            detail: "the body is not valid UTF-8".into(),
        }))
    })?;
    if let Some(derived) = (plan.derived)(&checked.head, checked.tally) {
        let derived = parse_js(&derived);
        js_sys::Object::assign(
            value.unchecked_ref::<js_sys::Object>(),
            derived.unchecked_ref::<js_sys::Object>(),
        );
    }
    Ok(value)
}

/// Sends the call until it has an answer worth decoding, retrying GETs on transient failures.
async fn exchange(
    s: &Settings,
    p: &Prepared,
    signal: &JsValue,
) -> Result<(u16, Uint8Array), Failure> {
    let endpoint = p.endpoint;
    let mut attempt = 0;
    loop {
        let promise = host::fetch_once(
            &s.fetch,
            p.method,
            &p.url,
            p.body.clone(),
            s.timeout_ms,
            signal,
        );
        // How the attempt ended, and when a retry may follow (None: no retry).
        let (result, outcome, retry_after) = match JsFuture::from(promise).await {
            Ok(res) => {
                let status = get(&res, "status").as_f64().unwrap_or(0.0);
                let status = if (0.0..=999.0).contains(&status) {
                    status as u16
                } else {
                    0
                };
                let body = get(&res, "body")
                    .dyn_into::<Uint8Array>()
                    .unwrap_or_else(|_| Uint8Array::new_with_length(0));
                let retry_after = get(&res, "retryAfterMs").as_f64().filter(|ms| *ms >= 0.0);
                (Ok((status, body)), Attempt::Status(status), retry_after)
            }
            Err(e) => {
                let cause = get(&e, "cause");
                match get(&e, "lpmFailure").as_string().as_deref() {
                    Some("abort") => return Err(Failure::Abort { endpoint, cause }),
                    Some("timeout") => {
                        let timeout_ms = s.timeout_ms;
                        (
                            Err(Failure::Timeout {
                                endpoint,
                                timeout_ms,
                                cause,
                            }),
                            Attempt::Timeout,
                            None,
                        )
                    }
                    _ => (
                        Err(Failure::Network { endpoint, cause }),
                        Attempt::Network,
                        None,
                    ),
                }
            }
        };
        let delay = retry::delay_ms(attempt, s.retry_delay_ms, retry_after);
        match delay {
            Some(ms) if retry::should_retry(p.idempotent, outcome, attempt, s.max_retries) => {
                pause(endpoint, ms, signal).await?;
                attempt += 1;
            }
            _ => return result,
        }
    }
}

/// Keeps the create interval: rejects, or waits, and records the call.
async fn keep_interval(s: &Settings, wait: bool, signal: &JsValue) -> Result<(), Failure> {
    let endpoint = Endpoint::CreateUsers;
    let key = s.guard_key();
    if s.guard != GuardMode::Off {
        loop {
            let now = host::now();
            let Some(at) = GUARD.with(|g| g.borrow().next_allowed_at(&key, now, s.interval_ms))
            else {
                break;
            };
            if !(wait || s.guard == GuardMode::Wait) {
                return Err(Failure::Interval {
                    endpoint,
                    next_allowed_at: at,
                    wait_ms: at - now,
                });
            }
            pause(endpoint, at - now, signal).await?;
        }
    }
    // The two ways fetchOnce fails before sending anything: such a call must not be recorded.
    if get(signal, "aborted").as_bool() == Some(true) {
        return Err(Failure::Abort {
            endpoint,
            cause: get(signal, "reason"),
        });
    }
    if !(s.fetch.is_function() || get(&js_sys::global(), "fetch").is_function()) {
        let cause = js_sys::Error::new("no fetch function is available").into();
        return Err(Failure::Network { endpoint, cause });
    }
    // Recorded when sent: a create whose answer is lost may still have created accounts.
    GUARD.with(|g| g.borrow_mut().record(&key, host::now()));
    Ok(())
}

/// The typed client of the management API.
#[wasm_bindgen]
pub struct Client {
    inner: Rc<Settings>,
}

impl Client {
    /// Plans with the core, then runs and decodes in a promise. Planning errors reject too.
    fn call<R, P>(&self, options: &JsValue, plan: P) -> Promise
    where
        R: Reply + 'static,
        P: FnOnce(&Api) -> Result<Request<R>, Error>,
    {
        self.launch(options, plan(&self.inner.api).map(prepare), false)
    }

    /// As `call`, for bulk creates: keeps the create interval first.
    fn create<R, P>(&self, options: &JsValue, plan: P) -> Promise
    where
        R: Reply + 'static,
        P: FnOnce(&Api) -> Result<Request<R>, Error>,
    {
        self.launch(options, plan(&self.inner.api).map(prepare), true)
    }

    fn launch(
        &self,
        options: &JsValue,
        prepared: Result<Prepared, Error>,
        guarded: bool,
    ) -> Promise {
        let s = Rc::clone(&self.inner);
        let signal = get(options, "signal");
        let wait = get(options, "waitForInterval").as_bool().unwrap_or(false);
        future_to_promise(async move {
            let run = async {
                let p = prepared?;
                if guarded {
                    keep_interval(&s, wait, &signal).await?;
                }
                let (status, body) = exchange(&s, &p, &signal).await?;
                decode(&p, status, &body)
            };
            run.await.map_err(|f| f.into_js(s.secret().as_deref()))
        })
    }
}

/// Reads `value` as JSON text for the core, or the validation error a non-JSON value deserves.
fn json_in(endpoint: Endpoint, value: &JsValue) -> Result<String, Error> {
    json_text(value).ok_or_else(|| not_json(endpoint))
}

/// The JSON tree of text `json_in` gave.
fn tree(endpoint: Endpoint, text: &Result<String, Error>) -> Result<Value<'_>, Error> {
    match text {
        Ok(t) => json::parse(t).map_err(|_| not_json(endpoint)),
        Err(e) => Err(e.clone()),
    }
}

/// A member of a parameters object (`null` when absent).
fn member<'v, 'a>(v: &'v Value<'a>, key: &str) -> &'v Value<'a> {
    v.get(key).unwrap_or(&Value::Null)
}

#[wasm_bindgen]
impl Client {
    /// A client of one platform. Throws `ConfigError` on unusable options.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue,
    ) -> Result<Client, JsValue> {
        let settings = parse_options(&options).map_err(|e| Failure::Core(e).into_js(None))?;
        Ok(Client {
            inner: Rc::new(settings),
        })
    }

    /// The same client with another token (e.g. the one `login` returned).
    #[wasm_bindgen(js_name = withToken)]
    pub fn with_token(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
    ) -> Result<Client, JsValue> {
        let token = token
            .as_string()
            .ok_or_else(|| Failure::Core(option_error("token", "a string")).into_js(None))?;
        let mut settings = (*self.inner).clone();
        settings.api = settings
            .api
            .with_token(&token)
            .map_err(|e| Failure::Core(e).into_js(None))?;
        Ok(Client {
            inner: Rc::new(settings),
        })
    }

    /// The normalised base URL.
    #[wasm_bindgen(getter, js_name = baseUrl)]
    pub fn base_url(&self) -> String {
        self.inner.api.base_url().to_owned()
    }

    /// Creates 1 to 100 accounts (`users/create-multi-user`). Resolves with one result per item,
    /// also when none could be created (code 13). Validates first; keeps the contract's 10-minute
    /// interval (see `createInterval`); never retried automatically.
    #[wasm_bindgen(js_name = createUsers, unchecked_return_type = "Promise<CreateUsersReply>")]
    pub fn create_users(
        &self,
        #[wasm_bindgen(unchecked_param_type = "NewUser[]")] users: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CreateOptions")] options: JsValue,
    ) -> Promise {
        let users = json_in(Endpoint::CreateUsers, &users);
        self.create(&options, move |api| {
            api.create_users_value(&tree(Endpoint::CreateUsers, &users)?)
        })
    }

    /// Creates one account through the bulk endpoint (`create-multi-user` with one item), because
    /// the response of `create-single-user` is unpublished. Same guard and validation as `createUsers`.
    #[wasm_bindgen(js_name = createUser, unchecked_return_type = "Promise<CreateUsersReply>")]
    pub fn create_user(
        &self,
        #[wasm_bindgen(unchecked_param_type = "NewUser")] user: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CreateOptions")] options: JsValue,
    ) -> Promise {
        let users = json_in(Endpoint::CreateUsers, &user).map(|u| ["[", &u, "]"].concat());
        self.create(&options, move |api| {
            api.create_users_value(&tree(Endpoint::CreateUsers, &users)?)
        })
    }

    /// The raw `users/create-single-user` call: resolves with the envelope as received (its
    /// response is unpublished). Not guarded by the bulk interval; never retried.
    #[wasm_bindgen(js_name = createSingleUserRaw, unchecked_return_type = "Promise<RawReply>")]
    pub fn create_single_user_raw(
        &self,
        #[wasm_bindgen(unchecked_param_type = "NewUser")] user: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let user = json_in(Endpoint::CreateUser, &user);
        self.call(&options, move |api| {
            api.create_user_raw_value(&tree(Endpoint::CreateUser, &user)?)
        })
    }

    /// A page of accounts (`users/get-multi-user`); `start` defaults to 0, `limit` (1..100) to 100.
    #[wasm_bindgen(js_name = getUsers, unchecked_return_type = "Promise<UserList>")]
    pub fn get_users(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PageParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let page = params_in(Endpoint::GetUsers, &params);
        self.call(&options, move |api| {
            let page = tree(Endpoint::GetUsers, &page)?;
            api.get_users_value(member(&page, "start"), member(&page, "limit"))
        })
    }

    /// One account by id (`users/get-single-user/<id>`).
    #[wasm_bindgen(js_name = getUser, unchecked_return_type = "Promise<UserReply>")]
    pub fn get_user(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let id = json_in(Endpoint::GetUser, &id);
        self.call(&options, move |api| {
            api.get_user_value(&tree(Endpoint::GetUser, &id)?)
        })
    }

    /// The token's own account (`users/get-me`).
    #[wasm_bindgen(js_name = getMe, unchecked_return_type = "Promise<UserReply>")]
    pub fn get_me(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.call(&options, |api| api.get_me())
    }

    /// One account by e-mail (tried first) or username (`users/search-user`).
    #[wasm_bindgen(js_name = searchUser, unchecked_return_type = "Promise<UserReply>")]
    pub fn search_user(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SearchUserParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let params = params_in(Endpoint::SearchUser, &params);
        self.call(&options, move |api| {
            let params = tree(Endpoint::SearchUser, &params)?;
            api.search_user_value(member(&params, "email"), member(&params, "username"))
        })
    }

    /// One course by id (`courses/get-single-course/<id>`).
    #[wasm_bindgen(js_name = getCourse, unchecked_return_type = "Promise<CourseReply>")]
    pub fn get_course(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let id = json_in(Endpoint::GetCourse, &id);
        self.call(&options, move |api| {
            api.get_course_value(&tree(Endpoint::GetCourse, &id)?)
        })
    }

    /// A page of courses (`courses/get-multi-course`); `start` defaults to 0, `limit` (0..100) to 100.
    #[wasm_bindgen(js_name = getCourses, unchecked_return_type = "Promise<CourseList>")]
    pub fn get_courses(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PageParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let page = params_in(Endpoint::GetCourses, &params);
        self.call(&options, move |api| {
            let page = tree(Endpoint::GetCourses, &page)?;
            api.get_courses_value(member(&page, "start"), member(&page, "limit"))
        })
    }

    /// Courses whose title matches the keywords (`courses/search-course`).
    #[wasm_bindgen(js_name = searchCourses, unchecked_return_type = "Promise<CourseList>")]
    pub fn search_courses(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] title: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let title = json_in(Endpoint::SearchCourses, &title);
        self.call(&options, move |api| {
            api.search_courses_value(&tree(Endpoint::SearchCourses, &title)?)
        })
    }

    /// Grants courses to 1 to 100 accounts (`courses/add-multi-course-to-multi-user`). Never retried.
    #[wasm_bindgen(js_name = addCoursesToUsers, unchecked_return_type = "Promise<AddCoursesReply>")]
    pub fn add_courses_to_users(
        &self,
        #[wasm_bindgen(unchecked_param_type = "AddCoursesInput")] input: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let input = params_in(Endpoint::AddCoursesToUsers, &input);
        self.call(&options, move |api| {
            let input = tree(Endpoint::AddCoursesToUsers, &input)?;
            api.add_courses_to_users_value(member(&input, "users"), member(&input, "courses"))
        })
    }

    /// Logs in (`users/login-user`, platform notes) and resolves with the token and its expiry.
    /// Needs no token; pass the result to `withToken`.
    #[wasm_bindgen(unchecked_return_type = "Promise<LoginReply>")]
    pub fn login(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] email: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] password: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let email = json_in(Endpoint::Login, &email);
        let password = json_in(Endpoint::Login, &password);
        self.call(&options, move |api| {
            api.login_value(
                &tree(Endpoint::Login, &email)?,
                &tree(Endpoint::Login, &password)?,
            )
        })
    }

    /// When the next bulk create of this base URL and token is allowed, or `null` when it is now.
    #[wasm_bindgen(js_name = nextCreateAllowedAt, unchecked_return_type = "Date | null")]
    pub fn next_create_allowed_at(&self) -> JsValue {
        let s = &self.inner;
        let key = s.guard_key();
        let at = GUARD.with(|g| g.borrow().next_allowed_at(&key, host::now(), s.interval_ms));
        match at {
            Some(at) if s.guard != GuardMode::Off => {
                js_sys::Date::new(&JsValue::from_f64(at)).into()
            }
            _ => JsValue::NULL,
        }
    }
}

/// A parameters object as JSON text, refused when it is not an object (or absent).
fn params_in(endpoint: Endpoint, params: &JsValue) -> Result<String, Error> {
    let text = json_in(endpoint, params);
    let report = validate::validate_params(&tree(endpoint, &text)?, ValidateOptions::default());
    if report.is_ok() {
        text
    } else {
        Err(Error::Validation(ValidationError { endpoint, report }))
    }
}
