//! The response envelope, errors, request context and token checks shared by
//! every `/manage/api` handler.

use std::collections::HashMap;
use std::convert::Infallible;
use std::marker::PhantomData;
use std::time::Duration;

use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{FromRequest, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use crate::config::{CheckOrder, Config, StatusMode};
use crate::state::{AppState, FaultKind, Inner};
use crate::util::parse_query;

/// Largest request body read (bigger bodies count as "no request body").
pub const BODY_LIMIT: usize = 8 * 1024 * 1024;

pub const MSG_NO_TOKEN: &str = "No token";
pub const MSG_AUTH_FAIL: &str = "Server not able to authenticate your account";
pub const MSG_INVALID_TOKEN: &str = "Invalid token or Token has expired";
pub const MSG_INVALID_TOKEN_BARS: &str = "Invalid token || Token has expired";
pub const MSG_NO_PERMISSION: &str = "Your account does not have permission";
pub const MSG_SUCCESS: &str = "Success";

/// Class of an error; mapped to an HTTP status by the status mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Missing or bad parameter, record not found: 400.
    Bad,
    /// Authentication failed: 401.
    Auth,
    /// No permission: 401 by default (`--permission-status 403`).
    Permission,
    /// Wrong method: 405.
    Method,
    /// Server error: 500.
    Server,
}

#[derive(Debug, Clone)]
pub struct ApiErr {
    pub class: Class,
    pub code: String,
    pub msg: String,
    /// Extra members of the envelope (e.g. code 13's `users`).
    pub extra: Option<(&'static str, Value)>,
}

impl ApiErr {
    pub fn new(class: Class, code: &str, msg: impl Into<String>) -> ApiErr {
        ApiErr {
            class,
            code: code.to_string(),
            msg: msg.into(),
            extra: None,
        }
    }

