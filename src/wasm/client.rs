//! `Core`: the planner and decision-maker the package's JS `Client` drives. Every method plans
//! with the core and hands back a [`Pending`] call: the JS driver sends what it is told, waits
//! what it is told, and hands back the answer, which is checked here (`decode::check_reply`).
//! Retries and the create-interval guard are decided by `crate::call::Call`; nothing here
//! awaits, so the wasm carries no futures runtime.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::call::{Call, GuardMode, GuardSpec, Next, Policy};
use crate::decode::{check_reply, ReplyPlan};
use crate::error::{ConfigError, Error, ValidationError};
use crate::guard::{guard_key, IntervalGuard, CREATE_INTERVAL_MS};
use crate::json::{self, JsonView, Value};
use crate::plan::{Api, Request, UserPath};
use crate::reply::Reply;
use crate::validate::{self, ValidateOptions};
use crate::Endpoint;

use super::convert::{get, json_text};
use super::errors::Failure;
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
    /** The largest response body read, in bytes; a larger one rejects with ResponseTooLargeError. Default 33554432 (32 MiB); 0 turns the bound off. */
    maxResponseBytes?: number;
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

"#;

thread_local! {
    /// One guard per JS realm: every client of the same base URL and token shares it.
    static GUARD: RefCell<IntervalGuard> = RefCell::new(IntervalGuard::new());
}

#[derive(Clone)]
struct Settings {
    api: Api,
    timeout_ms: f64,
    max_retries: u32,
    retry_delay_ms: f64,
    guard: GuardMode,
    interval_ms: f64,
    max_response_bytes: f64,
    /// The base URL as the guard keys it (see `Core::new`); the planner's when absent.
    guard_base: Option<String>,
}

/// The default bound of a response body: 32 MiB is 300 times the largest page the API serves
/// (100 courses, ~100 KB), and far below the ~140 MB at which decoding runs the wasm out of memory.
const MAX_RESPONSE_BYTES: f64 = 32.0 * 1024.0 * 1024.0;

impl Settings {
    /// The create-interval guard's key: this client's base URL and token.
    fn guard_key(&self) -> String {
        let base = self.guard_base.as_deref().unwrap_or(self.api.base_url());
        guard_key(base, self.api.token().map(|t| t.expose()))
    }

    fn policy(&self) -> Policy {
        Policy {
            max_retries: self.max_retries,
            retry_delay_ms: self.retry_delay_ms,
        }
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
        max_response_bytes: number(
            options,
            "maxResponseBytes",
            MAX_RESPONSE_BYTES,
            "a number of bytes >= 0",
        )?,
        guard_base: None,
        interval_ms: number(
            &interval,
            "intervalMs",
            CREATE_INTERVAL_MS,
            "a number of milliseconds >= 0",
        )
        .map_err(|_| option_error("createInterval.intervalMs", "a number of milliseconds >= 0"))?,
    })
}

/// A planned call: what to send, the decisions of its retries (and guard), and its decoding.
#[wasm_bindgen]
pub struct Pending {
    endpoint: Endpoint,
    method: &'static str,
    url: String,
    body: Option<String>,
    reply: ReplyPlan<'static>,
    secret: Option<String>,
    call: Call,
    timeout_ms: f64,
    max_response_bytes: f64,
}

/// `Pending.poll` answers: send now, or the call is over; any other value is a wait in ms.
const SEND: f64 = -1.0;
const FINISH: f64 = -2.0;

#[wasm_bindgen]
impl Pending {
    /// The endpoint's name (`get-multi-user`).
    #[wasm_bindgen(getter)]
    pub fn endpoint(&self) -> String {
        self.endpoint.key().into()
    }

    /// The HTTP method.
    #[wasm_bindgen(getter)]
    pub fn method(&self) -> String {
        self.method.into()
    }

    /// The URL, token included: for the fetch only.
    #[wasm_bindgen(getter)]
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// The JSON body, if any.
    #[wasm_bindgen(getter)]
    pub fn body(&self) -> Option<String> {
        self.body.clone()
    }

    /// The per-attempt timeout in ms (0: none).
    #[wasm_bindgen(getter, js_name = timeoutMs)]
    pub fn timeout_ms(&self) -> f64 {
        self.timeout_ms
    }

    /// The largest body to read in bytes (0: no bound).
    #[wasm_bindgen(getter, js_name = maxResponseBytes)]
    pub fn max_response_bytes(&self) -> f64 {
        self.max_response_bytes
    }

