//! The one error type of the library.
//!
//! No error, nor its `Display` or `Debug`, ever contains the API token: every text that came from
//! the server is passed through [`redact`] with the token before it is stored.

use serde::Serialize;

use crate::codes::{with_all, Basis, Category, Codes, Reason};
use crate::registry::Endpoint;
use crate::rules::Report;

/// Re-exported: the crate's callers name it here.
pub(crate) use crate::text::cat;

/// Everything that can go wrong in planning a request or decoding its response.
#[derive(Clone, Debug, PartialEq, Serialize, lpm_derive::WriteJson)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Error {
    /// The server answered with an envelope whose `respCode` is an error.
    Api(ApiError),
    /// The server answered with a non-2xx status and a body that is not an envelope.
    Http(HttpError),
    /// The body is not what the endpoint promises.
    Decode(DecodeError),
    /// The input was refused before anything was sent.
    Validation(ValidationError),
    /// The client is set up wrongly (base URL, missing token).
    Config(ConfigError),
}

with_all! {
    /// What went wrong, for a `switch`: the kind of every error the client gives.
    // The kinds of [`Error`] and those the wasm shell reports for the host (network, timeout, abort, a
    // too large body, the create interval). The one list of kinds: `Error::kind`, the shell's
    // failures, TypeScript's `CoreErrorKind`, and the package's table of error classes
    // (`pkg-templates/errors.ts`, checked against this type when the package is built, so a renamed
    // kind fails the build). Doc comments here are also the TypeScript's: no Rust paths in them.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, lpm_derive::SerializeUnit)]
    #[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
    #[serde(rename_all = "camelCase")]
    #[cfg_attr(feature = "wasm", tsify(rename = "CoreErrorKind"))]
    pub enum ErrorKind {
        /// [`Error::Validation`]: the input was refused before anything was sent.
        Validation,
        /// [`Error::Api`]: an error `respCode`.
        Api,
        /// [`Error::Http`]: non-2xx without an envelope.
        Http,
        /// [`Error::Decode`]: the body does not fit the reply.
        Decode,
        /// [`Error::Config`]: unusable options.
        Config,
        /// The request did not complete.
        Network,
        /// No complete answer within the timeout.
        Timeout,
        /// The caller's AbortSignal fired.
        Abort,
        /// A guarded create inside its interval.
        Interval,
        /// The body is larger than the client reads.
        TooLarge,
    }
}

impl ErrorKind {
    /// The kind's name (`"tooLarge"`), as JavaScript sees it in `error.kind`.
    pub fn as_str(self) -> &'static str {
        self.serde_name()
    }
}

impl Error {
    /// A stable name of the variant: `"api"`, `"http"`, `"decode"`, `"validation"`, `"config"`
    /// ([`ErrorKind`]).
    pub fn kind(&self) -> &'static str {
        self.error_kind().as_str()
    }

    /// The variant's [`ErrorKind`].
    pub fn error_kind(&self) -> ErrorKind {
        match self {
            Error::Api(_) => ErrorKind::Api,
            Error::Http(_) => ErrorKind::Http,
            Error::Decode(_) => ErrorKind::Decode,
            Error::Validation(_) => ErrorKind::Validation,
            Error::Config(_) => ErrorKind::Config,
        }
    }

    /// Whether sending the same request again can help: server-side failures, HTTP 429 and 5xx.
    /// Whether it is *safe* to resend is the caller's question (never automatically for a POST).
    pub fn retryable(&self) -> bool {
        match self {
            Error::Api(e) => e.retryable,
            Error::Http(e) => e.status == 429 || (500..=599).contains(&e.status),
            Error::Decode(e) => (500..=599).contains(&e.status),
            Error::Validation(_) | Error::Config(_) => false,
        }
    }
}

