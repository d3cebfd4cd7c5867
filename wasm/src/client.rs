//! `Core`: the planner and decision-maker the package's JS `Client` drives. Every method plans
//! with the core and hands back a [`Pending`] call: the JS driver sends what it is told, waits
//! what it is told, and hands back the answer, which is checked here (`decode::check_reply`).
//! Retries and the create-interval guard are decided by `lpm_client::call::Call`; nothing here
//! awaits, so the wasm carries no futures runtime.

use wasm_bindgen::prelude::*;

use lpm_client::call::{Call, GuardMode, GuardSpec, Next, Policy};
use lpm_client::decode::{check_reply, ReplyPlan};
use lpm_client::endpoint::Guard;
use lpm_client::error::Error;
use lpm_client::interval::{guard_key, login_token_key, register_key, IntervalGuard};
use lpm_client::json::{self, JsonView, Value};
use lpm_client::options::{check_token_place, option_error, read, ClientSettings};
use lpm_client::plan::{Planner, Request};

use lpm_client::secret::Token;
use lpm_client::Endpoint;

use super::errors::Failure;

#[wasm_bindgen(typescript_custom_section)]
const TS_CLIENT: &str = r#"
/** The fetch a client uses: the global `fetch` fits, and so does any function of this shape. */
export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal }) => Promise<{ status: number; headers: { get(name: string): string | null }; arrayBuffer(): Promise<ArrayBuffer> }>;

/** Options of `new Client(...)`: the data in `ClientSettings` (with their defaults), and what
 * only JavaScript holds. */
export interface ClientOptions extends ClientSettings, Hooks {
    /** A custom fetch (proxies, tests); default the global `fetch`. It gets the real URL, token included. */
    fetch?: FetchLike | undefined;
    /** Where the intervals' last calls are kept besides this realm's memory (the default): `fileStore(path)` in Node, `webStorageStore(localStorage)` in a browser, or your own. */
    intervalStore?: IntervalStore | undefined;
    /** Headers sent with every request (proxies, gateways); a call's `headers` are added over them. */
    headers?: Record<string, string> | undefined;
    /** Lines at `debug` (one per attempt) and `warn` (retries, failures), `error` (a hook that threw); `console` fits. Never shows the token. */
    logger?: Logger | undefined;
}

/** Hooks: told of each attempt, without the token. One that throws is ignored (and logged at `error`). */
export interface Hooks {
    /** Before each attempt is sent. */
    onRequest?: ((event: RequestEvent) => void) | undefined;
    /** An attempt got an HTTP answer (any status). */
    onResponse?: ((event: ResponseEvent) => void) | undefined;
    /** An attempt failed and another is scheduled after `delayMs`. */
    onRetry?: ((event: RetryEvent) => void) | undefined;
    /** The call rejects (after it was planned: not for ValidationError or ConfigError thrown at planning). */
    onError?: ((event: FailureEvent) => void) | undefined;
}

/** What a hook sees of a request: the URL with the token replaced by `<redacted>`. */
export interface RequestEvent {
    /** The HTTP method. */
    method: "GET" | "POST";
    /** The request's URL, the token replaced by `<redacted>`. */
    url: string;
    /** The endpoint called. */
    endpoint: Endpoint;
    /** 1 for the first attempt; 0 in `onError` when nothing was sent. */
    attempt: number;
    /** The request's headers (lower-case names). */
    headers: Record<string, string>;
}
/** What `onResponse` sees: the request, and the answer's status and time. */
export interface ResponseEvent extends RequestEvent {
    /** The answer's HTTP status. */
    status: number;
    /** From sending to the answer's headers, in ms. */
    durationMs: number;
}
/** What `onRetry` sees: the failed attempt and the wait before the next. */
export interface RetryEvent extends RequestEvent {
    /** The answer's status, when there was one. */
    status?: number;
    /** Why the attempt got no answer, when it got none. */
    failure?: "network" | "timeout";
    /** How long the attempt took, in ms. */
    durationMs: number;
    /** The wait before the next attempt (full jitter on the doubling delay, or the server's Retry-After). */
    delayMs: number;
}
/** What `onError` sees: the request, and the error the call rejects with. */
export interface FailureEvent extends RequestEvent {
    /** The error the call rejects with (an LpmError). */
    error: Error;
}

/** A logger with levels; every function is optional. */
export interface Logger {
    /** One line per attempt. */
    debug?: (message: string) => void;
    /** Not called by the client (a logger such as `console` has it). */
    info?: (message: string) => void;
    /** Retries and failed calls. */
    warn?: (message: string) => void;
    /** A hook or store that threw. */
    error?: (message: string) => void;
}

