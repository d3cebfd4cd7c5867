//! Request planning and response decoding, with no I/O (sans-IO).
//!
//! [`Planner`] turns a typed, validated input into a [`Request`]: method, URL and JSON body. The
//! caller sends it however it likes (fetch in the wasm layer, anything in Rust) and hands the
//! HTTP status and body bytes back to [`Request::decode`], which yields the endpoint's typed
//! reply or an [`Error`].

use core::marker::PhantomData;

use serde::Deserialize;
use serde_json::Value;

use crate::json::JsonView;

use crate::error::{cat, ConfigError, Error, ValidationError};
use crate::registry::{Endpoint, Method};
pub use crate::route::MAX_PAGE;
pub(crate) use crate::route::{Check, Param, Route, To};
use crate::rules::{Level, Report, ValidateOptions};
use crate::secret::redact;
pub use crate::secret::{encode_component, Token, MIN_TOKEN_LEN};
use crate::text::find_byte;

/// The API prefix every contract path starts with.
pub const API_PREFIX: &str = "/manage/api";

/// Which spelling of the get-single-user path to use.
///
/// The contract's endpoint line says `user/get-single-user/<id>`, its sample call (and the
/// platform notes' example) say `users/...`. Default: `users`, the spelling of the call that was
/// actually made, and the segment every other account endpoint uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum UserPath {
    /// `users/get-single-user/<id>` (the sample call).
    #[default]
    Users,
    /// `user/get-single-user/<id>` (the endpoint line).
    User,
}

impl UserPath {
    /// Every spelling, in the order of [`UserPath::NAMES`].
    pub const ALL: [UserPath; 2] = [UserPath::Users, UserPath::User];
    /// The spellings as an option names them (serde's names of the variants).
    pub const NAMES: [&'static str; 2] = ["users", "user"];

    /// The spelling an option names.
    pub const fn from_js(s: &str) -> Option<UserPath> {
        match crate::text::position(&UserPath::NAMES, s) {
            Some(i) => Some(UserPath::ALL[i]),
            None => None,
        }
    }
}

/// Checks and normalises a base URL: `http(s)://host[:port][/prefix]`, no query or fragment,
/// trailing slashes dropped.
fn normalise_base(base_url: &str) -> Result<String, Error> {
    let bad = |reason| Err(Error::Config(ConfigError::BaseUrl { reason }));
    let base = crate::text::trim(base_url);
    if base.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return bad("it must not hold whitespace");
    }
    if find_byte(base, |b| b == b'?' || b == b'#').is_some() {
        return bad("it must not carry a query or a fragment");
    }
    // (A byte search: a string pattern would bring the wasm its two-way searcher.)
    let sep = find_byte(base, |b| b == b':').filter(|&i| base.get(i..i + 3) == Some("://"));
    let Some((scheme, rest)) = sep.and_then(|i| Some((base.get(..i)?, base.get(i + 3..)?))) else {
        return bad("it must start with http:// or https://");
    };
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return bad("it must start with http:// or https://");
    }
    let (authority, path) = match find_byte(rest, |b| b == b'/') {
        Some(i) => (
            rest.get(..i).unwrap_or(rest),
            rest.get(i..).unwrap_or_default(),
        ),
        None => (rest, ""),
    };
    if authority.is_empty() {
        return bad("it has no host");
    }
    if find_byte(authority, |b| b == b'@').is_some() {
        // Credentials in the URL would travel in every request and show in host errors.
        return bad("it must not carry a user name or password");
    }
    // Scheme and host are case-insensitive: one spelling, so one create-interval guard key.
    let authority = authority.to_ascii_lowercase();
    Ok(cat(&[
        &scheme,
        "://",
        &authority,
        path.get(..path.len() - path.bytes().rev().take_while(|&b| b == b'/').count())
            .unwrap_or_default(),
    ]))
}

/// The planner: base URL, token and options. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Planner {
    base: String,
    token: Option<Token>,
    pub(crate) user_path: UserPath,
    strict: bool,
}

