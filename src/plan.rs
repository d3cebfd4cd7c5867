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

use crate::endpoint::{Endpoint, Method};
use crate::error::{cat, ConfigError, Error, ValidationError};
use crate::reply::Reply;
use crate::secret::redact;
pub use crate::secret::{encode_component, Token, MIN_TOKEN_LEN};
use crate::text::find_byte;
use crate::validate::{self, Level, PageKind, Report, ValidateOptions};

/// The API prefix every contract path starts with.
pub const API_PREFIX: &str = "/manage/api";

/// The largest `limit` the list endpoints take, and the most items a bulk call takes.
pub const MAX_PAGE: u32 = 100;

/// Which spelling of the get-single-user path to use.
///
/// The contract's endpoint line says `user/get-single-user/<id>`, its sample call (and the
/// platform notes' example) say `users/...`. Default: `users`, the spelling of the call that was
/// actually made, and the segment every other account endpoint uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
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

    pub(crate) fn request<R: Reply>(
        &self,
        endpoint: Endpoint,
        path: &str,
        query: &[(&str, &str)],
        body: Option<String>,
    ) -> Result<Request<R>, Error> {
        self.untyped(endpoint, path, query, body).map(Request::cast)
    }

    /// [`Planner::request`] without the reply type: one copy of the code serves every endpoint
    /// (a generic copy per reply cost the wasm about 0.5 KB each).
    #[inline(never)]
    fn untyped(
        &self,
        endpoint: Endpoint,
        path: &str,
        query: &[(&str, &str)],
        body: Option<String>,
    ) -> Result<Request<()>, Error> {
        let mut url = cat(&[&self.base, API_PREFIX, "/", path]);
        let mut sep = '?';
        if endpoint != Endpoint::Login {
            let token = self
                .token
                .as_ref()
                .ok_or(Error::Config(ConfigError::NoToken { endpoint }))?;
            url.push(sep);
            url.push_str("token=");
            url.push_str(&encode_component(token.expose()));
            sep = '&';
        }
        for (k, v) in query {
            url.push(sep);
            url.push_str(k);
            url.push('=');
            url.push_str(&encode_component(v));
            sep = '&';
        }
        Ok(Request {
            endpoint,
            url,
            body,
            secret: self.token.clone(),
            _reply: PhantomData,
        })
    }

    pub(crate) fn id_segment(
        &self,
        endpoint: Endpoint,
        id: &impl JsonView,
    ) -> Result<String, Error> {
        self.check(endpoint, validate::validate_id(id, self.opts()))?;
        Ok(encode_component(id.as_str().unwrap_or_default()))
    }

    /// Validates a page (`start` >= 0 and `limit` in the endpoint's range; absent means 0 and 100).
    pub(crate) fn page(
        &self,
        endpoint: Endpoint,
        kind: PageKind,
        start: &impl JsonView,
        limit: &impl JsonView,
    ) -> Result<(String, String), Error> {
        self.check(
            endpoint,
            validate::validate_page(kind, start, limit, self.opts()),
        )?;
        // Validated: absent (null) or an integer in range.
        let int = |v: &dyn IntOr, default: u64| v.int_or(default);
        Ok((
            decimal(int(start, 0)),
            decimal(int(limit, u64::from(MAX_PAGE))),
        ))
    }
}

/// `n` in decimal.
fn decimal(n: u64) -> String {
    let mut s = String::new();
    crate::json::push_uint(&mut s, n);
    s
}

/// A JSON object of members already written as JSON text.
pub(crate) fn object(members: &[(&str, &str)]) -> String {
    let mut out = String::from("{");
    for (i, (k, v)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        crate::json::push_str(&mut out, k);
        out.push(':');
        out.push_str(v);
    }
    out.push('}');
    out
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

    /// The token this request carries (the wasm shell keeps it for redaction).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) fn token(&self) -> Option<&Token> {
        self.secret.as_ref()
    }

    /// The token this request carries, for redaction.
    pub(crate) fn secret(&self) -> Option<&str> {
        self.secret.as_ref().map(Token::expose)
    }
}

#[cfg(test)]
mod tests {
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
        let Err(Error::Validation(e)) = api.create_users_value(&users) else {
            panic!("not refused")
        };
        let path = crate::json::ser::to_string(&e.report.issues[0].path);
        assert_eq!(path, r#"[0,"email"]"#);
        // A good batch is sent as the caller wrote it.
        let users = crate::json::parse(
            r#"[{"name":"Ann","username":"ann1","email":"a@x.vn","password":"secret1","extra":1e2}]"#,
        )
        .unwrap();
        let req = api.create_users_value(&users).unwrap();
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