    /// What to do at `now`: -1 send, -2 finish, else wait that many ms. A create refused by the
    /// interval guard throws its `IntervalError` data.
    pub fn poll(&mut self, now: f64) -> Result<f64, JsValue> {
        match GUARD.with(|g| self.call.poll(now, &mut g.borrow_mut())) {
            Next::Send { .. } => Ok(SEND),
            Next::Finish => Ok(FINISH),
            Next::Wait { ms } => Ok(ms.max(0.0)),
            Next::Refuse {
                next_allowed_at,
                wait_ms,
            } => Err(Failure::Interval {
                endpoint: self.endpoint,
                next_allowed_at,
                wait_ms,
            }
            .into_js(None)),
        }
    }

    /// The attempt ended with an HTTP answer; `true` when it is final. `retry_after_ms` < 0:
    /// none was sent.
    #[wasm_bindgen(js_name = handleResponse)]
    pub fn handle_response(&mut self, now: f64, status: u16, retry_after_ms: f64) -> bool {
        let ra = (retry_after_ms >= 0.0 || retry_after_ms.is_nan()).then_some(retry_after_ms);
        self.call
            .handle_response(now, status, ra.filter(|ms| !ms.is_nan()))
    }

    /// The attempt failed (network error, or a timeout); `true` when the failure is final.
    #[wasm_bindgen(js_name = handleFailure)]
    pub fn handle_failure(&mut self, now: f64, timed_out: bool) -> bool {
        self.call.handle_failure(now, timed_out)
    }

    /// Checks the final answer: the derived fields as JSON text (or nothing) when it is a success
    /// that fits the reply; else throws the error's data. `utf8_known`: the driver has decoded
    /// the bytes strictly already.
    pub fn decode(
        &self,
        status: u16,
        body: &[u8],
        utf8_known: bool,
    ) -> Result<Option<String>, JsValue> {
        let plan = ReplyPlan {
            secret: self.secret.as_deref(),
            ..self.reply
        };
        let checked = check_reply(&plan, status, body, utf8_known)
            .map_err(|e| Failure::Core(e).into_js(self.secret.as_deref()))?;
        Ok((plan.derived)(&checked.head, checked.tally))
    }

    /// The data of a failure the host saw: `network`, `timeout`, `abort` or `tooLarge`.
    pub fn failure(&self, kind: &str) -> JsValue {
        let endpoint = self.endpoint;
        match kind {
            "timeout" => Failure::Timeout {
                endpoint,
                timeout_ms: self.timeout_ms,
            },
            "abort" => Failure::Abort { endpoint },
            "tooLarge" => Failure::TooLarge {
                endpoint,
                max_response_bytes: self.max_response_bytes,
            },
            _ => Failure::Network { endpoint },
        }
        .into_js(None)
    }

    /// `text` with the token (in any encoding the redactor knows) replaced by `<redacted>`.
    pub fn redact(&self, text: &str) -> String {
        crate::error::redact(text, self.secret.as_deref())
    }

    /// Whether the call carries a token (then host errors are copied clean before they are
    /// attached as causes).
    #[wasm_bindgen(getter, js_name = hasToken)]
    pub fn has_token(&self) -> bool {
        self.secret.is_some()
    }

    /// Whether `text` shows the token.
    pub fn leaks(&self, text: &str) -> bool {
        self.secret.is_some() && self.redact(text) != text
    }
}

/// The typed client's core: options, planning and the guard; the package's `Client` wraps it.
#[wasm_bindgen]
pub struct Core {
    inner: Settings,
}