impl Error {
    /// The message, in English, token-free (built without `core::fmt`, which costs the wasm).
    pub fn message(&self) -> String {
        match self {
            Error::Api(e) => e.message(),
            Error::Http(e) => e.message(),
            Error::Decode(e) => e.message(),
            Error::Validation(e) => e.message(),
            Error::Config(e) => e.message(),
        }
    }
}

impl Error {
    /// The error as JSON text, exactly what its serde `Serialize` writes (`{"kind": ...}` then
    /// the variant's fields; a test compares every variant), by the writer `lpm_derive::WriteJson`
    /// derives from the same serde attributes. The npm package's wasm throws this.
    pub fn to_json(&self) -> String {
        crate::json::ser::WriteJson::to_json(self)
    }
}

/// `Display` of each error type: its `message()`.
macro_rules! display_by_message {
    ($($t:ty),*) => {$(
        impl core::fmt::Display for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(&self.message())
            }
        }
    )*};
}
display_by_message!(
    Error,
    ApiError,
    HttpError,
    DecodeError,
    ValidationError,
    ConfigError
);

impl std::error::Error for Error {}

/// An error envelope: `{respCode: <not 00>, msg}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
// TS name differs from the JS error class of the same Rust name.
#[cfg_attr(feature = "wasm", tsify(rename = "ApiErrorInfo"))]
pub struct ApiError {
    /// The endpoint that answered.
    pub endpoint: Endpoint,
    /// `respCode` as received.
    pub code: String,
    /// `msg` as received (with the token, should the server echo it, redacted).
    pub msg: String,
    /// HTTP status of the response.
    pub status: u16,
    /// The meaning of the code on this endpoint.
    pub reason: Reason,
    /// What a program can branch on.
    pub category: Category,
    /// Where the meaning comes from.
    pub basis: Basis,
    /// Whether a retry of the same request can help.
    pub retryable: bool,
    /// English explanation.
    pub explanation: &'static str,
    /// Free account slots, read from the msg of create code 12.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_slots: Option<u32>,
}

impl ApiError {
    /// The error of `code` with `msg` as `endpoint` answered them: its meaning from the
    /// endpoint's `table` ([`crate::codes::decode`]); both kept as [`bounded`] keeps a server's
    /// text (`secret` redacted).
    pub(crate) fn new(
        endpoint: Endpoint,
        table: Codes,
        code: &str,
        msg: &str,
        status: u16,
        secret: Option<&str>,
    ) -> ApiError {
        let info = crate::codes::decode(table, code, msg);
        let available_slots = match info.reason {
            Reason::NotEnoughSlots => crate::codes::available_slots(msg),
            _ => None,
        };
        ApiError {
            endpoint,
            code: bounded(code.as_bytes(), secret),
            msg: bounded(msg.as_bytes(), secret),
            status,
            reason: info.reason,
            category: info.reason.category(),
            basis: info.basis,
            retryable: info.reason.retryable(),
            explanation: info.reason.explanation(),
            available_slots,
        }
    }

    /// `<endpoint> answered respCode <code> (<category>): <msg> (<explanation>)`.
    pub fn message(&self) -> String {
        cat(&[
            self.endpoint.key(),
            " answered respCode ",
            &self.code,
            " (",
            self.category.as_str(),
            "): ",
            &self.msg,
            " (",
            self.explanation,
            ")",
        ])
    }
}

/// A non-2xx response whose body is not an envelope.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
// TS name differs from the JS error class of the same Rust name.
#[cfg_attr(feature = "wasm", tsify(rename = "HttpErrorInfo"))]
pub struct HttpError {
    /// The endpoint called.
    pub endpoint: Endpoint,
    /// HTTP status.
    pub status: u16,
    /// The start of the body (cut short, marked `…` when cut), token redacted.
    // At most `EXCERPT_CHARS` characters.
    pub excerpt: String,
}

/// How much of a non-envelope body an error keeps.
pub const EXCERPT_CHARS: usize = 200;