/** Where a guard keeps the time (ms since the epoch) of the last guarded call of a key. */
export interface IntervalStore {
    /** The time of the last guarded call of `key`, or nothing when there was none. */
    get(key: string): number | undefined | null | Promise<number | undefined | null>;
    /** Records a guarded call of `key` at `atMs`. */
    set(key: string, atMs: number): void | Promise<void>;
}

/** Options of one call; they override the client's. */
export interface CallOptions extends Hooks {
    /** Aborts the call (and any retry wait); it rejects with AbortError. */
    signal?: AbortSignal | undefined;
    /** Per-attempt timeout in ms for this call; 0 turns it off. */
    timeoutMs?: number | undefined;
    /** Automatic retries of this call (GET only), 0 to 10. */
    maxRetries?: number | undefined;
    /** Headers of this call, added over the client's. */
    headers?: Record<string, string> | undefined;
}

/** Options of a guarded call: a bulk create, or a login token. */
export interface CreateOptions extends CallOptions {
    /** Wait for the interval to pass instead of rejecting with IntervalError. */
    waitForInterval?: boolean | undefined;
    /** createUsers, createUser: keep the passwords the platform echoes in each item (by default
     * they are left out of the reply, so that a logged reply logs no password). */
    keepPasswords?: boolean | undefined;
}

/** A page request; `start` defaults to 0, `limit` to 100. */
export interface PageParams {
    /** The index of the first record (0 and up). */
    start?: number | undefined;
    /** How many records at most (accounts 1..100, courses 0..100). */
    limit?: number | undefined;
}

/** search-user parameters: at least one of them. */
export interface SearchUserParams {
    /** The account's e-mail (tried first). */
    email?: string | undefined;
    /** The account's username. */
    username?: string | undefined;
}

"#;

/// The options' data with their defaults (`interface ClientSettings`), generated in the core.
#[wasm_bindgen(typescript_custom_section)]
const TS_SETTINGS: &str = lpm_client::options::TS;

/// `CallMethod`, from the endpoints' registry.
#[wasm_bindgen(typescript_custom_section)]
const TS_CALL_METHODS: &str = lpm_client::endpoint::TS_CALL_METHODS;

#[derive(Clone)]
pub(super) struct Settings {
    pub(super) api: Planner,
    pub(super) timeout_ms: f64,
    pub(super) max_retries: u32,
    retry_delay_ms: f64,
    pub(super) guard: GuardMode,
    pub(super) interval_ms: f64,
    login_guard: GuardMode,
    login_interval_ms: f64,
    register_guard: GuardMode,
    register_interval_ms: f64,
    max_response_bytes: f64,
    /// The base URL as the guard keys it (see `Core::new`); the planner's when absent.
    guard_base: Option<String>,
    /// Whether the client runs in a browser page, and whether its token is the user's own
    /// (`options::check_token_place`).
    in_browser: bool,
    own_token: bool,
}

impl Settings {
    /// The create-interval guard's key: this client's base URL and token.
    fn guard_key(&self) -> String {
        let base = self.guard_base.as_deref().unwrap_or(self.api.base_url());
        guard_key(base, self.api.token().map(|t| t.expose()))
    }