impl Planner {
    /// A planner for `base_url` (which may carry a path prefix), with no token yet.
    pub fn new(base_url: &str) -> Result<Planner, Error> {
        Ok(Planner {
            base: normalise_base(base_url)?,
            token: None,
            user_path: UserPath::default(),
            strict: false,
        })
    }

    /// Sets the token.
    pub fn with_token(mut self, token: &str) -> Result<Planner, Error> {
        self.token = Some(Token::new(token)?);
        Ok(self)
    }

    /// Chooses the get-single-user path spelling.
    pub fn with_user_path(mut self, user_path: UserPath) -> Planner {
        self.user_path = user_path;
        self
    }

    /// When `true`, platform-level findings (name length, username characters, ...) refuse a
    /// request too; by default only findings the contract makes certain to fail do.
    pub fn with_strict_platform_rules(mut self, strict: bool) -> Planner {
        self.strict = strict;
        self
    }

    /// The normalised base URL.
    pub fn base_url(&self) -> &str {
        &self.base
    }

    /// The token, if set.
    pub fn token(&self) -> Option<&Token> {
        self.token.as_ref()
    }

    /// Whether platform-level findings refuse a request too ([`Planner::with_strict_platform_rules`]).
    pub fn strict_platform_rules(&self) -> bool {
        self.strict
    }

    pub(crate) fn check(&self, endpoint: Endpoint, report: Report) -> Result<(), Error> {
        let level = if self.strict {
            Level::Platform
        } else {
            Level::Contract
        };
        if report.blocks(level) {
            return Err(Error::Validation(ValidationError { endpoint, report }));
        }
        Ok(())
    }

    pub(crate) fn opts(&self) -> ValidateOptions {
        ValidateOptions {
            platform_rules: self.strict,
            ..ValidateOptions::default()
        }
    }

    /// Plans `endpoint` from its parameters' values, in the order of its `route`: each checked
    /// as its [`Check`] says (refused by [`Planner::check`]), then placed where its [`To`] says.
    /// The one planner of every endpoint (typed calls, raw JSON and the wasm's `Client` methods),
    /// given the route by `Planner::plan` beside the registry.
    pub(crate) fn plan_route<J: JsonView>(
        &self,
        endpoint: Endpoint,
        route: &Route,
        values: &[&J],
    ) -> Result<Request<()>, Error> {
        self.check(endpoint, route.report(values, self.opts()))?;
        let mut path = String::from(route.path);
        if endpoint == Endpoint::GetUser && self.user_path == UserPath::User {
            // The endpoint line's spelling: `user/...`, the route's path without its first "s".
            path = cat(&["user", route.path.get(5..).unwrap_or_default()]);
        }
        let (mut query, mut body) = (String::new(), None::<String>);
        for (param, v) in route.params.iter().zip(values) {
            let text = match param.to {
                // Blank parameters are left out, as validation treats them as not given (an id
                // that goes in the path is never blank once validated).
                To::Segment | To::Query => {
                    match v.as_str().filter(|s| !crate::text::trim(s).is_empty()) {
                        Some(s) => encode_component(s),
                        None => continue,
                    }
                }
                // Validated: absent (null) or an integer in range.
                To::Int(default) => decimal(v.int_or(u64::from(default))),
                To::Body | To::Whole => v.to_json(),
            };
            let name = param.name;
            match param.to {
                To::Segment => path.push_str(&text),
                To::Query | To::Int(_) => {
                    if !query.is_empty() {
                        query.push('&');
                    }
                    query.push_str(name);
                    query.push('=');
                    query.push_str(&text);
                }
                To::Body => {
                    let out = body.get_or_insert_with(String::new);
                    out.push(if out.is_empty() { '{' } else { ',' });
                    crate::json::push_str(out, name);
                    out.push(':');
                    out.push_str(&text);
                }
                To::Whole => body = Some(text),
            }
        }
        if let (Some(out), Some(To::Body)) = (&mut body, route.params.first().map(|p| p.to)) {
            out.push('}');
        }
        self.untyped(endpoint, &path, &query, body)
    }

