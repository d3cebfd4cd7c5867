//! Validation of requests before they are sent: pure functions, no network, no I/O, no panics.
//!
//! This is what browser forms call (through WebAssembly) before submitting. Every validator takes
//! the raw JSON the caller has (from a form or from JavaScript), so that wrong types and missing keys
//! are reported too, each with the path of the offending value, all of them at once.
//!
//! Each finding is an [`Issue`] with:
//! - `path`: object keys and array indexes down to the value (`[3, "email"]`); indexes are 0-based;
//! - `code`: a stable machine string (the table is [`IssueCode::messages`], the only place messages live);
//! - `level`: [`Level::Contract`] when the contract (`management-api.md`) makes the request certain to
//!   fail or the item certain to be rejected, [`Level::Platform`] when only the platform's documented
//!   rules (`platform-notes.md`) predict it; a caller chooses how strict to be with
//!   [`Report::blocks`], or leaves platform findings out with [`ValidateOptions::platform_rules`];
//! - `message`: English or Vietnamese ([`Lang`]). Messages never echo a submitted value (so never a
//!   password); rows named in messages are counted from 1 for people, while paths count from 0.
//!
//! | code | level | where |
//! |---|---|---|
//! | `required` | contract | a required string is absent, `null`, or empty after trimming whitespace |
//! | `not_string` | contract | a field that must be a string holds another JSON type |
//! | `not_array` | contract | `users` / `courses` is not a JSON array (also when `null`) |
//! | `empty` | contract | `users` / `courses` is an empty array |
//! | `too_many` | contract | more than 100 items (create) or accounts (add-courses) |
//! | `not_object` | contract | a creation item is not a JSON object |
//! | `duplicate_email` | contract | same e-mail (trimmed, case-insensitive) as an earlier item of the batch |
//! | `duplicate_username` | contract / platform | same username (trimmed) as an earlier item: contract when equal, platform when they differ only in letter case |
//! | `not_integer` | contract | `start` / `limit` is not an integer number |
//! | `too_small` / `too_large` | contract | `start` below 0, `limit` outside 1..=100 (users) or 0..=100 (courses) |
//! | `email_or_username_required` | contract | search-user without a non-empty `email` or `username` |
//! | `dot_segment` | contract | an id that is `.` or `..`, which URL parsers would resolve to another path |
//! | `too_short` / `too_long` | platform | name ≥ 3, username 3–20, password 6–35 characters |
//! | `invalid_chars` | platform | username outside a-z A-Z 0-9 |
//! | `invalid_email` | platform | e-mail address that is not plausible (see `plausible_email`) |
//! | `invalid_phone` | platform | a non-blank phone that is not 8–15 digits with an optional leading `+` and the separators space `.` `-` `(` `)` (see `plausible_phone`) |
//! | `unknown_field` | platform | a key of a creation item that the contract does not list (likely a typo) |
//! | `duplicate_id` | platform | the same id twice in one add-courses list |

use crate::json::{JsonView, Kind};

mod account;
mod code;
pub(crate) mod collect;
mod message;
mod params;
#[cfg(test)]
mod tests;

pub use account::{validate_create_user, validate_create_users, UsersCheck};
pub use code::IssueCode;
pub use params::validate_params;
pub(crate) use params::{check_param, report_params};

use collect::*;
use message::*;

/// The message of `code` about the creation field `field` (or, for `duplicate_id` with no field,
/// an account id), with `n` (a bound, or a row counted from 1), in `lang`: for callers that find
/// issues of their own, such as the bulk engine's repeats across a whole input, so every message
/// still comes from the one table.
pub fn message(code: IssueCode, field: &str, n: usize, lang: Lang) -> String {
    let field = match (code, field) {
        (IssueCode::DuplicateId, "") => Field::AccountId,
        (_, key) => Field::of_key(key),
    };
    render(code, field, n, lang)
}

/// Every message a validator can give in `lang` (each code for each field, numbers as `0`): the
/// one table, for checks that a message never echoes what was submitted (the fuzz targets').
pub fn every_message(lang: Lang) -> impl Iterator<Item = String> {
    IssueCode::ALL.into_iter().flat_map(move |code| {
        Field::ALL
            .into_iter()
            .map(move |f| render(code, f, 0, lang))
    })
}
use serde::{Deserialize, Serialize};

/// One step of a path to the offending value: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(untagged)]
pub enum PathSegment {
    /// A key of a JSON object.
    Key(String),
    /// A 0-based index into a JSON array.
    Index(usize),
}

