//! The token's one home: the [`Token`] type (checked once, never shown by `Debug`), the
//! percent-encoding that puts it (and every other URL component) on the wire, and [`redact`],
//! which every text taken from a server passes through before an error keeps it (defined below
//! the errors, in [`crate::redact`], as the errors use it and a token is refused with one).

use crate::error::{ConfigError, Error, TokenProblem};
pub use crate::redact::{redact, MIN_TOKEN_LEN, REDACT_RUN};

/// An API token. Its `Debug` never shows it and it has no `Display`.
#[derive(Clone, PartialEq, Eq)]
#[cfg_attr(
    not(target_arch = "wasm32"),
    derive(serde::Deserialize),
    serde(try_from = "String")
)]
pub struct Token(String);

/// Reads a token as [`Token::new`] checks it (serde's `try_from`; the wasm reads options with the
/// crate's JSON layer).
#[cfg(not(target_arch = "wasm32"))]
impl TryFrom<String> for Token {
    type Error = Error;
    fn try_from(token: String) -> Result<Token, Error> {
        Token::new(&token)
    }
}

impl Token {
    /// A token: at least [`MIN_TOKEN_LEN`] characters, all RFC 3986 unreserved
    /// (`A-Z a-z 0-9 - . _ ~`). Platform tokens are Meteor-style base64url, which fits; the
    /// restriction makes every encoding of the token (percent, JSON, HTML, form) identical to the
    /// token itself, so an echo of it in any of them is found and redacted. Relaxing it means
    /// teaching [`redact`] every such encoding first.
    pub fn new(token: &str) -> Result<Token, Error> {
        let unreserved =
            |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~');
        let refuse = |reason| Err(Error::Config(ConfigError::Token { reason }));
        if token.is_empty() {
            return refuse(TokenProblem::Empty);
        }
        for b in token.bytes() {
            if !unreserved(b) {
                return refuse(TokenProblem::Character);
            }
        }
        if token.len() < MIN_TOKEN_LEN {
            return refuse(TokenProblem::TooShort);
        }
        Ok(Token(token.to_owned()))
    }

    /// The token itself, for the one place that needs it: the query string.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl core::fmt::Debug for Token {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

/// Percent-encodes everything but RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`).
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(char::from(b"0123456789ABCDEF"[usize::from(b >> 4)]));
            out.push(char::from(b"0123456789ABCDEF"[usize::from(b & 15)]));
        }
    }
    out
}
