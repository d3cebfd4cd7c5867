//! `Core`: the planner and decision-maker the package's JS `Client` drives. Every method plans
//! with the core and hands back a [`Pending`] call: the JS driver sends what it is told, waits
//! what it is told, and hands back the answer, which is checked here (`decode::check_reply`).
//! Retries and the create-interval guard are decided by `crate::call::Call`; nothing here
//! awaits, so the wasm carries no futures runtime.

use wasm_bindgen::prelude::*;

use crate::call::{Call, GuardMode, GuardSpec, Next, Policy};
use crate::decode::{check_reply, ReplyPlan};
use crate::error::{cat, ConfigError, Error, ValidationError};
use crate::interval::{
    guard_key, login_token_key, IntervalGuard, CREATE_INTERVAL_MS, LOGIN_TOKEN_INTERVAL_MS,
};
use crate::json::{self, JsonView, Value};
use crate::plan::{Planner, Request, UserPath};
use crate::reply::Reply;
use crate::secret::Token;
use crate::validate::{self, ValidateOptions};
use crate::Endpoint;

use super::errors::Failure;
use super::validators::not_json;

#[wasm_bindgen(typescript_custom_section)]
const TS_CLIENT: &str = r#"
/** The fetch a client uses: the global `fetch` fits, and so does any function of this shape. */
export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal }) => Promise<{ status: number; headers: { get(name: string): string | null }; arrayBuffer(): Promise<ArrayBuffer> }>;

/** Options of `new Client(...)`. */
export interface ClientOptions extends Hooks {
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
    /** A custom fetch (proxies, tests); default the global `fetch`. It gets the real URL, token included. */
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
    /** The platform's advised 5 s between `createLoginToken` calls, kept like `createInterval`. */
    loginTokenInterval?: {
        /** "reject" (default), "wait" or "off". */
        guard?: "reject" | "wait" | "off";
        /** Interval length in ms; default 5000. */
        intervalMs?: number;
    };
    /** Where the intervals' last calls are kept besides this realm's memory (the default): `fileStore(path)` in Node, `webStorageStore(localStorage)` in a browser, or your own. */
    intervalStore?: IntervalStore;
    /** Headers sent with every request (proxies, gateways); a call's `headers` are added over them. */
    headers?: Record<string, string>;
    /** Lines at `debug` (one per attempt) and `warn` (retries, failures), `error` (a hook that threw); `console` fits. Never shows the token. */
    logger?: Logger;
}

/** Hooks: told of each attempt, without the token. One that throws is ignored (and logged at `error`). */
export interface Hooks {
    /** Before each attempt is sent. */
    onRequest?: (event: RequestEvent) => void;
    /** An attempt got an HTTP answer (any status). */
    onResponse?: (event: ResponseEvent) => void;
    /** An attempt failed and another is scheduled after `delayMs`. */
    onRetry?: (event: RetryEvent) => void;
    /** The call rejects (after it was planned: not for ValidationError or ConfigError thrown at planning). */
    onError?: (event: FailureEvent) => void;
}

/** What a hook sees of a request: the URL with the token replaced by `<redacted>`. */
export interface RequestEvent {
    method: "GET" | "POST";
    url: string;
    endpoint: Endpoint;
    /** 1 for the first attempt; 0 in `onError` when nothing was sent. */
    attempt: number;
    /** The request's headers (lower-case names). */
    headers: Record<string, string>;
}
export interface ResponseEvent extends RequestEvent {
    status: number;
    durationMs: number;
}
export interface RetryEvent extends RequestEvent {
    /** The answer's status, or why the attempt failed. */
    status?: number;
    failure?: "network" | "timeout";
    durationMs: number;
    /** The wait before the next attempt (full jitter on the doubling delay, or the server's Retry-After). */
    delayMs: number;
}
export interface FailureEvent extends RequestEvent {
    /** The error the call rejects with (an LpmError). */
    error: Error;
}

/** A logger with levels; every function is optional. */
export interface Logger {
    debug?: (message: string) => void;
    info?: (message: string) => void;
    warn?: (message: string) => void;
    error?: (message: string) => void;
}

/** Where a guard keeps the time (ms since the epoch) of the last guarded call of a key. */
export interface IntervalStore {
    get(key: string): number | undefined | null | Promise<number | undefined | null>;
    set(key: string, atMs: number): void | Promise<void>;
}