    pub fn bad(code: &str, msg: impl Into<String>) -> ApiErr {
        ApiErr::new(Class::Bad, code, msg)
    }
}

pub fn status_for(cfg: &Config, class: Class) -> StatusCode {
    if cfg.status_mode == StatusMode::Always200 {
        return StatusCode::OK;
    }
    match class {
        Class::Bad => StatusCode::BAD_REQUEST,
        Class::Auth => StatusCode::UNAUTHORIZED,
        Class::Permission => {
            StatusCode::from_u16(cfg.permission_status).unwrap_or(StatusCode::UNAUTHORIZED)
        }
        Class::Method => StatusCode::METHOD_NOT_ALLOWED,
        Class::Server => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// JSON response with an explicit status.
pub fn json_response(status: StatusCode, body: &Value) -> Response {
    let text = serde_json::to_vec(body).unwrap_or_else(|_| b"{}".to_vec());
    let mut resp = Response::new(Body::from(text));
    *resp.status_mut() = status;
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json; charset=utf-8"),
    );
    resp
}

/// `{respCode: "00", <key>: data, msg}` with HTTP 200.
pub fn success(key: &str, data: Value, msg: &str) -> Response {
    let mut m = Map::new();
    m.insert("respCode".into(), json!("00"));
    m.insert(key.into(), data);
    m.insert("msg".into(), json!(msg));
    json_response(StatusCode::OK, &Value::Object(m))
}

/// Names the member of an endpoint's envelope that carries its data: `null` in an error answer,
/// `None` when the envelope has no such member (add-courses, login).
pub trait DataKey {
    /// The member's name.
    const KEY: Option<&'static str>;
}

/// The [`DataKey`]s of the endpoints, named after the member.
pub mod data {
    use super::DataKey;

    macro_rules! keys {
        ($($(#[$doc:meta])* $name:ident = $key:expr;)*) => {$(
            $(#[$doc])*
            pub struct $name;
            impl DataKey for $name {
                const KEY: Option<&'static str> = $key;
            }
        )*};
    }

    keys! {
        /// `user`: get-single-user, get-me, search-user, create-single-user.
        User = Some("user");
        /// `users`: get-multi-user, create-multi-user.
        Users = Some("users");
        /// `course`: get-single-course.
        Course = Some("course");
        /// `courses`: get-multi-course, search-course.
        Courses = Some("courses");
        /// No data member: add-multi-course-to-multi-user, login-user, create-user-login-token.
        NoData = None;
    }
}

/// An endpoint's error answer: `{respCode, <data>: null, msg}` (or the error's own extra member,
/// as code 13's `users`). Its HTTP status comes from the error's class and the configured status
/// mode, set by [`error_status`] on the way out.
pub struct Failure<K>(ApiErr, PhantomData<fn() -> K>);

impl<K> From<ApiErr> for Failure<K> {
    fn from(e: ApiErr) -> Self {
        Failure(e, PhantomData)
    }
}

impl<K: DataKey> IntoResponse for Failure<K> {
    fn into_response(self) -> Response {
        let e = self.0;
        let mut m = Map::new();
        m.insert("respCode".into(), json!(e.code));
        if let Some((k, v)) = e.extra {
            m.insert(k.into(), v);
        } else if let Some(k) = K::KEY {
            m.insert(k.into(), Value::Null);
        }
        m.insert("msg".into(), json!(e.msg));
        let mut resp = json_response(StatusCode::OK, &Value::Object(m));
        resp.extensions_mut().insert(e.class);
        resp
    }
}

/// What every `/manage/api` handler returns: its success response, or its error answer.
pub type Reply<K> = Result<Response, Failure<K>>;

/// Middleware around the `/manage/api` handlers: gives an error answer ([`Failure`]) the status
/// of its class under the configured status mode.
pub async fn error_status(State(st): State<AppState>, req: Request, next: Next) -> Response {
    let mut resp = next.run(req).await;
    if let Some(class) = resp.extensions_mut().remove::<Class>() {
        *resp.status_mut() = status_for(&st.cfg, class);
    }
    resp
}

/// Middleware in front of every `/manage/api` handler: reads the request body within the
/// connection timeout (`--header-timeout-ms`), so a client that stops sending its body cannot
/// hold the connection. A body that stalls, or is larger than [`BODY_LIMIT`], reaches the handler
/// empty ("no request body"); hyper then closes the connection, as the body was not read to its end.
pub async fn read_body(State(st): State<AppState>, req: Request, next: Next) -> Response {
    let (parts, body) = req.into_parts();
    let deadline = Duration::from_millis(st.cfg.header_read_timeout_ms);
    let bytes = match tokio::time::timeout(deadline, to_bytes(body, BODY_LIMIT)).await {
        Ok(Ok(bytes)) => bytes,
        _ => Bytes::new(),
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// What a handler needs from the request (its extractor).
pub struct Ctx {
    pub method: Method,
    pub path: String,
    pub query: HashMap<String, String>,
    pub fault: Option<FaultKind>,
    pub body: Option<Value>,
}

/// The extractor every `/manage/api` handler starts from. Never rejects: a body that is not JSON
/// is `None`, as an absent one.
impl<S: Send + Sync> FromRequest<S> for Ctx {
    type Rejection = Infallible;

    async fn from_request(req: Request, _state: &S) -> Result<Ctx, Infallible> {
        let (parts, body) = req.into_parts();
        let fault = parts.extensions.get::<FaultKind>().copied();
        let bytes: Bytes = to_bytes(body, BODY_LIMIT).await.unwrap_or_default();
        let body = if bytes.iter().all(u8::is_ascii_whitespace) {
            None
        } else {
            serde_json::from_slice::<Value>(&bytes).ok()
        };
        Ok(Ctx {
            method: parts.method,
            path: parts.uri.path().to_string(),
            query: parse_query(parts.uri.query()),
            fault,
            body,
        })
    }
}

impl Ctx {
    /// A query parameter, `None` when absent or empty.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .get(name)
            .map(String::as_str)
            .filter(|s| !s.is_empty())
    }

    pub fn require_method(&self, want: Method) -> Result<(), ApiErr> {
        if self.method == want {
            Ok(())
        } else {
            Err(ApiErr::new(
                Class::Method,
                "01",
                format!("Request method should be {want}"),
            ))
        }
    }
}

/// respCodes of the token checks of one endpoint.
#[derive(Debug, Clone, Copy)]
pub struct AuthCodes {
    pub no_token: &'static str,
    pub auth_fail: &'static str,
    pub invalid: &'static str,
    pub invalid_msg: &'static str,
    /// `None`: any valid token may call (get-me).
    pub no_permission: Option<&'static str>,
}

/// The authenticated caller.
#[derive(Debug, Clone)]
pub struct Caller {
    pub account_id: String,
    pub token: String,
}

pub fn token_present(ctx: &Ctx, codes: &AuthCodes) -> Result<String, ApiErr> {
    ctx.param("token")
        .map(str::to_string)
        .ok_or_else(|| ApiErr::new(Class::Auth, codes.no_token, MSG_NO_TOKEN))
}

/// Validates the token (after [`token_present`]) and the caller's permission.
pub fn authenticate(inner: &Inner, ctx: &Ctx, codes: &AuthCodes) -> Result<Caller, ApiErr> {
    let token = token_present(ctx, codes)?;
    if ctx.fault == Some(FaultKind::AuthFail) {
        return Err(ApiErr::new(Class::Auth, codes.auth_fail, MSG_AUTH_FAIL));
    }
    let info = match inner.tokens.get(&token) {
        Some(info) if !info.expired => info,
        _ => return Err(ApiErr::new(Class::Auth, codes.invalid, codes.invalid_msg)),
    };
    let account = inner
        .account(&info.account_id)
        .ok_or_else(|| ApiErr::new(Class::Auth, codes.auth_fail, MSG_AUTH_FAIL))?;
    if let Some(code) = codes.no_permission {
        if !account.admin {
            return Err(ApiErr::new(Class::Permission, code, MSG_NO_PERMISSION));
        }
    }
    Ok(Caller {
        account_id: account.id.clone(),
        token,
    })
}

pub fn auth_first(cfg: &Config) -> bool {
    cfg.check_order == CheckOrder::AuthFirst
}

/// Runs an endpoint's own checks (`checks`: body, parameters, path id) and its token checks in
/// the configured order, returning the caller and what the checks produced. Documented order:
/// token presence first when `presence_first` (the GET endpoints number "No token" before their
/// parameters), then the endpoint's checks, then authentication and permission.
/// `--check-order auth-first` runs authentication and permission before everything.
pub fn checked<T>(
    cfg: &Config,
    inner: &Inner,
    ctx: &Ctx,
    codes: &AuthCodes,
    presence_first: bool,
    checks: impl FnOnce() -> Result<T, ApiErr>,
) -> Result<(Caller, T), ApiErr> {
    if auth_first(cfg) {
        let caller = authenticate(inner, ctx, codes)?;
        return Ok((caller, checks()?));
    }
    if presence_first {
        token_present(ctx, codes)?;
    }
    let value = checks()?;
    Ok((authenticate(inner, ctx, codes)?, value))
}

/// Fallback for unknown `/manage/api` paths.
pub async fn unknown_endpoint() -> Response {
    json_response(
        StatusCode::NOT_FOUND,
        &json!({"respCode": "99", "msg": "Endpoint not found"}),
    )
    .into_response()
}

/// Parses an integer parameter; `None` when it is not one.
pub fn parse_count(s: &str) -> Option<i64> {
    s.trim().parse::<i64>().ok()
}