impl Core {
    fn pending<R: Reply + 'static>(&self, req: Request<R>, guard: Option<bool>) -> Pending {
        let s = &self.inner;
        let reply = req.plan();
        let secret = reply.secret.map(str::to_owned);
        let call = match guard {
            Some(wait) => Call::guarded(
                s.policy(),
                GuardSpec {
                    key: s.guard_key(),
                    mode: s.guard,
                    interval_ms: s.interval_ms,
                },
                wait,
            ),
            None => Call::new(req.is_idempotent(), s.policy()),
        };
        Pending {
            endpoint: req.endpoint(),
            method: req.method().as_str(),
            url: req.url().to_owned(),
            body: req.body().map(str::to_owned),
            reply: ReplyPlan {
                secret: None,
                ..reply
            },
            secret,
            call,
            timeout_ms: s.timeout_ms,
            max_response_bytes: s.max_response_bytes,
        }
    }

    /// Plans a call; planning errors throw their data.
    fn call<R, P>(&self, plan: P) -> Result<Pending, JsValue>
    where
        R: Reply + 'static,
        P: FnOnce(&Api) -> Result<Request<R>, Error>,
    {
        plan(&self.inner.api)
            .map(|req| self.pending(req, None))
            .map_err(|e| Failure::Core(e).into_js(None))
    }

    /// As `call`, for bulk creates: kept by the create-interval guard (`wait`: wait it out).
    fn create<R, P>(&self, wait: bool, plan: P) -> Result<Pending, JsValue>
    where
        R: Reply + 'static,
        P: FnOnce(&Api) -> Result<Request<R>, Error>,
    {
        plan(&self.inner.api)
            .map(|req| self.pending(req, Some(wait)))
            .map_err(|e| Failure::Core(e).into_js(None))
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
impl Core {
    /// A client core of one platform. Throws `ConfigError` data on unusable options.
    /// `guard_base`: the base URL normalised by the host's WHATWG URL parser (the JS `Client`
    /// passes it), so that spellings of one origin and path share one create-interval window.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue,
        guard_base: Option<String>,
    ) -> Result<Core, JsValue> {
        let mut inner = parse_options(&options).map_err(|e| Failure::Core(e).into_js(None))?;
        inner.guard_base = guard_base;
        Ok(Core { inner })
    }

    /// The same core with another token.
    #[wasm_bindgen(js_name = withToken)]
    pub fn with_token(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
    ) -> Result<Core, JsValue> {
        let token = token
            .as_string()
            .ok_or_else(|| Failure::Core(option_error("token", "a string")).into_js(None))?;
        let mut inner = self.inner.clone();
        inner.api = inner
            .api
            .with_token(&token)
            .map_err(|e| Failure::Core(e).into_js(None))?;
        Ok(Core { inner })
    }

    /// The normalised base URL.
    #[wasm_bindgen(getter, js_name = baseUrl)]
    pub fn base_url(&self) -> String {
        self.inner.api.base_url().to_owned()
    }

    /// Plans the call of the `Client` method `method` with its arguments (`wait`: a create waits
    /// out the interval guard). One export for every method keeps the bindings small.
    #[wasm_bindgen(unchecked_return_type = "Pending")]
    pub fn plan(
        &self,
        method: &str,
        a: JsValue,
        b: JsValue,
        wait: bool,
    ) -> Result<Pending, JsValue> {
        match method {
            "createUsers" => self.create_users(a, wait),
            "createUser" => self.create_user(a, wait),
            "createSingleUserRaw" => self.create_single_user_raw(a),
            "getUsers" => self.get_users(a),
            "getUser" => self.get_user(a),
            "getMe" => self.get_me(),
            "searchUser" => self.search_user(a),
            "getCourse" => self.get_course(a),
            "getCourses" => self.get_courses(a),
            "searchCourses" => self.search_courses(a),
            "addCoursesToUsers" => self.add_courses_to_users(a),
            "login" => self.login(a, b),
            _ => Err(Failure::Core(option_error("method", "a method of Client")).into_js(None)),
        }
    }

    /// When the next bulk create of this base URL and token is allowed (ms since the epoch), or
    /// `NaN` when it is now (or the guard is off).
    #[wasm_bindgen(js_name = nextCreateAllowedAt)]
    pub fn next_create_allowed_at(&self, now: f64) -> f64 {
        let s = &self.inner;
        if s.guard == GuardMode::Off {
            return f64::NAN;
        }
        let key = s.guard_key();
        GUARD
            .with(|g| g.borrow().next_allowed_at(&key, now, s.interval_ms))
            .unwrap_or(f64::NAN)
    }
}

/// The planning of each `Client` method.
impl Core {
    /// Creates 1 to 100 accounts (`users/create-multi-user`). Resolves with one result per item,
    /// also when none could be created (code 13). Validates first; keeps the contract's 10-minute
    /// interval (see `createInterval`); never retried automatically.
    fn create_users(&self, users: JsValue, wait: bool) -> Result<Pending, JsValue> {
        let users = json_in(Endpoint::CreateUsers, &users);
        self.create(wait, |api| {
            api.create_users_value(&tree(Endpoint::CreateUsers, &users)?)
        })
    }