/** Options of one call; they override the client's. */
export interface CallOptions extends Hooks {
    /** Aborts the call (and any retry wait); it rejects with AbortError. */
    signal?: AbortSignal;
    /** Per-attempt timeout in ms for this call; 0 turns it off. */
    timeoutMs?: number;
    /** Automatic retries of this call (GET only), 0 to 10. */
    maxRetries?: number;
    /** Headers of this call, added over the client's. */
    headers?: Record<string, string>;
}

/** Options of a guarded call: a bulk create, or a login token. */
export interface CreateOptions extends CallOptions {
    /** Wait for the interval to pass instead of rejecting with IntervalError. */
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

#[derive(Clone)]
pub(super) struct Settings {
    pub(super) api: Planner,
    pub(super) timeout_ms: f64,
    pub(super) max_retries: u32,
    retry_delay_ms: f64,
    guard: GuardMode,
    pub(super) interval_ms: f64,
    login_guard: GuardMode,
    login_interval_ms: f64,
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

    /// The guard of a create (`login`: of a create-user-login-token call).
    fn guard_spec(&self, login: bool) -> GuardSpec {
        let key = self.guard_key();
        match login {
            true => GuardSpec {
                key: login_token_key(&key),
                mode: self.login_guard,
                interval_ms: self.login_interval_ms,
            },
            false => GuardSpec {
                key,
                mode: self.guard,
                interval_ms: self.interval_ms,
            },
        }
    }

    fn policy(&self) -> Policy {
        Policy {
            max_retries: self.max_retries,
            retry_delay_ms: self.retry_delay_ms,
        }
    }
}

#[inline(never)]
fn option_error(name: &'static str, expected: &'static str) -> Error {
    Error::Config(ConfigError::Option {
        option: name,
        expected,
    })
}

/// What the JS writes for a function in an options object (`optionsJson` in lib.js).
const FUNCTION: &str = "\u{0}function";

/// An options object as the JS wrote it (`optionsJson` in lib.js: functions as [`FUNCTION`],
/// NaN and the infinities as `null`); `null` when the text is not JSON.
fn options_tree(text: &str) -> Value<'_> {
    json::parse(text).unwrap_or(Value::Null)
}

/// A non-negative finite number option, `default` when absent.
fn number(
    obj: &Value<'_>,
    name: &'static str,
    default: f64,
    expected: &'static str,
) -> Result<f64, Error> {
    match obj.get(name) {
        None => Ok(default),
        Some(v) => v
            .as_f64()
            .filter(|n| n.is_finite() && *n >= 0.0)
            .ok_or(option_error(name, expected)),
    }
}

