//! Per-endpoint `respCode` decoding.
//!
//! A code means different things on different endpoints (`02` is "no token" on get-me, "no id" on
//! get-single-user and "no body" on add-courses), so decoding always starts from the endpoint's own
//! table. Where a code is ambiguous on one endpoint (get-single-user `03`, create `10`) the `msg`
//! decides. A code missing from the endpoint's table is still recognised when its `msg` is one the
//! platform uses verbatim elsewhere (`No token`, `Invalid token ...`), and marked as such. Anything
//! else is kept as `Unknown` with its code and msg: never dropped.

use serde::Serialize;

/// Defines a unit enum and its `ALL` (every variant, in order) from one list of its variants.
macro_rules! with_all {
    (
        $(#[$attr:meta])*
        pub enum $name:ident { $( $(#[doc = $doc:literal])* $variant:ident, )* }
    ) => {
        $(#[$attr])*
        pub enum $name {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl $name {
            /// Every variant, in order (for [`Reason`] and [`Category`], that of `docs/errors.md`).
            pub const ALL: [$name; [$(stringify!($variant)),*].len()] = [$($name::$variant),*];
        }
    };
}
pub(crate) use with_all;

/// Defines [`Reason`] from one row per reason: its doc, variant, category, whether a retry can
/// help, and its explanation; `Reason::ALL` (through [`with_all!`]), `category`, `retryable` and
/// `explanation` come from the rows.
macro_rules! reasons {
    (
        $(#[$attr:meta])*
        pub enum $name:ident {
            $( $(#[doc = $doc:literal])* $variant:ident: $category:ident, $retryable:literal, $explanation:literal; )*
        }
    ) => {
        with_all! {
            $(#[$attr])*
            pub enum $name {
                $( $(#[doc = $doc])* $variant, )*
            }
        }

        impl $name {
            /// The category a program branches on.
            pub fn category(self) -> Category {
                match self {
                    $( $name::$variant => Category::$category, )*
                }
            }

            /// Whether sending the same request again can help: only for failures on the
            /// server's side.
            pub fn retryable(self) -> bool {
                match self {
                    $( $name::$variant => $retryable, )*
                }
            }

            /// An English explanation for people.
            pub fn explanation(self) -> &'static str {
                match self {
                    $( $name::$variant => $explanation, )*
                }
            }
        }
    };
}

with_all! {
    /// What a program can branch on.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, lpm_derive::SerializeUnit)]
    #[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
    #[serde(rename_all = "camelCase")]
    pub enum Category {
        /// No, invalid or expired token, or the server could not authenticate the account; also wrong login credentials.
        Authentication,
        /// The account is authenticated but not allowed.
        Permission,
        /// The request is missing something or has a bad parameter.
        BadRequest,
        /// The server's account capacity is exhausted or too small for the batch.
        Capacity,
        /// The requested record does not exist.
        NotFound,
        /// The server failed.
        Server,
        /// Wrong HTTP method.
        Method,
        /// A code this client does not know.
        Unknown,
    }
}

impl Category {
    /// The name JS sees (`notFound`).
    pub fn as_str(self) -> &'static str {
        self.serde_name()
    }

    /// What a program or a person does about an error of this category (`docs/errors.md`).
    pub fn advice(self) -> &'static str {
        match self {
            Category::Authentication => "Log in again (`login`) for a new token, unless `retryable` says the server only failed to check it; for a login, ask for the e-mail and password again.",
            Category::Permission => "Use the token of an account with the right (an administrator's); retrying the same token cannot help.",
            Category::BadRequest => "Fix the input (the reason names what); validate it before sending (`validate*`) to catch most of these without a call.",
            Category::Capacity => "Ask the platform for more accounts, or send fewer (`availableSlots` says how many fit).",
            Category::NotFound => "Check the id (get it from a list or a search); the record may have been removed.",
            Category::Server => "Retry later when `retryable` is true; a POST is never retried for you.",
            Category::Method => "A defect of the client or a proxy that changed the method: report it.",
            Category::Unknown => "Show the server's `code` and `msg`; branch on nothing else. Report the pair so it can be decoded.",
        }
    }
}

/// Where a code's meaning comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, lpm_derive::SerializeUnit)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum Basis {
    /// The contract's Errors table for this endpoint.
    Contract,
    /// The platform notes for this endpoint.
    Notes,
    /// Not documented for this endpoint; recognised by its msg, which the platform uses verbatim elsewhere.
    Msg,
    /// Not known at all.
    Unknown,
}

reasons! {
    /// The meaning of an error code, independent of endpoint.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, lpm_derive::SerializeUnit)]
    #[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
    #[serde(rename_all = "camelCase")]
    #[non_exhaustive]
    pub enum Reason {
        // A row: doc, variant, category, retryable, explanation.
        /// The method is wrong.
        WrongMethod: Method, false,
            "The request used the wrong HTTP method for this endpoint.";
        /// The request has no body.
        NoBody: BadRequest, false,
            "The request had no JSON body.";
        /// The body has no `users` array.
        NoUsersArray: BadRequest, false,
            "The request body has no `users` array.";
        /// `users` is not an array.
        UsersNotArray: BadRequest, false,
            "`users` in the request body is not an array.";
        /// `users` is empty.
        UsersEmpty: BadRequest, false,
            "`users` in the request body is an empty array.";
        /// No token was sent.
        NoToken: Authentication, false,
            "No API token was sent.";
        /// The server could not authenticate the account.
        CannotAuthenticate: Authentication, true,
            "The server could not authenticate the account; this may pass on a retry.";
        /// The token is invalid or has expired.
        InvalidToken: Authentication, false,
            "The API token is invalid or has expired; log in again for a new one.";
        /// The account has no permission.
        NoPermission: Permission, false,
            "The token's account is not allowed to do this.";
        /// The server could not check the caller's website resources.
        CannotCheckResources: Server, true,
            "The server could not check the caller's website resources; this may pass on a retry.";
        /// The maximum number of accounts is reached.
        CapacityExhausted: Capacity, false,
            "The platform has reached its maximum number of accounts.";
        /// Fewer free account slots than items.
        NotEnoughSlots: Capacity, false,
            "There are fewer free account slots than accounts in the batch; send fewer.";
        /// No item of a creation batch could be created.
        AllItemsFailed: BadRequest, false,
            "No account of the batch could be created; see each item's status.";
        /// No id in the path.
        NoId: BadRequest, false,
            "No id was given in the path.";
        /// No account has that id.
        UserNotFound: NotFound, false,
            "No account has that id.";
        /// `start` is missing.
        NoStartParameter: BadRequest, false,
            "The `start` parameter is missing.";
        /// `start` is invalid.
        InvalidStartParameter: BadRequest, false,
            "The `start` parameter is invalid; it must be an integer >= 0.";
        /// Login: no e-mail.
        NoEmail: BadRequest, false,
            "No e-mail address was given.";
        /// Login: no password.
        NoPassword: BadRequest, false,
            "No password was given.";
        /// Login: no account has that e-mail.
        WrongEmail: Authentication, false,
            "No account has that e-mail address.";
        /// Login: wrong password.
        WrongPassword: Authentication, false,
            "The password is wrong.";
        /// Login: the server could not check the password.
        CannotCheckPassword: Server, true,
            "The server could not check the password; this may pass on a retry.";
        /// Login: the server could not make a token.
        CannotGenerateToken: Server, true,
            "The server could not make a token; this may pass on a retry.";
        /// Create: the e-mail address belongs to an existing account.
        EmailInUse: BadRequest, false,
            "The e-mail address belongs to an existing account.";
        /// Create: the username belongs to an existing account.
        UsernameInUse: BadRequest, false,
            "The username belongs to an existing account.";
        /// Create: a required field (name, username, password) is missing or not usable.
        MissingFields: BadRequest, false,
            "A required field (name, username, password) is missing or unusable.";
        /// Create: the server failed to create the account (it was not created).
        CreateFailed: Server, true,
            "The server failed to create the account; this may pass on a retry.";
        /// No course has that id.
        CourseNotFound: NotFound, false,
            "No course has that id.";
        /// Unknown code, or an ambiguous code whose msg matched none of its meanings.
        Unknown: Unknown, false,
            "A code this client does not know; see the server's msg.";
    }
}

impl Reason {
    /// The name JS sees (`emailInUse`).
    pub fn as_str(self) -> &'static str {
        self.serde_name()
    }
}

/// The decoded meaning of one `respCode` on one endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CodeInfo {
    /// The meaning.
    pub reason: Reason,
    /// Where the meaning comes from.
    pub basis: Basis,
}

/// One row of an endpoint's table: a code, the msg prefix that selects it where the code is
/// ambiguous (lower case), and its meaning, in three bytes (each endpoint module writes its rows
/// with `row`): the tables are data the wasm carries, and pointers to texts cost it more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The code's number (`"02"`: 2); every documented code is two decimal digits.
    code: u8,
    /// 1 + the index of its msg prefix in [`PREFIXES`]; 0: none.
    prefix: u8,
    /// Its meaning.
    reason: Reason,
}

/// The msg prefixes (lower case) that tell apart the meanings of an ambiguous code.
const PREFIXES: [&str; 4] = [
    "your account does not have permission",
    "server is not able to check",
    "no token",
    "user not found",
];

/// The row of `code` (two decimal digits), selected by `prefix` where the code is ambiguous,
/// meaning `reason`. A code of another form, or a prefix missing from [`PREFIXES`], fails the
/// build.
pub(crate) const fn row(code: &str, prefix: Option<&str>, reason: Reason) -> Row {
    let c = code.as_bytes();
    assert!(c.len() == 2 && c[0].is_ascii_digit() && c[1].is_ascii_digit());
    let prefix = match prefix {
        None => 0,
        Some(p) => match crate::text::position(&PREFIXES, p) {
            Some(i) => i as u8 + 1,
            None => panic!("a prefix missing from PREFIXES"),
        },
    };
    Row {
        code: (c[0] - b'0') * 10 + (c[1] - b'0'),
        prefix,
        reason,
    }
}

impl Row {
    /// The code as the server writes it (`"02"`).
    pub fn code(&self) -> String {
        let mut s = String::new();
        s.push(char::from(b'0' + self.code / 10));
        s.push(char::from(b'0' + self.code % 10));
        s
    }

    /// The msg prefix that selects this meaning of an ambiguous code.
    pub fn prefix(&self) -> Option<&'static str> {
        PREFIXES
            .get(usize::from(self.prefix).checked_sub(1)?)
            .copied()
    }

    /// The meaning.
    pub fn reason(&self) -> Reason {
        self.reason
    }
}

/// A code's number when it is two decimal digits, as every row's code is.
fn code_number(code: &str) -> Option<u8> {
    match code.as_bytes() {
        [a @ b'0'..=b'9', b @ b'0'..=b'9'] => Some((a - b'0') * 10 + (b - b'0')),
        _ => None,
    }
}

/// An endpoint's documented table and where it comes from (each endpoint's `CODES`, in its
/// module of `src/endpoint/`).
pub(crate) type Codes = (&'static [Row], Basis);

/// Messages the platform uses verbatim on several endpoints (lower-case prefixes), used only for
/// codes the endpoint's own table does not list.
const KNOWN_MSGS: &[(&str, Reason)] = &[
    ("request method should be", Reason::WrongMethod),
    ("no request body", Reason::NoBody),
    ("không có body request", Reason::NoBody),
    ("no users array", Reason::NoUsersArray),
    ("no token", Reason::NoToken),
    (
        "server not able to authenticate",
        Reason::CannotAuthenticate,
    ),
    ("invalid token", Reason::InvalidToken),
    (
        "your account does not have permission",
        Reason::NoPermission,
    ),
    ("no id", Reason::NoId),
    ("no userid", Reason::NoId),
    ("user not found", Reason::UserNotFound),
    // get-single-course publishes no codes: its `07 Course not found` is known by this msg, as
    // every undocumented code is; not by any msg holding "not found" (`Endpoint not found`, a
    // wrong base URL, is no missing course).
    ("course not found", Reason::CourseNotFound),
    // The contract's per-item statuses of a create, which a single create answers as its msg.
    ("email already in use", Reason::EmailInUse),
    ("username already in use", Reason::UsernameInUse),
    ("not enough required", Reason::MissingFields),
    ("server error in create", Reason::CreateFailed),
    ("the number of accounts has run", Reason::CapacityExhausted),
    ("no start parameter", Reason::NoStartParameter),
    ("invalid start parameter", Reason::InvalidStartParameter),
];

fn msg_matches(msg: &str, prefix: &str) -> bool {
    crate::text::trim_start(msg)
        .get(..prefix.len())
        .is_some_and(|head| crate::text::fold(head) == prefix)
}

/// Decode `code` with `msg` as an endpoint answered it, from the endpoint's `table`
/// (`crate::endpoint::table`: passed in, as the registry is above the codes).
pub fn decode(table: Codes, code: &str, msg: &str) -> CodeInfo {
    let (rows, basis) = table;
    let number = code_number(code);
    let mut listed = false;
    for row in rows {
        if number != Some(row.code) {
            continue;
        }
        listed = true;
        if row.prefix().is_none_or(|p| msg_matches(msg, p)) {
            return CodeInfo {
                reason: row.reason,
                basis,
            };
        }
    }
    if listed {
        // An ambiguous code whose msg matched none of its documented meanings.
        return CodeInfo {
            reason: Reason::Unknown,
            basis: Basis::Unknown,
        };
    }
    for (prefix, reason) in KNOWN_MSGS {
        if msg_matches(msg, prefix) {
            return CodeInfo {
                reason: *reason,
                basis: Basis::Msg,
            };
        }
    }
    CodeInfo {
        reason: Reason::Unknown,
        basis: Basis::Unknown,
    }
}

/// Every unsigned integer written in `msg`, in order (digit runs too long for `u32` are skipped).
fn numbers(msg: &str) -> impl Iterator<Item = u32> + '_ {
    // By bytes: every byte of a non-ASCII character is a separator, as the character would be.
    msg.as_bytes()
        .split(|b| !b.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| u32::try_from(crate::json::parse_u64(s)?).ok())
}

/// Where `needle` first (or, `last`, last) occurs in `hay`, by bytes: msgs are short, and
/// `str::find` with a string pattern costs the wasm its two-way searcher.
fn position(hay: &str, needle: &str, last: bool) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let mut found = None;
    for i in 0..=h.len().checked_sub(n.len())? {
        if h.get(i..i + n.len())
            .is_some_and(|w| crate::json::same(w, n))
        {
            found = Some(i);
            if !last {
                break;
            }
        }
    }
    found
}

/// Counts a msg states: `<n> success, <m> error` or the Vietnamese add-courses sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct MsgCounts {
    /// How many succeeded, as the msg says.
    pub succeeded: u32,
    /// How many failed, as the msg says.
    pub failed: u32,
}

/// The first two numbers of `msg`, when `ok_word` comes before `err_word` in it.
fn two_counts(msg: &str, ok_word: &str, err_word: &str) -> Option<MsgCounts> {
    let lower = crate::text::fold(msg);
    if position(&lower, ok_word, false)? > position(&lower, err_word, true)? {
        return None;
    }
    let mut n = numbers(msg);
    Some(MsgCounts {
        succeeded: n.next()?,
        failed: n.next()?,
    })
}

/// Reads `<n> success, <m> error` (create-multi-user codes 00 and 13).
pub fn create_counts(msg: &str) -> Option<MsgCounts> {
    two_counts(msg, "success", "error")
}

/// Reads `<n> tài khoản thêm khoá học thành công, <m> tài khoản thêm khoá học lỗi` (add-courses).
pub fn add_courses_counts(msg: &str) -> Option<MsgCounts> {
    two_counts(msg, "thành công", "lỗi")
}

/// Reads `There are only <n> available accounts` (create-multi-user code 12).
pub fn available_slots(msg: &str) -> Option<u32> {
    position(&crate::text::fold(msg), "available", false)?;
    numbers(msg).next()
}

/// `docs/errors.md`: every category and reason, what it means, where it comes from (endpoint,
/// code, msg) and what to do, from the tables above. Written by a test (`errors_md_is_current`),
/// which fails while the committed file differs.
#[cfg(test)]
fn errors_markdown() -> String {
    use crate::endpoint::{table, Endpoint};
    use core::fmt::Write;
    let basis = |b: Basis| match b {
        Basis::Contract => "contract",
        Basis::Notes => "platform notes",
        Basis::Msg | Basis::Unknown => "by msg",
    };
    let mut out = String::from(
        "<!-- Generated from src/codes.rs by `cargo test -p lpm-client errors_md` \
         (LPM_WRITE_DOCS=1 rewrites it); do not edit by hand. -->\n\
         # Errors: every `category` and `reason`\n\n\
         An `ApiError` (`e.kind === \"api\"`) is the server's answer with a `respCode` other than \
         success. The core decodes the code **per endpoint** (`02` is \"no token\" on get-me, \
         \"no id\" on get-single-user, \"no body\" on add-courses), by code and msg together where \
         a code is ambiguous; a code an endpoint's table does not list is still recognised when \
         its msg is one the platform uses verbatim elsewhere (`basis: \"msg\"`). Anything else is \
         `reason: \"unknown\"`, its `code` and `msg` kept as received.\n\n\
         Branch on `category` (few, stable) and, for finer handling, on `reason`; `retryable` says \
         whether sending the same request again can help; `basis` says where the meaning comes \
         from (`contract`, `notes`, `msg`, `unknown`).\n\n\
         ```ts\n\
         try {\n  await client.registerUser(values);\n\
         } catch (e) {\n  if (e instanceof ApiError && e.reason === 'emailInUse') \
         setError('email', { message: 'This e-mail is taken' });\n  else throw e;\n}\n\
         ```\n\n## Categories\n\n| `category` | meaning | what to do |\n|---|---|---|\n",
    );
    let meaning = |c: Category| {
        Reason::ALL
            .iter()
            .filter(|r| r.category() == c)
            .map(|r| crate::error::cat(&["`", r.as_str(), "`"]))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for c in Category::ALL {
        let _ = writeln!(
            out,
            "| `{}` | reasons {} | {} |",
            c.as_str(),
            meaning(c),
            c.advice()
        );
    }
    out.push_str(
        "\n## Reasons\n\n| `reason` | `category` | `retryable` | meaning, what to do | \
         endpoint and code (where the meaning comes from) |\n|---|---|---|---|---|\n",
    );
    for r in Reason::ALL {
        let mut whence = Vec::new();
        for e in Endpoint::ALL {
            let (rows, b) = table(e);
            for row in rows.iter().filter(|row| row.reason == r) {
                let when = row
                    .prefix()
                    .map_or(String::new(), |p| format!(" when msg starts \"{p}\""));
                whence.push(format!(
                    "`{}` `{}`{when} ({})",
                    e.key(),
                    row.code(),
                    basis(b)
                ));
            }
        }
        for (prefix, reason) in KNOWN_MSGS {
            if *reason == r {
                whence.push(format!(
                    "any endpoint, a code its table does not list, msg starting \"{prefix}\" (by msg)"
                ));
            }
        }
        if r == Reason::Unknown {
            whence.push("any code and msg not recognised; an ambiguous code whose msg matches none of its meanings".into());
        }
        let _ = writeln!(
            out,
            "| `{}` | `{}` | {} | {} | {} |",
            r.as_str(),
            r.category().as_str(),
            if r.retryable() { "yes" } else { "no" },
            r.explanation().replace('|', "\\|"),
            whence.join("; ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endpoint::table;
    use crate::Endpoint;

    /// [`super::decode`] with the table of `endpoint`.
    fn decode(endpoint: Endpoint, code: &str, msg: &str) -> CodeInfo {
        super::decode(crate::endpoint::table(endpoint), code, msg)
    }

    #[test]
    fn errors_md_is_current() {
        crate::text::assert_generated("docs/errors.md", &errors_markdown(), "errors_md");
    }

    /// `pkg-templates/reasons.ts`: each category's reasons, from `Reason::category`, which the
    /// package's `ApiError` type pairs (a `reason` of another category does not compile).
    fn reasons_ts() -> String {
        let mut t = String::from(
            "// Generated from `Reason::category` (src/codes.rs) by `LPM_WRITE_DOCS=1 cargo test -p\n\
             // lpm-client reasons_ts`; do not edit by hand.\n\n\
             /** The reasons of each category: an `ApiError`'s `reason` is one of its `category`'s. */\n\
             export interface ReasonsByCategory {\n",
        );
        for c in Category::ALL {
            let reasons: Vec<String> = Reason::ALL
                .iter()
                .filter(|r| r.category() == c)
                .map(|r| format!("\"{}\"", r.as_str()))
                .collect();
            t.push_str(&format!(
                "  /** {} */\n  {}: {};\n",
                c.advice(),
                c.as_str(),
                reasons.join(" | ")
            ));
        }
        t.push_str("}\n");
        t
    }

    #[test]
    fn reasons_ts_is_current() {
        crate::text::assert_generated("pkg-templates/reasons.ts", &reasons_ts(), "reasons_ts");
    }

    #[test]
    fn every_reason_a_table_or_msg_gives_is_listed() {
        let mut given: Vec<Reason> = KNOWN_MSGS.iter().map(|(_, r)| *r).collect();
        for e in Endpoint::ALL {
            given.extend(table(e).0.iter().map(Row::reason));
        }
        for r in given {
            assert!(Reason::ALL.contains(&r), "{r:?} missing from Reason::ALL");
        }
        for (i, r) in Reason::ALL.iter().enumerate() {
            assert!(!Reason::ALL[..i].contains(r), "{r:?} twice");
        }
        for c in Category::ALL {
            assert!(
                Reason::ALL.iter().any(|r| r.category() == c),
                "{c:?} has no reason"
            );
        }
    }

    #[test]
    fn unit_enums_serialize_as_their_serde_names() {
        // `lpm_derive::SerializeUnit` reads the same attributes as tsify's TypeScript.
        use serde_json::to_string as json;
        assert_eq!(
            json(&Reason::NoStartParameter).unwrap(),
            r#""noStartParameter""#
        );
        assert_eq!(json(&Category::BadRequest).unwrap(), r#""badRequest""#);
        assert_eq!(Category::NotFound.as_str(), "notFound");
        assert_eq!(json(&Basis::Msg).unwrap(), r#""msg""#);
        assert_eq!(json(&crate::endpoint::Method::Post).unwrap(), r#""POST""#);
        let problem = json(&crate::error::TokenProblem::TooShort).unwrap();
        assert_eq!(problem, r#""tooShort""#);
    }

    #[test]
    fn login_token_codes_are_recognised_by_msg_only() {
        // The platform publishes none: the emulator's answers decode by their msg.
        let d = decode(
            Endpoint::CreateLoginToken,
            "03",
            "No userid in request body",
        );
        assert_eq!((d.reason, d.basis), (Reason::NoId, Basis::Msg));
        let d = decode(Endpoint::CreateLoginToken, "08", "User not found");
        assert_eq!((d.reason, d.basis), (Reason::UserNotFound, Basis::Msg));
        let d = decode(
            Endpoint::CreateLoginToken,
            "07",
            "Your account does not have permission",
        );
        assert_eq!((d.reason, d.basis), (Reason::NoPermission, Basis::Msg));
        let d = decode(Endpoint::CreateLoginToken, "09", "Something else");
        assert_eq!((d.reason, d.basis), (Reason::Unknown, Basis::Unknown));
    }

    #[test]
    fn single_create_errors_are_recognised_by_the_contracts_create_statuses() {
        // The platform publishes no codes for create-single-user; the emulator numbers them.
        for (code, msg, reason, category) in [
            (
                "08",
                "Email already in use",
                Reason::EmailInUse,
                Category::BadRequest,
            ),
            (
                "09",
                "Username already in use",
                Reason::UsernameInUse,
                Category::BadRequest,
            ),
            (
                "03",
                "Not enough required infomation to create new user",
                Reason::MissingFields,
                Category::BadRequest,
            ),
            (
                "11",
                "Server error in create new use",
                Reason::CreateFailed,
                Category::Server,
            ),
            (
                "10",
                "The number of accounts has run out",
                Reason::CapacityExhausted,
                Category::Capacity,
            ),
            ("04", "No token", Reason::NoToken, Category::Authentication),
        ] {
            let d = decode(Endpoint::CreateUser, code, msg);
            assert_eq!((d.reason, d.basis), (reason, Basis::Msg), "{code} {msg}");
            assert_eq!(d.reason.category(), category, "{code} {msg}");
        }
        assert!(Reason::CreateFailed.retryable());
        assert!(!Reason::EmailInUse.retryable());
    }

    #[test]
    fn course_not_found_is_known_by_its_msg_and_no_other_not_found_is() {
        // get-single-course publishes no codes; the emulator answers `07 Course not found`.
        let d = decode(Endpoint::GetCourse, "07", "Course not found");
        assert_eq!((d.reason, d.basis), (Reason::CourseNotFound, Basis::Msg));
        assert_eq!(d.reason.category(), Category::NotFound);
        // A wrong path (`99 Endpoint not found`) is no missing course: it stays unknown.
        let d = decode(Endpoint::GetCourse, "99", "Endpoint not found");
        assert_eq!((d.reason, d.basis), (Reason::Unknown, Basis::Unknown));
    }

    #[test]
    fn same_code_means_different_things_per_endpoint() {
        assert_eq!(
            decode(Endpoint::GetMe, "02", "No token").reason,
            Reason::NoToken
        );
        assert_eq!(
            decode(Endpoint::GetUser, "02", "No id").reason,
            Reason::NoId
        );
        assert_eq!(
            decode(Endpoint::AddCoursesToUsers, "02", "Không có body request").reason,
            Reason::NoBody
        );
    }

    #[test]
    fn ambiguous_codes_are_decided_by_msg() {
        assert_eq!(
            decode(Endpoint::GetUser, "03", "No token").reason,
            Reason::NoToken
        );
        assert_eq!(
            decode(Endpoint::GetUser, "03", "User not found").reason,
            Reason::UserNotFound
        );
        let other = decode(Endpoint::GetUser, "03", "Something else");
        assert_eq!(
            (other.reason, other.basis),
            (Reason::Unknown, Basis::Unknown)
        );
        assert_eq!(
            decode(
                Endpoint::CreateUsers,
                "10",
                "Your account does not have permission"
            )
            .reason,
            Reason::NoPermission
        );
        assert_eq!(
            decode(
                Endpoint::CreateUsers,
                "10",
                "Server is not able to check your website resources"
            )
            .reason,
            Reason::CannotCheckResources
        );
    }

    #[test]
    fn undocumented_codes_are_recognised_by_msg_only() {
        let info = decode(Endpoint::GetCourses, "02", "No token");
        assert_eq!((info.reason, info.basis), (Reason::NoToken, Basis::Msg));
        let info = decode(Endpoint::GetCourses, "42", "Something new");
        assert_eq!((info.reason, info.basis), (Reason::Unknown, Basis::Unknown));
        assert_eq!(
            decode(Endpoint::CreateUsers, "06", "").reason,
            Reason::NoToken
        );
    }

    #[test]
    fn figures_in_msgs() {
        assert_eq!(
            create_counts("2 success, 3 error"),
            Some(MsgCounts {
                succeeded: 2,
                failed: 3
            })
        );
        assert_eq!(create_counts("whatever"), None);
        assert_eq!(
            add_courses_counts(
                "4 tài khoản thêm khoá học thành công, 0 tài khoản thêm khoá học lỗi"
            ),
            Some(MsgCounts {
                succeeded: 4,
                failed: 0
            })
        );
        assert_eq!(
            available_slots("There are only 7 available accounts"),
            Some(7)
        );
        assert_eq!(
            available_slots("There are only 99999999999 available accounts"),
            None
        );
    }
}