impl HttpError {
    /// `<endpoint> answered HTTP <status> without an API envelope[: <excerpt>]`.
    pub fn message(&self) -> String {
        let mut m = cat(&[self.endpoint.key(), " answered HTTP "]);
        crate::json::push_uint(&mut m, self.status.into());
        m.push_str(" without an API envelope");
        if !self.excerpt.is_empty() {
            m.push_str(": ");
            m.push_str(&self.excerpt);
        }
        m
    }
}

/// A body that does not fit what the endpoint promises.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
// TS name differs from the JS error class of the same Rust name.
#[cfg_attr(feature = "wasm", tsify(rename = "DecodeErrorInfo"))]
pub struct DecodeError {
    /// The endpoint called.
    pub endpoint: Endpoint,
    /// HTTP status.
    pub status: u16,
    /// JSON path of the value that did not fit (`course.price.original`); `.` for the whole body.
    pub path: String,
    /// What did not fit.
    pub detail: String,
    /// What kind of misfit, for a program to branch on.
    pub problem: DecodeProblem,
}

/// What kind of answer a decode error is: for a program to branch on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, lpm_derive::SerializeUnit)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum DecodeProblem {
    /// A success status with a body that is no API envelope.
    NotEnvelope,
    /// An envelope whose members do not fit the reply.
    Shape,
    /// A list's pages that cannot be read to their end.
    Paging,
}

impl DecodeError {
    /// ``cannot decode the <endpoint> response (HTTP <status>) at `<path>`: <detail>``.
    pub fn message(&self) -> String {
        let mut m = cat(&[
            "cannot decode the ",
            self.endpoint.key(),
            " response (HTTP ",
        ]);
        crate::json::push_uint(&mut m, self.status.into());
        m.push_str(&cat(&[") at `", &self.path, "`: ", &self.detail]));
        m
    }
}

/// Input refused before sending: the validation report.
#[derive(Clone, Debug, PartialEq, Serialize, lpm_derive::WriteJson)]
#[serde(rename_all = "camelCase")]
pub struct ValidationError {
    /// The endpoint whose input was refused.
    pub endpoint: Endpoint,
    /// Every finding.
    pub report: Report,
}

impl ValidationError {
    /// `<endpoint> input refused: <n> issue(s); first at <path>: <message>`.
    pub fn message(&self) -> String {
        let n = self.report.issues.len();
        let mut m = cat(&[self.endpoint.key(), " input refused: "]);
        crate::json::push_uint(&mut m, n as u64);
        m.push_str(if n == 1 { " issue" } else { " issues" });
        if let Some(first) = self.report.issues.first() {
            let path = crate::json::ser::value_json(&first.path);
            m.push_str(&cat(&["; first at ", &path, ": ", &first.message]));
        }
        m
    }
}

/// The client is set up wrongly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(tag = "problem", rename_all = "camelCase")]
// TS name differs from the JS error class of the same Rust name.
#[cfg_attr(feature = "wasm", tsify(rename = "ConfigErrorInfo"))]
pub enum ConfigError {
    /// The base URL cannot be used; `reason` says why.
    BaseUrl {
        /// Why.
        reason: &'static str,
    },
    /// The token cannot be used; `reason` says why.
    Token {
        /// Why.
        reason: TokenProblem,
    },
    /// The endpoint needs a token and none was given.
    NoToken {
        /// The endpoint.
        endpoint: Endpoint,
    },
    /// A client option has a value that cannot be used.
    Option {
        /// The option's name.
        option: &'static str,
        /// What it must be.
        expected: &'static str,
    },
    /// A bulk job's journal cannot be resumed with this input (another file, another job, a
    /// damaged journal); `reason` says why.
    Journal {
        /// Why.
        reason: String,
    },
}