/// Untagged, as serde writes it: the key or the index itself (`WriteJson` models no `untagged`;
/// the test of issues' JSON holds the two equal).
impl crate::json::ser::Put for PathSegment {
    fn write(&self, o: &mut crate::json::ser::Object) {
        match self {
            PathSegment::Key(k) => k.write(o),
            PathSegment::Index(i) => i.write(o),
        }
    }
}

/// Which language messages are rendered in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English (`"en"`), the default.
    #[default]
    En,
    /// Vietnamese (`"vi"`), the language of the platform's users.
    Vi,
}

/// How sure a finding is: `contract` (the request is certain to fail) or `platform` (the
/// platform's documented rules predict it will).
// Ordered: `Contract < Platform`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, lpm_derive::SerializeUnit)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The contract makes the request certain to fail (or an item certain to be rejected).
    Contract,
    /// The platform's documented rules predict a failure; the server may or may not enforce it on
    /// this endpoint.
    Platform,
}

/// Options of a validation: language and strictness (`{ lang: "vi", platformRules: false }`);
/// missing keys take the defaults (English, platform rules on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", default)]
pub struct ValidateOptions {
    /// Language of the messages.
    #[cfg_attr(feature = "wasm", tsify(type = "Lang | undefined"))]
    pub lang: Lang,
    /// Also report platform-level findings (default `true`).
    #[cfg_attr(feature = "wasm", tsify(type = "boolean | undefined"))]
    pub platform_rules: bool,
}

impl Default for ValidateOptions {
    fn default() -> Self {
        ValidateOptions {
            lang: Lang::En,
            platform_rules: true,
        }
    }
}

/// One finding of a validation.
#[derive(Clone, Debug, PartialEq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct Issue {
    /// Path to the offending value (`[3, "email"]`: the e-mail of the fourth item); empty when the
    /// finding is about the whole input.
    pub path: Vec<PathSegment>,
    /// Stable machine string, e.g. `"required"`, `"too_short"`, `"duplicate_email"`.
    pub code: IssueCode,
    /// How sure the finding is.
    pub level: Level,
    /// Human-readable message in the chosen language; never echoes the submitted value.
    pub message: String,
}

/// Findings of a validation; empty when the input is good.
#[derive(Clone, Debug, Default, PartialEq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct Report {
    /// All findings, in input order.
    pub issues: Vec<Issue>,
}

impl Report {
    /// `true` when there is no issue at all.
    pub fn is_ok(&self) -> bool {
        self.issues.is_empty()
    }

    /// `true` when an issue is at least as sure as `level` (`issue.level <= level`):
    /// `blocks(Level::Contract)` only for contract findings, `blocks(Level::Platform)` for any.
    pub fn blocks(&self, level: Level) -> bool {
        self.issues.iter().any(|i| i.level <= level)
    }

    /// `true` when an issue is at contract level (the request is certain to fail).
    pub fn has_contract_issues(&self) -> bool {
        self.blocks(Level::Contract)
    }
}

/// Which list endpoint a page (`start`, `limit`) is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum PageKind {
    /// get-multi-user: `limit` 1..=100.
    Users,
    /// get-multi-course: `limit` 0..=100.
    Courses,
}

// ---------------------------------------------------------------------------------------------
// Limits (contract and platform notes).

/// Items per create-multi-user call, and accounts per add-courses call (contract).
pub const MAX_ITEMS: usize = 100;
/// Platform rule: name at least this many characters.
pub(super) const NAME_MIN: usize = 3;
/// Platform rule: username length range.
pub(super) const USERNAME_MIN: usize = 3;
pub(super) const USERNAME_MAX: usize = 20;
/// Platform rule: password length range.
pub(super) const PASSWORD_MIN: usize = 6;
pub(super) const PASSWORD_MAX: usize = 35;

/// Platform rule (a form's): a phone number has this many digits, separators aside.
pub(super) const PHONE_DIGITS_MIN: usize = 8;
pub(super) const PHONE_DIGITS_MAX: usize = 15;

/// The fields of an account-creation item: the required ones, then the optional strings.
pub(super) const FIELDS: [&str; 10] = crate::columns::FIELDS;
/// Required fields of an account-creation item.
pub const REQUIRED_FIELDS: [&str; 4] = [FIELDS[0], FIELDS[1], FIELDS[2], FIELDS[3]];
/// Optional string fields of an account-creation item.
pub(super) const OPTIONAL_FIELDS: [&str; 6] = [
    FIELDS[4], FIELDS[5], FIELDS[6], FIELDS[7], FIELDS[8], FIELDS[9],
];
