//! The token's one home: the [`Token`] type (checked once, never shown by `Debug`), the
//! percent-encoding that puts it (and every other URL component) on the wire, and [`redact`],
//! which every text taken from a server passes through before an error keeps it.

use crate::error::{ConfigError, Error, TokenProblem};

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

/// The shortest token accepted. Platform tokens are 43 characters; a very short one would match
/// ordinary words in messages and could not be told apart from them when redacting.
pub const MIN_TOKEN_LEN: usize = 8;

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

/// The shortest run of the token's characters that is redacted on its own (a server that cuts an
/// echo short); a shorter token is redacted only whole.
pub const REDACT_RUN: usize = 16;

/// Replaces every echo of `secret` in `text` with `<redacted>`. An echo is found where each of
/// its characters is written as itself, as `%XX` or as a JSON `\uXXXX` escape (hex digits of
/// either case, forms mixed freely), in any ASCII letter case, and a run of at least
/// [`REDACT_RUN`] consecutive characters of the secret counts as an echo (of a shorter secret,
/// only the whole). Other transformations (base64, HTML entities, double encoding) are not
/// recognised: tokens are kept to RFC 3986 unreserved characters, which no usual encoding changes.
pub fn redact(text: &str, secret: Option<&str>) -> String {
    let Some(secret) = secret.filter(|s| !s.is_empty()) else {
        return text.to_owned();
    };
    // Read both ways: with escapes decoded, then byte by byte, since a `\uXXXX` or `%XX` the
    // text holds may be no escape at all (`\u0004` then 15 of the token's characters shows a
    // reader 16 of them: the `4` and the 15). `<redacted>` cannot join a run (a token holds no
    // `<` or `>`), so the second reading sees only what the first left.
    let once = redact_read(text, secret.as_bytes(), true);
    redact_read(&once, secret.as_bytes(), false)
}

/// [`redact`] in one reading of the text: unit by unit (with `decode`: `%XX` and `\uXXXX` as
/// the byte they encode) or byte by byte.
fn redact_read(text: &str, secret: &[u8], decode: bool) -> String {
    let run = secret.len().min(REDACT_RUN);
    let t = text.as_bytes();
    // Longest common substring, one unit of the text at a time: `m[o]` is the length and the text
    // offset of the match that ends here with the secret's byte `o`. A covered byte range of the
    // text is written out once the next one is found apart from it (touching ones merge).
    let mut m: Vec<(usize, usize)> = Vec::with_capacity(secret.len());
    for _ in secret {
        m.push((0, 0));
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut covered: Option<(usize, usize)> = None;
    let mut write = |out: &mut String, (start, end): (usize, usize)| {
        out.push_str(text.get(at..start).unwrap_or_default());
        out.push_str("<redacted>");
        at = end;
    };
    let mut i = 0;
    while let Some(&first) = t.get(i) {
        let (width, byte) = match decode {
            true => unit(t.get(i..).unwrap_or_default()),
            false => (1, first),
        };
        let end = i + width;
        let (mut longest, mut start) = (0, 0);
        // `m[o - 1]` as the previous unit left it.
        let mut before = (0, 0);
        for (slot, s) in m.iter_mut().zip(secret) {
            let here = match (s.eq_ignore_ascii_case(&byte), before) {
                (false, _) => (0, 0),
                (true, (0, _)) => (1, i),
                (true, (n, from)) => (n + 1, from),
            };
            before = core::mem::replace(slot, here);
            if here.0 > longest {
                (longest, start) = here;
            }
        }
        if longest >= run {
            match &mut covered {
                Some(last) if last.1 >= start => last.1 = end,
                _ => {
                    if let Some(done) = covered.replace((start, end)) {
                        write(&mut out, done);
                    }
                }
            }
        }
        i = end;
    }
    if let Some(done) = covered {
        write(&mut out, done);
    }
    out.push_str(text.get(at..).unwrap_or_default());
    out
}

/// The first unit of `t`: `%XX` or `\uXXXX` (below 0x80) as the byte it encodes, else one byte.
/// Covered units are ASCII (the secret's bytes are matched only by ASCII spellings or by
/// themselves), so cutting the text at their bounds keeps it UTF-8.
fn unit(t: &[u8]) -> (usize, u8) {
    let hex = |s: &[u8]| {
        s.iter()
            .try_fold(0u32, |n, &c| char::from(c).to_digit(16).map(|d| n * 16 + d))
    };
    let (width, digits) = match t {
        [b'%', rest @ ..] => (3, rest.get(..2)),
        [b'\\', b'u', rest @ ..] => (6, rest.get(..4)),
        _ => (1, None),
    };
    match digits.and_then(hex) {
        Some(n) if n < 0x80 => (width, n as u8),
        _ => (1, t.first().copied().unwrap_or_default()),
    }
}