/// An interval guard's options `{guard, intervalMs}` under `names.0` (names: the option and its
/// two members, as errors name them).
fn interval_option(
    options: &Value<'_>,
    names: (&'static str, &'static str, &'static str),
    default_ms: f64,
) -> Result<(GuardMode, f64), Error> {
    let none = Value::Obj(Vec::new());
    let interval = options.get(names.0).unwrap_or(&none);
    if !interval.is_object() {
        return Err(option_error(names.0, "an object"));
    }
    let guard = match interval.get("guard").map(|g| g.as_str()) {
        None | Some(Some("reject")) => GuardMode::Reject,
        Some(Some("wait")) => GuardMode::Wait,
        Some(Some("off")) => GuardMode::Off,
        _ => return Err(option_error(names.1, "\"reject\", \"wait\" or \"off\"")),
    };
    let ms =
        number(interval, "intervalMs", default_ms, MS).map_err(|_| option_error(names.2, MS))?;
    Ok((guard, ms))
}

/// What a duration option must be.
const MS: &str = "a number of milliseconds >= 0";

/// `maxRetries` (client-wide or per call).
fn max_retries(obj: &Value<'_>, default: u32) -> Result<u32, Error> {
    const EXPECTED: &str = "an integer from 0 to 10";
    let n = number(obj, "maxRetries", f64::from(default), EXPECTED)?;
    if n.fract() != 0.0 || n > 10.0 {
        return Err(option_error("maxRetries", EXPECTED));
    }
    Ok(n as u32)
}

fn parse_options(text: &str) -> Result<Settings, Error> {
    let options = &options_tree(text);
    if !options.is_object() {
        return Err(option_error("options", "an object with at least `baseUrl`"));
    }
    let base = options
        .get("baseUrl")
        .and_then(JsonView::as_str)
        .ok_or(option_error("baseUrl", "a string"))?;
    let mut api = Planner::new(base)?;
    match options.get("token") {
        None | Some(Value::Null) => {}
        Some(token) => {
            api = api.with_token(token.as_str().ok_or(option_error("token", "a string"))?)?
        }
    }
    if let Some(user_path) = options.get("userPath") {
        api = api.with_user_path(match user_path.as_str() {
            Some("users") => UserPath::Users,
            Some("user") => UserPath::User,
            _ => return Err(option_error("userPath", "\"users\" or \"user\"")),
        });
    }
    if let Some(strict) = options.get("strictPlatformRules") {
        let Value::Bool(strict) = strict else {
            return Err(option_error("strictPlatformRules", "a boolean"));
        };
        api = api.with_strict_platform_rules(*strict);
    }
    if options
        .get("fetch")
        .is_some_and(|f| f.as_str() != Some(FUNCTION))
    {
        return Err(option_error("fetch", "a function"));
    }
    let max_retries = max_retries(options, 2)?;
    let (guard, interval_ms) = interval_option(
        options,
        (
            "createInterval",
            "createInterval.guard",
            "createInterval.intervalMs",
        ),
        CREATE_INTERVAL_MS,
    )?;
    let (login_guard, login_interval_ms) = interval_option(
        options,
        (
            "loginTokenInterval",
            "loginTokenInterval.guard",
            "loginTokenInterval.intervalMs",
        ),
        LOGIN_TOKEN_INTERVAL_MS,
    )?;
    Ok(Settings {
        api,
        timeout_ms: number(options, "timeoutMs", 30_000.0, MS)?,
        max_retries,
        retry_delay_ms: number(options, "retryDelayMs", 300.0, MS)?,
        guard,
        interval_ms,
        login_guard,
        login_interval_ms,
        max_response_bytes: number(
            options,
            "maxResponseBytes",
            MAX_RESPONSE_BYTES,
            "a number of bytes >= 0",
        )?,
        guard_base: None,
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
    secret: Option<Token>,
    call: Call,
    timeout_ms: f64,
    max_response_bytes: f64,
}

/// What `Pending.describe` tells the driver.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct PendingRequest<'a> {
    endpoint: &'a str,
    method: &'a str,
    url: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<&'a str>,
    timeout_ms: f64,
    max_response_bytes: f64,
    has_token: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    guard_key: Option<&'a str>,
}

/// `Pending.poll` answers: send now, or the call is over (-3 and -4: the same, and record the
/// time in the interval store under `guardKey`); any other value is a wait in ms.
const SEND: f64 = -1.0;
const FINISH: f64 = -2.0;
const RECORD: f64 = -2.0;

/// A string returned as a JS value (one result) rather than as `String` (a pointer and a length
/// the glue reads from a return area and frees): smaller glue, and no multi-value export for
/// Node 20 to compile a wrapper for (scripts/no-multivalue.mjs).
fn text(s: impl AsRef<str>) -> JsValue {
    JsValue::from_str(s.as_ref())
}

#[wasm_bindgen]
impl Pending {
    /// What the driver needs to know of the call, in one crossing: `{endpoint, method, url,
    /// body?, timeoutMs, maxResponseBytes, hasToken, guardKey?}` (`url` holds the token: for the
    /// fetch only), as JSON text.
    #[wasm_bindgen(unchecked_return_type = "string")]
    pub fn describe(&self) -> JsValue {
        text(json::ser::to_string(&PendingRequest {
            endpoint: self.endpoint.key(),
            method: self.method,
            url: &self.url,
            body: self.body.as_deref(),
            timeout_ms: self.timeout_ms,
            max_response_bytes: self.max_response_bytes,
            has_token: self.secret.is_some(),
            guard_key: self.call.guard_key(),
        }))
    }

    /// What to do at `now`: -1 send, -2 finish (-3, -4: and record `now` under `guardKey`), else
    /// wait that many ms. `last`: when the guard's key last sent, as the interval store says
    /// (NaN: never). A call refused by its interval guard throws its `IntervalError` data.
    pub fn poll(&mut self, now: f64, last: f64) -> Result<f64, JsValue> {
        let mut guard = IntervalGuard::new();
        let key = self.call.guard_key().map(str::to_owned);
        if let (Some(key), false) = (&key, last.is_nan()) {
            guard.record(key, last);
        }
        let recorded = |g: &IntervalGuard| key.as_deref().and_then(|k| g.last(k));
        let before = recorded(&guard);
        let next = self.call.poll(now, &mut guard);
        let record = if recorded(&guard) != before {
            RECORD
        } else {
            0.0
        };
        match next {
            Next::Send { .. } => Ok(SEND + record),
            Next::Finish => Ok(FINISH + record),
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

    /// The attempt ended with an HTTP answer: -1 when it is final, else the delay of the retry
    /// scheduled (ms). `retry_after_ms` < 0: none was sent. `jitter` in [0, 1): the full-jitter
    /// draw for a retry's delay.
    #[wasm_bindgen(js_name = handleResponse)]
    pub fn handle_response(
        &mut self,
        now: f64,
        status: u16,
        retry_after_ms: f64,
        jitter: f64,
    ) -> f64 {
        self.call.set_jitter(jitter);
        let ra = (retry_after_ms >= 0.0 || retry_after_ms.is_nan()).then_some(retry_after_ms);
        let ra = ra.filter(|ms| !ms.is_nan());
        self.call.handle_response(now, status, ra);
        self.retry_delay(now)
    }

    /// The attempt failed (network error, or a timeout): as `handleResponse`.
    #[wasm_bindgen(js_name = handleFailure)]
    pub fn handle_failure(&mut self, now: f64, timed_out: bool, jitter: f64) -> f64 {
        self.call.set_jitter(jitter);
        self.call.handle_failure(now, timed_out);
        self.retry_delay(now)
    }

    fn retry_delay(&self, now: f64) -> f64 {
        self.call.retry_at().map_or(-1.0, |at| at - now)
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
            secret: self.secret.as_ref().map(Token::expose),
            ..self.reply
        };
        let checked = check_reply(&plan, status, body, utf8_known)
            .map_err(|e| Failure::Core(e).into_js(None))?;
        Ok((plan.derived)(&checked.head, checked.tally))
    }

    /// The data of a failure the host saw: `network`, `timeout`, `abort` or `tooLarge`.
    /// As JSON text, which the package's `fromThrown` parses.
    #[wasm_bindgen(unchecked_return_type = "string")]
    pub fn failure(&self, kind: &str) -> JsValue {
        let endpoint = self.endpoint;
        text(
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
            .into_json(None),
        )
    }

    /// `text` with the token (in any encoding the redactor knows) replaced by `<redacted>`.
    #[wasm_bindgen(unchecked_return_type = "string")]
    pub fn redact(&self, text: &str) -> JsValue {
        self::text(crate::secret::redact(
            text,
            self.secret.as_ref().map(Token::expose),
        ))
    }
}

/// The typed client's core: options, planning and the guard; the package's `Client` wraps it.
#[wasm_bindgen]
pub struct Core {
    pub(super) inner: Settings,
}

impl Core {
    /// The pending call of a planned request: only the reply's plan is taken from its type, the
    /// rest is one copy for every endpoint.
    #[inline(never)]
    pub(super) fn pending<R: Reply + 'static>(&self, req: Request<R>, per: &PerCall) -> Pending {
        let reply = ReplyPlan {
            secret: None,
            ..req.plan()
        };
        self.untyped(req.cast(), reply, per)
    }

    #[inline(never)]
    fn untyped(&self, req: Request<()>, reply: ReplyPlan<'static>, per: &PerCall) -> Pending {
        let s = &self.inner;
        let secret = req.token().cloned();
        let policy = Policy {
            max_retries: per.max_retries,
            ..s.policy()
        };
        let call = match per.guard {
            Some(login) => Call::guarded(policy, s.guard_spec(login), per.wait),
            None => Call::new(req.is_idempotent(), policy),
        };
        Pending {
            endpoint: req.endpoint(),
            method: req.method().as_str(),
            url: req.url().to_owned(),
            body: req.body().map(str::to_owned),
            reply,
            secret,
            call,
            timeout_ms: per.timeout_ms,
            max_response_bytes: s.max_response_bytes,
        }
    }

    /// The settings of one call: the client's, overridden by the call's options (JSON text as
    /// `optionsJson` in lib.js writes it).
    fn per_call(&self, options: &str) -> Result<PerCall, Error> {
        let s = &self.inner;
        let options = &options_tree(options);
        if !(options.is_null() || options.is_object()) {
            return Err(option_error("options", "an object"));
        }
        Ok(PerCall {
            timeout_ms: number(options, "timeoutMs", s.timeout_ms, MS)?,
            max_retries: max_retries(options, s.max_retries)?,
            wait: options.get("waitForInterval").is_some_and(Value::truthy),
            guard: None,
        })
    }
}

/// One call's settings: `guard` is `Some(login)` for guarded calls (a bulk create, or with
/// `login` a create-user-login-token), whose `wait` waits out the interval instead of refusing.
#[derive(Clone, Copy)]
pub(super) struct PerCall {
    pub(super) timeout_ms: f64,
    pub(super) max_retries: u32,
    pub(super) wait: bool,
    pub(super) guard: Option<bool>,
}

/// The JSON tree of a caller's value as the JS wrote it (`None`: it cannot be written as JSON),
/// or the validation error a non-JSON value deserves.
#[inline(never)]
fn tree(endpoint: Endpoint, text: &Option<String>) -> Result<Value<'_>, Error> {
    text.as_deref()
        .and_then(|t| json::parse(t).ok())
        .ok_or_else(|| not_json(endpoint))
}

use super::validators::member;

#[wasm_bindgen]
impl Core {
    /// A client core of one platform. Throws `ConfigError` data on unusable options.
    /// `guard_base`: the base URL normalised by the host's WHATWG URL parser (the JS `Client`
    /// passes it), so that spellings of one origin and path share one create-interval window.
    #[wasm_bindgen(constructor)]
    pub fn new(options: &str, guard_base: Option<String>) -> Result<Core, JsValue> {
        let mut inner = parse_options(options).map_err(|e| Failure::Core(e).into_js(None))?;
        inner.guard_base = guard_base;
        Ok(Core { inner })
    }

    /// The same core with another token.
    #[wasm_bindgen(js_name = withToken)]
    /// `token`: `undefined` when the caller's is not a string.
    pub fn with_token(&self, token: Option<String>) -> Result<Core, JsValue> {
        let token =
            token.ok_or_else(|| Failure::Core(option_error("token", "a string")).into_js(None))?;
        let mut inner = self.inner.clone();
        inner.api = inner
            .api
            .with_token(&token)
            .map_err(|e| Failure::Core(e).into_js(None))?;
        Ok(Core { inner })
    }

    /// The normalised base URL.
    #[wasm_bindgen(getter, js_name = baseUrl, unchecked_return_type = "string")]
    pub fn base_url(&self) -> JsValue {
        text(self.inner.api.base_url())
    }

    /// Plans the call of the `Client` method `method` with its arguments and the call's options
    /// (`timeoutMs`, `maxRetries`, `waitForInterval`; the rest are the driver's). One export for
    /// every method keeps the bindings small.
    #[wasm_bindgen(unchecked_return_type = "Pending")]
    pub fn plan(
        &self,
        method: &str,
        a: Option<String>,
        b: Option<String>,
        options: &str,
    ) -> Result<Pending, JsValue> {
        self.plan_call(method, a, b, options)
            .map_err(|e| Failure::Core(e).into_js(None))
    }

    /// The interval store's key of this client's bulk creates.
    #[wasm_bindgen(getter, js_name = guardKey, unchecked_return_type = "string")]
    pub fn guard_key(&self) -> JsValue {
        text(self.inner.guard_key())
    }

    /// When the next bulk create of this base URL and token is allowed (ms since the epoch), or
    /// `NaN` when it is now (or the guard is off); `last`: the store's time of the last (NaN: none).
    #[wasm_bindgen(js_name = nextCreateAllowedAt)]
    pub fn next_create_allowed_at(&self, now: f64, last: f64) -> f64 {
        let s = &self.inner;
        if s.guard == GuardMode::Off || last.is_nan() {
            return f64::NAN;
        }
        let key = s.guard_key();
        let mut guard = IntervalGuard::new();
        guard.record(&key, last);
        guard
            .next_allowed_at(&key, now, s.interval_ms)
            .unwrap_or(f64::NAN)
    }
}

/// The planning of each `Client` method: one function, whose errors become thrown data in one
/// place (a closure and an error conversion per method cost the wasm ~3 KB).
impl Core {
    fn plan_call(
        &self,
        method: &str,
        a: Option<String>,
        b: Option<String>,
        options: &str,
    ) -> Result<Pending, Error> {
        use Endpoint as E;
        let per = self.per_call(options)?;
        let guarded = |login| PerCall {
            guard: Some(login),
            ..per
        };
        let api = &self.inner.api;
        Ok(match method {
            // 1 to 100 accounts (`users/create-multi-user`); one result per item, also when none
            // could be created (code 13). Validated first; the contract's 10-minute interval
            // (`createInterval`); never retried automatically.
            "createUsers" => {
                let req = api.create_users_value(&tree(E::CreateUsers, &a)?)?;
                self.pending(req, &guarded(false))
            }
            // One account through the bulk endpoint (`create-multi-user` with one item): the
            // response of `create-single-user` is unpublished. Same guard and validation.
            "createUser" => {
                let users = a.map(|u| cat(&["[", &u, "]"]));
                let req = api.create_users_value(&tree(E::CreateUsers, &users)?)?;
                self.pending(req, &guarded(false))
            }
            // The raw `users/create-single-user`: the envelope as received (its response is
            // unpublished). Not guarded by the bulk interval; never retried.
            "createSingleUserRaw" => {
                let req = api.create_user_raw_value(&tree(E::CreateUser, &a)?)?;
                self.pending(req, &per)
            }
            // A page of accounts (`users/get-multi-user`); `start` defaults to 0, `limit` (1..100)
            // to 100.
            "getUsers" => {
                let page = params_in(E::GetUsers, &a)?;
                let req = api.get_users_value(member(&page, "start"), member(&page, "limit"))?;
                self.pending(req, &per)
            }
            // One account by id (`users/get-single-user/<id>`).
            "getUser" => self.pending(api.get_user_value(&tree(E::GetUser, &a)?)?, &per),
            // The token's own account (`users/get-me`).
            "getMe" => self.pending(api.get_me()?, &per),
            // One account by e-mail (tried first) or username (`users/search-user`).
            "searchUser" => {
                let params = params_in(E::SearchUser, &a)?;
                let req =
                    api.search_user_value(member(&params, "email"), member(&params, "username"))?;
                self.pending(req, &per)
            }
            // One course by id (`courses/get-single-course/<id>`).
            "getCourse" => self.pending(api.get_course_value(&tree(E::GetCourse, &a)?)?, &per),
            // A page of courses (`courses/get-multi-course`); `start` defaults to 0, `limit`
            // (0..100) to 100.
            "getCourses" => {
                let page = params_in(E::GetCourses, &a)?;
                let req = api.get_courses_value(member(&page, "start"), member(&page, "limit"))?;
                self.pending(req, &per)
            }
            // Courses whose title matches the keywords (`courses/search-course`).
            "searchCourses" => {
                let req = api.search_courses_value(&tree(E::SearchCourses, &a)?)?;
                self.pending(req, &per)
            }
            // Grants courses to 1 to 100 accounts (`courses/add-multi-course-to-multi-user`).
            // Never retried.
            "addCoursesToUsers" => {
                let input = params_in(E::AddCoursesToUsers, &a)?;
                let req = api.add_courses_to_users_value(
                    member(&input, "users"),
                    member(&input, "courses"),
                )?;
                self.pending(req, &per)
            }
            // Logs in (`users/login-user`, platform notes): the token and its expiry. Needs no
            // token; the JS passes the result to `withToken`.
            "login" => {
                let req = api.login_value(&tree(E::Login, &a)?, &tree(E::Login, &b)?)?;
                self.pending(req, &per)
            }
            // A one-time site login token for an account (`users/create-user-login-token`,
            // platform notes); at least the platform's advised 5 s apart (`loginTokenInterval`);
            // never retried automatically.
            "createLoginToken" => {
                let req = api.create_login_token_value(&tree(E::CreateLoginToken, &a)?)?;
                self.pending(req, &guarded(true))
            }
            _ => return Err(option_error("method", "a method of Client")),
        })
    }
}

/// A parameters object's tree, refused when it is not an object (or absent).
fn params_in(endpoint: Endpoint, params: &Option<String>) -> Result<Value<'_>, Error> {
    let tree = tree(endpoint, params)?;
    let report = validate::validate_params(&tree, ValidateOptions::default());
    if report.is_ok() {
        Ok(tree)
    } else {
        Err(Error::Validation(ValidationError { endpoint, report }))
    }
}