    /// Creates one account through the bulk endpoint (`create-multi-user` with one item), because
    /// the response of `create-single-user` is unpublished. Same guard and validation as `createUsers`.
    fn create_user(&self, user: JsValue, wait: bool) -> Result<Pending, JsValue> {
        let users = json_in(Endpoint::CreateUsers, &user).map(|u| ["[", &u, "]"].concat());
        self.create(wait, |api| {
            api.create_users_value(&tree(Endpoint::CreateUsers, &users)?)
        })
    }

    /// The raw `users/create-single-user` call: resolves with the envelope as received (its
    /// response is unpublished). Not guarded by the bulk interval; never retried.
    fn create_single_user_raw(&self, user: JsValue) -> Result<Pending, JsValue> {
        let user = json_in(Endpoint::CreateUser, &user);
        self.call(|api| api.create_user_raw_value(&tree(Endpoint::CreateUser, &user)?))
    }

    /// A page of accounts (`users/get-multi-user`); `start` defaults to 0, `limit` (1..100) to 100.
    fn get_users(&self, params: JsValue) -> Result<Pending, JsValue> {
        let page = params_in(Endpoint::GetUsers, &params);
        self.call(|api| {
            let page = tree(Endpoint::GetUsers, &page)?;
            api.get_users_value(member(&page, "start"), member(&page, "limit"))
        })
    }

    /// One account by id (`users/get-single-user/<id>`).
    fn get_user(&self, id: JsValue) -> Result<Pending, JsValue> {
        let id = json_in(Endpoint::GetUser, &id);
        self.call(|api| api.get_user_value(&tree(Endpoint::GetUser, &id)?))
    }

    /// The token's own account (`users/get-me`).
    fn get_me(&self) -> Result<Pending, JsValue> {
        self.call(|api| api.get_me())
    }

    /// One account by e-mail (tried first) or username (`users/search-user`).
    fn search_user(&self, params: JsValue) -> Result<Pending, JsValue> {
        let params = params_in(Endpoint::SearchUser, &params);
        self.call(|api| {
            let params = tree(Endpoint::SearchUser, &params)?;
            api.search_user_value(member(&params, "email"), member(&params, "username"))
        })
    }

    /// One course by id (`courses/get-single-course/<id>`).
    fn get_course(&self, id: JsValue) -> Result<Pending, JsValue> {
        let id = json_in(Endpoint::GetCourse, &id);
        self.call(|api| api.get_course_value(&tree(Endpoint::GetCourse, &id)?))
    }

    /// A page of courses (`courses/get-multi-course`); `start` defaults to 0, `limit` (0..100) to 100.
    fn get_courses(&self, params: JsValue) -> Result<Pending, JsValue> {
        let page = params_in(Endpoint::GetCourses, &params);
        self.call(|api| {
            let page = tree(Endpoint::GetCourses, &page)?;
            api.get_courses_value(member(&page, "start"), member(&page, "limit"))
        })
    }

    /// Courses whose title matches the keywords (`courses/search-course`).
    fn search_courses(&self, title: JsValue) -> Result<Pending, JsValue> {
        let title = json_in(Endpoint::SearchCourses, &title);
        self.call(|api| api.search_courses_value(&tree(Endpoint::SearchCourses, &title)?))
    }

    /// Grants courses to 1 to 100 accounts (`courses/add-multi-course-to-multi-user`). Never retried.
    fn add_courses_to_users(&self, input: JsValue) -> Result<Pending, JsValue> {
        let input = params_in(Endpoint::AddCoursesToUsers, &input);
        self.call(|api| {
            let input = tree(Endpoint::AddCoursesToUsers, &input)?;
            api.add_courses_to_users_value(member(&input, "users"), member(&input, "courses"))
        })
    }

    /// Logs in (`users/login-user`, platform notes) and resolves with the token and its expiry.
    /// Needs no token; pass the result to `withToken`.
    fn login(&self, email: JsValue, password: JsValue) -> Result<Pending, JsValue> {
        let email = json_in(Endpoint::Login, &email);
        let password = json_in(Endpoint::Login, &password);
        self.call(|api| {
            api.login_value(
                &tree(Endpoint::Login, &email)?,
                &tree(Endpoint::Login, &password)?,
            )
        })
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