impl ConfigError {
    /// What is wrong with the client's setup.
    pub fn message(&self) -> String {
        match self {
            ConfigError::BaseUrl { reason } => cat(&["unusable base URL: ", reason]),
            ConfigError::Token { reason } => reason.message(),
            ConfigError::NoToken { endpoint } => {
                cat(&[endpoint.key(), " needs a token and none is set"])
            }
            ConfigError::Option { option, expected } => {
                cat(&["option `", option, "` must be ", expected])
            }
            ConfigError::Journal { reason } => cat(&["the journal was refused: ", reason]),
        }
    }
}

impl ConfigError {
    /// `Error::Config(self).to_json()`, written without the other errors' writers: the
    /// validators' wasm (`lpm-client/validate`) throws no other error.
    pub fn error_json(&self) -> String {
        use crate::json::ser::{Object, WriteJson};
        let mut o = Object::new();
        o.str("kind", ErrorKind::Config.as_str());
        self.write_fields(&mut o);
        o.end()
    }
}

/// Why a token was refused: empty, a character outside `A-Z a-z 0-9 - . _ ~`, or shorter than 8.
// The checks: `plan::Token::new`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, lpm_derive::SerializeUnit)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum TokenProblem {
    /// No characters at all.
    Empty,
    /// A character outside `A-Z a-z 0-9 - . _ ~` (whitespace, a control character, `+`, `/`, ...).
    Character,
    /// Fewer than [`crate::redact::MIN_TOKEN_LEN`] characters.
    TooShort,
}

impl TokenProblem {
    fn message(self) -> String {
        match self {
            TokenProblem::Empty => "the token is empty".into(),
            TokenProblem::Character => "the token holds a character outside A-Z a-z 0-9 - . _ ~ (whitespace, a line break, or a symbol such as + / =)".into(),
            TokenProblem::TooShort => {
                let mut m = String::from("the token is too short: it needs at least ");
                crate::json::push_uint(&mut m, crate::redact::MIN_TOKEN_LEN as u64);
                m.push_str(" characters (the platform's have 43)");
                m
            }
        }
    }
}

pub use crate::redact::redact;

/// How much of a server's text is looked at before redaction and [`EXCERPT_CHARS`] cut it:
/// enough that what the cut keeps never reaches this bound (an echo shrinks at most 60-fold).
const SCAN_BYTES: usize = 64 * 1024;

/// A text taken from the server, as an error keeps it: the token redacted, at most
/// [`EXCERPT_CHARS`] characters (marked `…` when cut), whatever the server sent.
pub(crate) fn bounded(text: &[u8], secret: Option<&str>) -> String {
    let head = lossy(text.get(..SCAN_BYTES).unwrap_or(text));
    excerpt(&redact(&head, secret), EXCERPT_CHARS)
}

/// `String::from_utf8_lossy` (each invalid sequence one U+FFFD, the same rule) on `from_utf8`,
/// which the wasm has anyway, instead of its own UTF-8 chunker (1.1 KB).
fn lossy(mut bytes: &[u8]) -> String {
    let mut out = String::new();
    loop {
        match core::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (good, rest) = bytes.split_at(e.valid_up_to());
                out.push_str(core::str::from_utf8(good).unwrap_or_default());
                out.push('\u{FFFD}');
                bytes = rest
                    .get(e.error_len().unwrap_or(rest.len())..)
                    .unwrap_or_default();
            }
        }
    }
}