    /// The request itself: the URL (base, prefix, path, token, then `query`, already encoded) and
    /// the body. One copy of the code serves every endpoint.
    #[inline(never)]
    pub(crate) fn untyped(
        &self,
        endpoint: Endpoint,
        path: &str,
        query: &str,
        body: Option<String>,
    ) -> Result<Request<()>, Error> {
        // The token is RFC 3986 unreserved throughout (`Token::new`), so its percent-encoding is
        // itself: it goes in as it is, and the URL is written once at its size.
        let token = match endpoint {
            Endpoint::Login => None,
            _ => Some(
                self.token
                    .as_ref()
                    .ok_or(Error::Config(ConfigError::NoToken { endpoint }))?
                    .expose(),
            ),
        };
        let (key, token) = token.map_or(("", ""), |t| ("?token=", t));
        let sep = match (query.is_empty(), key.is_empty()) {
            (true, _) => "",
            (false, true) => "?",
            (false, false) => "&",
        };
        let url = cat(&[&self.base, API_PREFIX, "/", path, key, token, sep, query]);
        Ok(Request {
            endpoint,
            url,
            body,
            secret: self.token.clone(),
            _reply: PhantomData,
        })
    }
}

/// `n` in decimal.
fn decimal(n: u64) -> String {
    let mut s = String::new();
    crate::json::push_uint(&mut s, n);
    s
}

/// A validated page parameter: `null` (absent, the default) or a non-negative integer.
trait IntOr {
    fn int_or(&self, default: u64) -> u64;
}

impl<J: JsonView> IntOr for J {
    fn int_or(&self, default: u64) -> u64 {
        self.as_integer()
            .and_then(|n| u64::try_from(n).ok())
            .unwrap_or(default)
    }
}

/// Typed input as JSON for the validators (serializing these plain structs cannot fail).
pub(crate) fn to_value<T: serde::Serialize + ?Sized>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// A planned HTTP request whose response decodes to `R`.
///
/// Its `Debug` shows neither the token nor the body (which may hold passwords).
#[derive(Clone)]
pub struct Request<R> {
    endpoint: Endpoint,
    url: String,
    body: Option<String>,
    secret: Option<Token>,
    _reply: PhantomData<fn() -> R>,
}

impl<R> core::fmt::Debug for Request<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Request")
            .field("endpoint", &self.endpoint)
            .field("method", &self.method())
            .field("url", &self.redacted_url())
            .field("body_bytes", &self.body.as_ref().map(String::len))
            .finish()
    }
}

impl<R> Request<R> {
    /// The same request, typed by another reply.
    pub(crate) fn cast<S>(self) -> Request<S> {
        Request {
            endpoint: self.endpoint,
            url: self.url,
            body: self.body,
            secret: self.secret,
            _reply: PhantomData,
        }
    }

    /// The endpoint.
    pub fn endpoint(&self) -> Endpoint {
        self.endpoint
    }

    /// The method.
    pub fn method(&self) -> Method {
        self.endpoint.method()
    }

    /// The full URL, token included: pass it to the HTTP client, never to a log.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The URL with the token replaced by `<redacted>`, for logs.
    pub fn redacted_url(&self) -> String {
        redact(&self.url, self.secret())
    }

    /// The JSON body, if the endpoint takes one (sent with `Content-Type: application/json`).
    pub fn body(&self) -> Option<&str> {
        self.body.as_deref()
    }

    /// Whether an automatic retry is safe (GET only: a POST may have taken effect).
    pub fn is_idempotent(&self) -> bool {
        self.endpoint.is_idempotent()
    }

    /// Its parts, moved out: the endpoint, the URL (with the token: keep it out of logs), the
    /// body and the token (the npm package's wasm keeps them in its pending call, rather than
    /// copies).
    pub fn into_parts(self) -> (Endpoint, String, Option<String>, Option<Token>) {
        (self.endpoint, self.url, self.body, self.secret)
    }

    /// The token this request carries, for redaction.
    pub(crate) fn secret(&self) -> Option<&str> {
        self.secret.as_ref().map(Token::expose)
    }
}