    /// The guard of a guarded call: a bulk create, a create-user-login-token or a single create.
    fn guard_spec(&self, guard: Guard) -> GuardSpec {
        let key = self.guard_key();
        match guard {
            Guard::LoginToken => GuardSpec {
                key: login_token_key(&key),
                mode: self.login_guard,
                interval_ms: self.login_interval_ms,
            },
            Guard::Register => GuardSpec {
                key: register_key(&key),
                mode: self.register_guard,
                interval_ms: self.register_interval_ms,
            },
            Guard::Create | Guard::None => GuardSpec {
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

/// What the JS writes for a function in an options object (`optionsJson` in
/// `pkg-templates/options.ts`).
const FUNCTION: &str = "\u{0}function";

/// An options object as the JS wrote it (`optionsJson` in `pkg-templates/options.ts`: functions as
/// [`FUNCTION`], NaN and the infinities as `null`); `null` when the text is not JSON.
fn options_tree(text: &str) -> Value<'_> {
    json::parse(text).unwrap_or(Value::Null)
}

fn parse_options(text: &str, in_browser: bool) -> Result<Settings, Error> {
    let options = &options_tree(text);
    if !options.is_object() {
        return Err(option_error("options", "an object with at least `baseUrl`"));
    }
    let o = ClientSettings::read(options)?;
    let mut api = Planner::new(o.base_url)?
        .with_user_path(o.user_path)
        .with_strict_platform_rules(o.strict_platform_rules);
    if let Some(token) = o.token {
        api = api.with_token(token)?;
    }
    check_token_place(in_browser, o.own_token, o.token.is_some())?;
    if options
        .get("fetch")
        .is_some_and(|f| f.as_str() != Some(FUNCTION))
    {
        return Err(option_error("fetch", "a function"));
    }
    Ok(Settings {
        api,
        timeout_ms: o.timeout_ms,
        max_retries: o.max_retries,
        retry_delay_ms: o.retry_delay_ms,
        guard: o.create_interval.guard,
        interval_ms: o.create_interval.interval_ms,
        login_guard: o.login_token_interval.guard,
        login_interval_ms: o.login_token_interval.interval_ms,
        register_guard: o.register_interval.guard,
        register_interval_ms: o.register_interval.interval_ms,
        max_response_bytes: o.max_response_bytes,
        guard_base: None,
        in_browser,
        own_token: o.own_token,
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
    /// The last poll's wait, or whether it recorded (`Pending::wait_ms`, `Pending::record`).
    wait_ms: f64,
    record: bool,
    /// The checked body's ASCII form, when `decode` made one (`Pending::take_text`): bytes, as
    /// the JS decodes them (a `String` would check them again).
    text: Option<Vec<u8>>,
}

/// What a call does next (`Pending::poll`): send an attempt, wait `waitMs`, or finish with the
/// answer or failure it has; after a send or finish, `record` says whether to note the time
/// under `guardKey` first.
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum Step {
    Send = "send",
    Wait = "wait",
    Finish = "finish",
}

/// How an attempt failed, as the host saw it (`Pending::failure`, `BulkJob::handle_failure`).
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum HostFailure {
    Network = "network",
    Timeout = "timeout",
    Abort = "abort",
    TooLarge = "tooLarge",
}

#[wasm_bindgen]
impl Pending {
    /// What the driver sends and how, as JSON text (`PlannedRequest`; the body apart: `takeBody`).
    pub fn request(&self) -> String {
        lpm_client::json::ser::value_json(&lpm_client::plan::PlannedRequest {
            endpoint: self.endpoint.key(),
            method: self.method,
            url: &self.url,
            timeout_ms: self.timeout_ms,
            max_response_bytes: self.max_response_bytes,
            has_token: self.secret.is_some(),
            guard_key: self.call.guard_key(),
            polled: self.call.attempts() > 0,
        })
    }

    /// The body, handed over once (a bulk chunk's is ~10 KB: not kept twice, nor escaped into
    /// the request's JSON and back).
    #[wasm_bindgen(js_name = takeBody)]
    pub fn take_body(&mut self) -> Option<String> {
        self.body.take()
    }

    /// The last poll's wait in ms (after `Step.Wait`).
    #[wasm_bindgen(getter, js_name = waitMs)]
    pub fn wait_ms(&self) -> f64 {
        self.wait_ms
    }

    /// Whether the last poll's send or finish is to be recorded under `guardKey` first.
    #[wasm_bindgen(getter)]
    pub fn record(&self) -> bool {
        self.record
    }

    /// What to do at `now` (`Step`; a wait's length: `waitMs`; whether to record `now` under
    /// `guardKey` first: `record`). `last`: when the guard's key last sent, as the interval store
    /// says (NaN: never). A call refused by its interval guard throws its `IntervalError` data. A
    /// call whose first poll was made at planning (`polled`) has had its send; polled again
    /// before an answer, it says wait 0. After a final answer an unguarded call can only say finish, with nothing to
    /// record: the driver does not ask.
    pub fn poll(&mut self, now: f64, last: f64) -> Result<Step, String> {
        let mut guard = IntervalGuard::new();
        let key = self.call.guard_key().map(str::to_owned);
        if let (Some(key), false) = (&key, last.is_nan()) {
            guard.record(key, last);
        }
        let recorded = |g: &IntervalGuard| key.as_deref().and_then(|k| g.last(k));
        let before = recorded(&guard);
        let next = self.call.poll(now, &mut guard);
        self.record = recorded(&guard) != before;
        match next {
            Next::Send { .. } => Ok(Step::Send),
            Next::Finish => Ok(Step::Finish),
            Next::Wait { ms } => {
                self.wait_ms = ms.max(0.0);
                Ok(Step::Wait)
            }
            Next::Refuse {
                next_allowed_at,
                wait_ms,
            } => Err(Failure::Interval {
                endpoint: self.endpoint,
                next_allowed_at,
                wait_ms,
            }
            .into_json()),
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
    ) -> Option<f64> {
        self.call.set_jitter(jitter);
        let ra = (retry_after_ms >= 0.0 || retry_after_ms.is_nan()).then_some(retry_after_ms);
        let ra = ra.filter(|ms| !ms.is_nan());
        self.call.handle_response(now, status, ra);
        self.retry_delay(now)
    }

    /// The attempt failed (network error, or a timeout): as `handleResponse`.
    #[wasm_bindgen(js_name = handleFailure)]
    pub fn handle_failure(&mut self, now: f64, timed_out: bool, jitter: f64) -> Option<f64> {
        self.call.set_jitter(jitter);
        self.call.handle_failure(now, timed_out);
        self.retry_delay(now)
    }

    /// The attempt was given up (aborted, or its answer too large): final; the next poll
    /// finishes, recording a guarded call's end (`record`).
    #[wasm_bindgen(js_name = giveUp)]
    pub fn give_up(&mut self, now: f64) {
        self.call.give_up(now);
    }

    fn retry_delay(&self, now: f64) -> Option<f64> {
        self.call.retry_at().map(|at| at - now)
    }

    /// Checks the final answer: the derived fields as JSON text (or nothing) when it is a success
    /// that fits the reply; else throws the error's data. The body's ASCII form (its JSON with
    /// every other character escaped, which `JSON.parse` reads much faster as a one-byte string)
    /// is kept for `takeText` when the body has such characters.
    pub fn decode(&mut self, status: u16, body: &[u8]) -> Result<Option<String>, String> {
        let ascii = lpm_client::json::ascii(body);
        let utf8 = match ascii {
            Some(_) => lpm_client::check::Utf8::Valid,
            None => lpm_client::check::Utf8::Invalid,
        };
        self.text = ascii.filter(|a| !a.is_empty());
        let plan = ReplyPlan {
            secret: self.secret.as_ref().map(Token::expose),
            ..self.reply
        };
        let checked =
            check_reply(&plan, status, body, utf8).map_err(|e| Failure::Core(e).into_json())?;
        Ok((plan.derived)(&checked.head, checked.tally))
    }

    /// The checked body's ASCII form, if `decode` made one (else the body is read as it is).
    #[wasm_bindgen(js_name = takeText)]
    pub fn take_text(&mut self) -> Option<Vec<u8>> {
        self.text.take()
    }

    /// The data of a failure the host saw, as JSON text, which the package's `fromThrown` parses.
    pub fn failure(&self, kind: HostFailure) -> String {
        let endpoint = self.endpoint;
        match kind {
            HostFailure::Timeout => Failure::Timeout {
                endpoint,
                timeout_ms: self.timeout_ms,
            },
            HostFailure::Abort => Failure::Abort { endpoint },
            HostFailure::TooLarge => Failure::TooLarge {
                endpoint,
                max_response_bytes: self.max_response_bytes,
            },
            HostFailure::Network | HostFailure::__Invalid => Failure::Network { endpoint },
        }
        .into_json()
    }

    /// `text` with the token (in any encoding the redactor knows) replaced by `<redacted>`.
    pub fn redact(&self, text: &str) -> String {
        lpm_client::secret::redact(text, self.secret.as_ref().map(Token::expose))
    }
}

/// The typed client's core: options, planning and the guard; the package's `Client` wraps it.
#[wasm_bindgen]
pub struct Core {
    pub(super) inner: Settings,
}

impl Core {
    /// The pending call of a planned request (the bulk engines'): only the reply's plan is taken
    /// from its type, the rest is one copy for every endpoint.
    #[cfg(feature = "bulk")]
    pub(super) fn pending<R: lpm_client::reply::Reply + 'static>(
        &self,
        req: Request<R>,
        per: &PerCall,
    ) -> Pending {
        let p = lpm_client::endpoint::planned(req, Guard::None);
        self.untyped(p.req, p.reply, per)
    }

    #[inline(never)]
    fn untyped(&self, req: Request<()>, reply: ReplyPlan<'static>, per: &PerCall) -> Pending {
        let s = &self.inner;
        let (endpoint, url, body, secret) = req.into_parts();
        let policy = Policy {
            max_retries: per.max_retries,
            ..s.policy()
        };
        let call = match per.guard {
            Guard::None => {
                // Its first poll, made here: with no guard it can only say send, and the driver
                // sends without asking (one crossing less; `pkg-templates/driver.ts`'s `drive`).
                let mut call = Call::new(endpoint.is_idempotent(), policy);
                call.poll(0.0, &mut IntervalGuard::new());
                call
            }
            guard => Call::guarded(policy, s.guard_spec(guard), per.wait),
        };
        Pending {
            endpoint,
            method: endpoint.method().as_str(),
            url,
            body,
            reply,
            secret,
            call,
            timeout_ms: per.timeout_ms,
            max_response_bytes: s.max_response_bytes,
            wait_ms: 0.0,
            record: false,
            text: None,
        }
    }

    /// The settings of one call: the client's, overridden by the call's options (JSON text as
    /// `optionsJson` in `pkg-templates/options.ts` writes it).
    fn per_call(&self, options: &str) -> Result<PerCall, Error> {
        let s = &self.inner;
        let options = &options_tree(options);
        if !(options.is_null() || options.is_object()) {
            return Err(option_error("options", "an object"));
        }
        Ok(PerCall {
            timeout_ms: read::ms(options, "timeoutMs", s.timeout_ms)?,
            max_retries: read::retries(options, "maxRetries", s.max_retries)?,
            wait: options.get("waitForInterval").is_some_and(Value::truthy),
            guard: Guard::None,
        })
    }
}

/// One call's settings: a guarded call's (`guard`: a bulk create or a create-user-login-token)
/// `wait` waits out the interval instead of refusing.
#[derive(Clone, Copy)]
pub(super) struct PerCall {
    pub(super) timeout_ms: f64,
    pub(super) max_retries: u32,
    pub(super) wait: bool,
    pub(super) guard: Guard,
}

#[wasm_bindgen]
impl Core {
    /// A client core of one platform; `Err`: the `ConfigError` data of unusable options.
    /// `guard_base`: the base URL normalised by the host's WHATWG URL parser (the JS `Client`
    /// passes it), so that spellings of one origin and path share one create-interval window.
    /// `in_browser`: whether it runs in a browser page (where a token needs `ownToken`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        options: &str,
        guard_base: Option<String>,
        in_browser: bool,
    ) -> Result<Core, String> {
        let mut inner =
            parse_options(options, in_browser).map_err(|e| Failure::Core(e).into_json())?;
        inner.guard_base = guard_base;
        Ok(Core { inner })
    }

    /// The same core with another token. `token`: `None` when the caller's is not a string.
    #[wasm_bindgen(js_name = withToken)]
    pub fn with_token(&self, token: Option<String>) -> Result<Core, String> {
        let token =
            token.ok_or_else(|| Failure::Core(option_error("token", "a string")).into_json())?;
        let mut inner = self.inner.clone();
        inner.api = inner
            .api
            .with_token(&token)
            .map_err(|e| Failure::Core(e).into_json())?;
        check_token_place(inner.in_browser, inner.own_token, true)
            .map_err(|e| Failure::Core(e).into_json())?;
        Ok(Core { inner })
    }

    /// The normalised base URL.
    #[wasm_bindgen(getter, js_name = baseUrl)]
    pub fn base_url(&self) -> String {
        self.inner.api.base_url().to_owned()
    }

    /// Plans the call of the `Client` method `method` with its arguments and the call's options
    /// (`timeoutMs`, `maxRetries`, `waitForInterval`; the rest are the driver's). One export for
    /// every method keeps the boundary small.
    pub fn plan(
        &self,
        method: &str,
        a: Option<String>,
        b: Option<String>,
        options: &str,
    ) -> Result<Pending, String> {
        self.plan_call(method, a.as_deref(), b.as_deref(), options)
            .map_err(|e| Failure::Core(e).into_json())
    }

    /// The interval store's key of this client's bulk creates.
    #[wasm_bindgen(getter, js_name = guardKey)]
    pub fn guard_key(&self) -> String {
        self.inner.guard_key()
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

/// The planning of each `Client` method (`lpm_client::endpoint::plan_method`, from the endpoints'
/// registry): one function, whose errors become thrown data in one place (not a closure and an
/// error conversion per method).
impl Core {
    fn plan_call(
        &self,
        method: &str,
        a: Option<&str>,
        b: Option<&str>,
        options: &str,
    ) -> Result<Pending, Error> {
        let per = self.per_call(options)?;
        let p = lpm_client::endpoint::plan_method(&self.inner.api, method, a, b)?;
        let per = PerCall {
            guard: p.guard,
            ..per
        };
        Ok(self.untyped(p.req, p.reply, &per))
    }
}