/// The first `max` characters of `text`, marked when cut.
pub(crate) fn excerpt(text: &str, max: usize) -> String {
    // Characters counted by their first bytes (no character iterator: the wasm carries none for
    // this).
    let mut chars = 0;
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if (b as i8) >= -0x40 {
            if chars == max {
                return cat(&[text.get(..i).unwrap_or(text), "…"]);
            }
            chars += 1;
        }
    }
    text.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_errors_json_is_the_errors() {
        for e in [
            ConfigError::Option {
                option: "kind",
                expected: "a validator of the package",
            },
            ConfigError::Token {
                reason: TokenProblem::TooShort,
            },
        ] {
            assert_eq!(e.error_json(), Error::Config(e.clone()).to_json());
        }
    }

    #[test]
    fn each_kind_is_written_as_its_camel_case_name_and_tags_its_error() {
        for kind in ErrorKind::ALL {
            let debug = format!("{kind:?}");
            let camel = debug[..1].to_lowercase() + &debug[1..];
            assert_eq!(kind.as_str(), camel);
            assert_eq!(serde_json::to_value(kind).unwrap(), camel.as_str());
        }
        let errors = [
            Error::Config(ConfigError::BaseUrl { reason: "r" }),
            Error::Http(HttpError {
                endpoint: Endpoint::GetMe,
                status: 500,
                excerpt: String::new(),
            }),
            Error::Decode(DecodeError {
                endpoint: Endpoint::GetMe,
                status: 200,
                path: ".".into(),
                detail: String::new(),
                problem: DecodeProblem::NotEnvelope,
            }),
            Error::Validation(ValidationError {
                endpoint: Endpoint::GetMe,
                report: Report { issues: Vec::new() },
            }),
        ];
        for e in errors {
            // The serde tag of the error (what JS reads as `kind`) is its kind's name.
            assert_eq!(serde_json::to_value(&e).unwrap()["kind"], e.kind());
        }
    }

    /// One error of every variant (and every `ConfigError`), with the optional fields both set
    /// and not, and texts that need escaping.
    fn every_variant() -> Vec<Error> {
        let api = |endpoint, code: &str, msg: &str| {
            Error::Api(ApiError::new(
                endpoint,
                crate::endpoint::table(endpoint),
                code,
                msg,
                200,
                None,
            ))
        };
        let items = crate::json::parse(r#"[{"email":"x"},{}]"#).unwrap();
        let report = crate::validate::validate_create_users(
            &items,
            crate::validate::ValidateOptions::default(),
        );
        assert!(!report.is_ok());
        vec![
            api(Endpoint::CreateUsers, "12", "only 3 slots \"left\"\n"),
            api(Endpoint::GetMe, "99", "é\u{1}"),
            Error::Http(HttpError {
                endpoint: Endpoint::GetMe,
                status: 502,
                excerpt: "<html>\"</html>".into(),
            }),
            Error::Decode(DecodeError {
                endpoint: Endpoint::GetMe,
                status: 200,
                path: "course.price".into(),
                detail: "expected a number".into(),
                problem: DecodeProblem::Shape,
            }),
            Error::Validation(ValidationError {
                endpoint: Endpoint::CreateUsers,
                report,
            }),
            Error::Validation(ValidationError {
                endpoint: Endpoint::GetMe,
                report: Report { issues: Vec::new() },
            }),
            Error::Config(ConfigError::BaseUrl {
                reason: "no \"host\"",
            }),
            Error::Config(ConfigError::Token {
                reason: TokenProblem::Empty,
            }),
            Error::Config(ConfigError::Token {
                reason: TokenProblem::TooShort,
            }),
            Error::Config(ConfigError::NoToken {
                endpoint: Endpoint::GetMe,
            }),
            Error::Config(ConfigError::Option {
                option: "timeoutMs",
                expected: "a number",
            }),
            Error::Config(ConfigError::Journal {
                reason: "another job".into(),
            }),
        ]
    }

    #[test]
    fn the_derived_json_is_what_serde_writes() {
        for e in every_variant() {
            assert_eq!(e.to_json(), serde_json::to_string(&e).unwrap(), "{e:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn lossy_is_from_utf8_lossy(bytes in proptest::collection::vec(proptest::prop_oneof![
            proptest::num::u8::ANY,
            proptest::strategy::Just(0xE2u8),
            proptest::strategy::Just(0x82u8),
            proptest::strategy::Just(0xACu8),
            proptest::strategy::Just(0xF0u8),
            proptest::strategy::Just(0x9Fu8),
            proptest::strategy::Just(0xEDu8),
            proptest::strategy::Just(0xA0u8),
        ], 0..48)) {
            proptest::prop_assert_eq!(lossy(&bytes), String::from_utf8_lossy(&bytes));
        }
    }

    proptest::proptest! {
        #[test]
        fn excerpt_keeps_the_first_characters(text in "[a-zé✓😀]{0,12}", max in 0usize..14) {
            let want = match text.char_indices().nth(max) {
                Some((cut, _)) => format!("{}…", &text[..cut]),
                None => text.clone(),
            };
            proptest::prop_assert_eq!(excerpt(&text, max), want);
        }
    }

    const TOKEN: &str = "Sec-ret.Tok~en_zq9XQ7wP4vK2mN8bR5tY3uH6jL1c";

    fn pct(s: &str, upper: bool) -> String {
        s.bytes()
            .map(|b| {
                let e = format!("%{b:02X}");
                if upper {
                    e
                } else {
                    e.to_lowercase()
                }
            })
            .collect()
    }

    fn json_escaped(s: &str) -> String {
        s.bytes().map(|b| format!("\\u{b:04x}")).collect()
    }

    #[track_caller]
    fn hidden(form: &str) {
        let text = format!("before «{form}» after");
        let out = redact(&text, Some(TOKEN));
        assert_eq!(out, "before «<redacted>» after", "{form}");
    }

    #[test]
    fn every_form_of_the_token_is_redacted() {
        hidden(TOKEN);
        hidden(&TOKEN.replace('~', "%7E"));
        hidden(&TOKEN.replace('~', "%7e"));
        hidden(&pct(TOKEN, true));
        hidden(&pct(TOKEN, false));
        hidden(&json_escaped(TOKEN));
        hidden(&json_escaped(TOKEN).to_uppercase().replace("\\U", "\\u"));
        hidden(&TOKEN.to_uppercase());
        hidden(&TOKEN.to_lowercase());
        // Forms mixed character by character.
        let mixed: String = TOKEN
            .char_indices()
            .map(|(i, c)| match i % 3 {
                0 => c.to_string(),
                1 => pct(&c.to_string(), i % 2 == 0),
                _ => json_escaped(&c.to_string()),
            })
            .collect();
        hidden(&mixed);
        // Runs of at least 16 characters: a prefix, a suffix, the middle.
        hidden(&TOKEN[..16]);
        hidden(&TOKEN[TOKEN.len() - 20..]);
        hidden(&pct(&TOKEN[10..30], false));
        // Several echoes, and two runs that touch.
        let two = format!("{TOKEN} and {}", TOKEN.to_uppercase());
        assert_eq!(redact(&two, Some(TOKEN)), "<redacted> and <redacted>");
        assert_eq!(
            redact(&format!("{TOKEN}{TOKEN}"), Some(TOKEN)),
            "<redacted>"
        );
    }

    #[test]
    fn what_is_not_an_echo_is_kept() {
        // Fewer than 16 consecutive characters, and text around them, stay.
        let short = &TOKEN[..15];
        let text = format!("{short}!{}", &TOKEN[15..30]);
        assert_eq!(redact(&text, Some(TOKEN)), text);
        for text in [
            "plain text, ünïcödé ✓, %zz %4 \\u12 \\uZZZZ %",
            "",
            "%E2%9C%93 \\u00e9",
        ] {
            assert_eq!(redact(text, Some(TOKEN)), text);
        }
        assert_eq!(redact(TOKEN, None), TOKEN);
        // A short token only whole.
        assert_eq!(
            redact("ab12cd34 ab12cd3", Some("AB12cd34")),
            "<redacted> ab12cd3"
        );
        // Non-ASCII around an echo stays whole.
        assert_eq!(redact(&format!("é{TOKEN}é"), Some(TOKEN)), "é<redacted>é");
    }
}