/// What a host reads of a planned call before it sends it (the npm package's driver), as JSON
/// text ([`WriteJson`](crate::json::ser::WriteJson)); the body crosses apart, as it is.
#[derive(serde::Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PlannedRequest<'a> {
    /// The endpoint's key.
    #[cfg_attr(feature = "wasm", tsify(type = "Endpoint"))]
    pub endpoint: &'a str,
    /// `GET` or `POST`.
    #[cfg_attr(feature = "wasm", tsify(type = "Method"))]
    pub method: &'a str,
    /// Holds the token: for the fetch only.
    pub url: &'a str,
    /// Each attempt's timeout (0: none).
    pub timeout_ms: f64,
    /// The largest answer read (0: no bound).
    pub max_response_bytes: f64,
    /// Whether `url` holds the token (what the host shows of it is redacted).
    pub has_token: bool,
    /// The interval store's key of a guarded call.
    #[cfg_attr(feature = "wasm", tsify(optional))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guard_key: Option<&'a str>,
    /// Whether the first poll was made at planning (an unguarded call's, which can only say
    /// send: the host sends without asking).
    pub polled: bool,
}

#[cfg(test)]
mod tests {
    #[test]
    fn planned_request_json_is_serdes() {
        use serde_json::Value;
        for guard_key in [None, Some("https://a.example/manage|x")] {
            let r = super::PlannedRequest {
                endpoint: "get-me",
                method: "GET",
                url: "https://a.example/manage/users/get-me?token=t\"q",
                timeout_ms: 30_000.0,
                max_response_bytes: 33_554_432.0,
                has_token: true,
                guard_key,
                polled: false,
            };
            // The same members and values (serde writes a whole f64 as `30000.0`, the writer as
            // `30000`).
            let ours: Value = serde_json::from_str(&crate::json::ser::value_json(&r)).unwrap();
            let theirs = serde_json::to_value(&r).unwrap();
            let (ours, theirs) = (ours.as_object().unwrap(), theirs.as_object().unwrap());
            assert_eq!(ours.len(), theirs.len());
            for (k, v) in theirs {
                let same = match (v, &ours[k]) {
                    (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
                    (a, b) => a == b,
                };
                assert!(same, "{k}: {v} vs {}", ours[k]);
            }
        }
    }

    use super::*;
    use crate::error::TokenProblem;

    #[test]
    fn raw_json_planning_reports_wrong_types_with_their_path() {
        let api = Planner::new("https://x.example")
            .unwrap()
            .with_token("t0k3n-0123")
            .unwrap();
        let users = crate::json::parse(
            r#"[{"name": "Ann", "username": "ann", "email": 5, "password": "x"}]"#,
        )
        .unwrap();
        let Err(Error::Validation(e)) = api.plan(Endpoint::CreateUsers, &[&users]) else {
            panic!("not refused")
        };
        let path = crate::json::ser::to_string(&e.report.issues[0].path);
        assert_eq!(path, r#"[0,"email"]"#);
        // A good batch is sent as the caller wrote it.
        let users = crate::json::parse(
            r#"[{"name":"Ann","username":"ann1","email":"a@x.vn","password":"secret1","extra":1e2}]"#,
        )
        .unwrap();
        let req = api.plan(Endpoint::CreateUsers, &[&users]).unwrap();
        assert_eq!(
            req.body().unwrap(),
            &format!(r#"{{"users":{}}}"#, users.to_json())
        );
    }

    #[test]
    fn a_refused_token_says_why() {
        let why = |t: &str| match Token::new(t) {
            Err(Error::Config(e @ ConfigError::Token { reason })) => (reason, e.message()),
            other => panic!("{other:?}"),
        };
        let (r, m) = why("abc");
        assert_eq!(r, TokenProblem::TooShort);
        assert!(
            m.contains("too short") && m.contains("at least 8 characters"),
            "{m}"
        );
        assert!(!m.contains("abc"), "{m}");
        for t in ["abcdefgh\n", "with space 0123", "plus+sign0123"] {
            let (r, m) = why(t);
            assert_eq!(r, TokenProblem::Character, "{t:?}");
            assert!(m.contains("A-Z a-z 0-9 - . _ ~"), "{m}");
        }
        assert_eq!(why("").0, TokenProblem::Empty);
        assert_eq!(why("a b").0, TokenProblem::Character, "the alphabet first");
    }
}
