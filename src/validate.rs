//! Validation of requests before they are sent: pure functions, no network, no I/O, no panics.
//!
//! This is what browser forms call (through WebAssembly) before submitting. Every validator takes
//! the raw JSON the caller has (from a form or from JavaScript), so that wrong types and missing keys
//! are reported too, each with the path of the offending value, all of them at once.
//!
//! Each finding is an [`Issue`] with:
//! - `path`: object keys and array indexes down to the value (`[3, "email"]`); indexes are 0-based;
//! - `code`: a stable machine string (the table is in `template` below, the only place messages live);
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
//! | `unknown_field` | platform | a key of a creation item that the contract does not list (likely a typo) |
//! | `duplicate_id` | platform | the same id twice in one add-courses list |

use crate::json::{JsonView, Kind};
use serde::{Deserialize, Serialize};

/// One step of a path to the offending value: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(untagged)]
pub enum PathSegment {
    /// A key of a JSON object.
    Key(String),
    /// A 0-based index into a JSON array.
    Index(usize),
}

/// Which language messages are rendered in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English (`"en"`), the default.
    #[default]
    En,
    /// Vietnamese (`"vi"`), the language of the platform's users.
    Vi,
}

/// How sure a finding is. Ordered: `Contract < Platform`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The contract makes the request certain to fail (or an item certain to be rejected).
    Contract,
    /// The platform's documented rules predict a failure; the server may or may not enforce it on
    /// this endpoint.
    Platform,
}

/// Options of a validation: language and strictness.
///
/// Deserializes from `{"lang": "vi", "platformRules": false}`; missing keys take the defaults
/// (English, platform rules on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", default)]
pub struct ValidateOptions {
    /// Language of the messages.
    pub lang: Lang,
    /// Also report platform-level findings (default `true`).
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
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Issue {
    /// Path to the offending value, e.g. `[Index(3), Key("email")]`, serialized as `[3, "email"]`;
    /// empty when the finding is about the whole input.
    pub path: Vec<PathSegment>,
    /// Stable machine string, e.g. `"required"`, `"too_short"`, `"duplicate_email"`.
    pub code: &'static str,
    /// How sure the finding is.
    pub level: Level,
    /// Human-readable message in the chosen language; never echoes the submitted value.
    pub message: String,
}

/// Findings of a validation; empty when the input is good.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
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
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
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
const MAX_ITEMS: usize = 100;
/// Largest `limit` of both list endpoints (contract).
const MAX_LIMIT: i128 = 100;
/// Platform rule: name at least this many characters.
const NAME_MIN: usize = 3;
/// Platform rule: username length range.
const USERNAME_MIN: usize = 3;
const USERNAME_MAX: usize = 20;
/// Platform rule: password length range.
const PASSWORD_MIN: usize = 6;
const PASSWORD_MAX: usize = 35;

/// Required fields of an account-creation item.
const REQUIRED_FIELDS: [&str; 4] = ["name", "username", "email", "password"];
/// Optional string fields of an account-creation item.
const OPTIONAL_FIELDS: [&str; 6] = ["phone", "city", "district", "street", "gender", "job"];

// ---------------------------------------------------------------------------------------------
// Messages: the one table of codes and their English / Vietnamese texts.

/// What a message talks about; gives the `{field}` label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Name,
    Username,
    Email,
    Password,
    Phone,
    City,
    District,
    Street,
    Gender,
    Job,
    /// A creation item (a row), or a key of it that is not a field.
    Item,
    /// The `users` array of create-multi-user.
    AccountList,
    /// The `users` array of add-courses.
    AccountIds,
    AccountId,
    /// The `courses` array of add-courses.
    CourseIds,
    CourseId,
    /// A path id (get-single-user, get-single-course).
    Id,
    Start,
    Limit,
    Title,
}

impl Field {
    fn of_key(key: &str) -> Field {
        match key {
            "name" => Field::Name,
            "username" => Field::Username,
            "email" => Field::Email,
            "password" => Field::Password,
            "phone" => Field::Phone,
            "city" => Field::City,
            "district" => Field::District,
            "street" => Field::Street,
            "gender" => Field::Gender,
            "job" => Field::Job,
            _ => Field::Item,
        }
    }

    /// (English, Vietnamese) label, capitalised for the start of a sentence.
    fn label(self) -> (&'static str, &'static str) {
        match self {
            Field::Name => ("Name", "Tên"),
            Field::Username => ("Username", "Tên đăng nhập"),
            Field::Email => ("Email", "Email"),
            Field::Password => ("Password", "Mật khẩu"),
            Field::Phone => ("Phone", "Số điện thoại"),
            Field::City => ("City", "Tỉnh/Thành phố"),
            Field::District => ("District", "Quận/Huyện"),
            Field::Street => ("Street", "Đường phố"),
            Field::Gender => ("Gender", "Giới tính"),
            Field::Job => ("Job", "Nghề nghiệp"),
            Field::Item => ("Row", "Dòng"),
            Field::AccountList => ("Account list", "Danh sách tài khoản"),
            Field::AccountIds => ("Account ID list", "Danh sách mã tài khoản"),
            Field::AccountId => ("Account ID", "Mã tài khoản"),
            Field::CourseIds => ("Course ID list", "Danh sách mã khoá học"),
            Field::CourseId => ("Course ID", "Mã khoá học"),
            Field::Id => ("ID", "Mã"),
            Field::Start => ("Start", "Vị trí bắt đầu"),
            Field::Limit => ("Limit", "Số lượng"),
            Field::Title => ("Title", "Tiêu đề"),
        }
    }
}

/// The table of codes and their (English, Vietnamese) templates.
///
/// Placeholders: `{field}` the field's label, `{field_lc}` the same in lower case, `{n}` a bound
/// (characters, items, a number) or a 1-based row. No template includes the submitted value.
fn template(code: &str) -> Option<(&'static str, &'static str)> {
    Some(match code {
        "required" => ("{field} is required", "Bắt buộc nhập {field_lc}"),
        "not_string" => ("{field} must be text", "{field} phải là chuỗi ký tự"),
        "not_array" => (
            "{field} must be an array",
            "{field} phải là một mảng (danh sách)",
        ),
        "empty" => ("{field} must not be empty", "{field} không được để trống"),
        "too_many" => (
            "{field} can hold at most {n} items per request",
            "{field} chỉ được có tối đa {n} mục mỗi lần gửi",
        ),
        "params_not_object" => (
            "The parameters must be an object",
            "Tham số phải là một đối tượng",
        ),
        "not_object" => (
            "Each row must be an object with the account's fields",
            "Mỗi dòng phải là một đối tượng chứa các trường của tài khoản",
        ),
        "duplicate_email" => (
            "Email already used in row {n}",
            "Email đã xuất hiện ở dòng {n}",
        ),
        "duplicate_username" => (
            "Username already used in row {n}",
            "Tên đăng nhập đã xuất hiện ở dòng {n}",
        ),
        "not_integer" => ("{field} must be a whole number", "{field} phải là số nguyên"),
        "too_small" => ("{field} must be at least {n}", "{field} phải lớn hơn hoặc bằng {n}"),
        "too_large" => ("{field} must be at most {n}", "{field} phải nhỏ hơn hoặc bằng {n}"),
        "email_or_username_required" => (
            "Enter an email or a username",
            "Cần nhập email hoặc tên đăng nhập",
        ),
        "dot_segment" => (
            "{field} must not be \".\" or \"..\"",
            "{field} không được là \".\" hoặc \"..\"",
        ),
        "too_short" => (
            "{field} must be at least {n} characters",
            "{field} phải có ít nhất {n} ký tự",
        ),
        "too_long" => (
            "{field} must be at most {n} characters",
            "{field} chỉ được có tối đa {n} ký tự",
        ),
        "invalid_chars" => (
            "{field} may contain only letters a-z, A-Z and digits 0-9 (no spaces, accents or symbols)",
            "{field} chỉ được chứa chữ cái a-z, A-Z và chữ số 0-9 (không dấu, không khoảng trắng, không ký tự đặc biệt)",
        ),
        "invalid_email" => (
            "Email address does not look valid",
            "Địa chỉ email không hợp lệ",
        ),
        "unknown_field" => (
            "Unknown field (the account fields are name, username, email, password, phone, city, district, street, gender, job)",
            "Trường không xác định (các trường của tài khoản là name, username, email, password, phone, city, district, street, gender, job)",
        ),
        "duplicate_id" => ("{field} already listed in row {n}", "{field} đã có ở dòng {n}"),
        _ => return None,
    })
}

/// Renders the message of `code` for `field` with number `n` in `lang`.
fn render(code: &str, field: Field, n: usize, lang: Lang) -> String {
    let (en, vi) = template(code).unwrap_or(("Invalid value", "Giá trị không hợp lệ"));
    let (label_en, label_vi) = field.label();
    let (text, label) = match lang {
        Lang::En => (en, label_en),
        Lang::Vi => (vi, label_vi),
    };
    text.replace("{field_lc}", &crate::text::fold(label))
        .replace("{field}", label)
        .replace("{n}", &{
            let mut s = String::new();
            crate::json::push_uint(&mut s, n as u64);
            s
        })
}

// ---------------------------------------------------------------------------------------------
// Collecting findings.

/// Collects issues, leaving out platform-level ones when the options say so.
struct Sink {
    opts: ValidateOptions,
    issues: Vec<Issue>,
}

impl Sink {
    fn new(opts: ValidateOptions) -> Self {
        Sink {
            opts,
            issues: Vec::new(),
        }
    }

    fn push(
        &mut self,
        path: impl Into<Vec<PathSegment>>,
        code: &'static str,
        level: Level,
        field: Field,
        n: usize,
    ) {
        if level == Level::Platform && !self.opts.platform_rules {
            return;
        }
        let message = render(code, field, n, self.opts.lang);
        self.issues.push(Issue {
            path: path.into(),
            code,
            level,
            message,
        });
    }

    fn finish(self) -> Report {
        Report {
            issues: self.issues,
        }
    }
}

/// `prefix` followed by `seg`.
fn at(prefix: &[PathSegment], seg: PathSegment) -> Vec<PathSegment> {
    let mut path = Vec::with_capacity(prefix.len() + 1);
    path.extend_from_slice(prefix);
    path.push(seg);
    path
}

/// The path `prefix` + `key`, built only when an issue is pushed (a valid batch allocates no
/// paths).
#[derive(Clone, Copy)]
struct At<'p> {
    prefix: &'p [PathSegment],
    key: &'static str,
}

impl From<At<'_>> for Vec<PathSegment> {
    fn from(a: At<'_>) -> Vec<PathSegment> {
        at(a.prefix, key(a.key))
    }
}

fn key(k: &str) -> PathSegment {
    PathSegment::Key(k.to_owned())
}

/// A required string: returns it when it is a string that is non-empty after trimming;
/// otherwise reports `required` (absent, `null`, blank) or `not_string` (another type).
fn required_str<'a, J: JsonView>(
    value: Option<&'a J>,
    path: impl Into<Vec<PathSegment>>,
    field: Field,
    sink: &mut Sink,
) -> Option<&'a str> {
    match value.map(J::kind) {
        Some(Kind::Str(s)) if !s.trim().is_empty() => Some(s),
        None | Some(Kind::Null) | Some(Kind::Str(_)) => {
            sink.push(path, "required", Level::Contract, field, 0);
            None
        }
        Some(_) => {
            sink.push(path, "not_string", Level::Contract, field, 0);
            None
        }
    }
}

/// Platform rule "a plausible e-mail address", kept deliberately simple (it is only a hint):
/// no whitespace or control characters anywhere; exactly one `@`; a non-empty local part; a domain
/// made of at least two non-empty dot-separated labels (so it has a dot, does not start or end with
/// a dot and has no `..`). Non-ASCII letters are allowed (internationalised addresses).
fn plausible_email(s: &str) -> bool {
    if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let mut parts = s.split('@');
    let (Some(local), Some(domain), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    !local.is_empty() && domain.contains('.') && domain.split('.').all(|label| !label.is_empty())
}

use std::borrow::Cow;

use crate::text::fold;

/// The first index at which each key occurs, for "already in row N" findings: sorted once
/// (O(n log n) for batches of any size), no map type (a BTreeMap cost the wasm ~10 KB).
struct FirstSeen<K> {
    /// (key, its first index), sorted by key.
    firsts: Vec<(K, usize)>,
}

impl<K: Ord> FirstSeen<K> {
    fn new(keys: impl Iterator<Item = Option<K>>) -> Self {
        let mut firsts: Vec<(K, usize)> = keys
            .enumerate()
            .filter_map(|(i, k)| Some((k?, i)))
            .collect();
        // (key, index) pairs are distinct, so an unstable sort orders them the same; it is also
        // the smaller code.
        firsts.sort_unstable();
        firsts.dedup_by(|later, earlier| later.0 == earlier.0);
        FirstSeen { firsts }
    }

    /// The first index of `key` when it is before `i`.
    fn before(&self, key: &K, i: usize) -> Option<usize> {
        let at = self.firsts.binary_search_by(|(k, _)| k.cmp(key)).ok()?;
        let first = self.firsts[at].1;
        (first < i).then_some(first)
    }
}

// ---------------------------------------------------------------------------------------------
// Account creation.

/// What the batch-level duplicate checks need from a valid-looking item.
#[derive(Default)]
struct ItemKeys<'a> {
    email: Option<&'a str>,
    username: Option<&'a str>,
}

/// Checks one account-creation item at `prefix`.
fn check_item<'a, J: JsonView>(
    item: &'a J,
    prefix: &[PathSegment],
    sink: &mut Sink,
) -> ItemKeys<'a> {
    if !item.is_object() {
        sink.push(
            prefix.to_vec(),
            "not_object",
            Level::Contract,
            Field::Item,
            0,
        );
        return ItemKeys::default();
    }

    // name: required; platform: at least 3 characters (Unicode scalar values, after trimming).
    let path = At {
        prefix,
        key: "name",
    };
    if let Some(name) = required_str(item.get("name"), path, Field::Name, sink) {
        if name.trim().chars().count() < NAME_MIN {
            sink.push(path, "too_short", Level::Platform, Field::Name, NAME_MIN);
        }
    }

    // username: required; platform: 3-20 characters of a-z A-Z 0-9 (checked as given, untrimmed).
    let path = At {
        prefix,
        key: "username",
    };
    let username = required_str(item.get("username"), path, Field::Username, sink);
    if let Some(u) = username {
        let len = u.chars().count();
        if len < USERNAME_MIN {
            sink.push(
                path,
                "too_short",
                Level::Platform,
                Field::Username,
                USERNAME_MIN,
            );
        } else if len > USERNAME_MAX {
            sink.push(
                path,
                "too_long",
                Level::Platform,
                Field::Username,
                USERNAME_MAX,
            );
        }
        if !u.chars().all(|c| c.is_ascii_alphanumeric()) {
            sink.push(path, "invalid_chars", Level::Platform, Field::Username, 0);
        }
    }

    // email: required; platform: plausible.
    let path = At {
        prefix,
        key: "email",
    };
    let email = required_str(item.get("email"), path, Field::Email, sink);
    if let Some(e) = email {
        if !plausible_email(e) {
            sink.push(path, "invalid_email", Level::Platform, Field::Email, 0);
        }
    }

    // password: required; platform: 6-35 characters (as given: spaces in a password count).
    let path = At {
        prefix,
        key: "password",
    };
    if let Some(p) = required_str(item.get("password"), path, Field::Password, sink) {
        let len = p.chars().count();
        if len < PASSWORD_MIN {
            sink.push(
                path,
                "too_short",
                Level::Platform,
                Field::Password,
                PASSWORD_MIN,
            );
        } else if len > PASSWORD_MAX {
            sink.push(
                path,
                "too_long",
                Level::Platform,
                Field::Password,
                PASSWORD_MAX,
            );
        }
    }

    // Optional strings: absent or null (= not sent) or any string. Gender `Nam`/`Nữ` is only
    // what the platform's UI offers, so other values are not flagged.
    for k in OPTIONAL_FIELDS {
        match item.get(k).map(J::kind) {
            None | Some(Kind::Null) | Some(Kind::Str(_)) => {}
            Some(_) => sink.push(
                at(prefix, key(k)),
                "not_string",
                Level::Contract,
                Field::of_key(k),
                0,
            ),
        }
    }

    // Keys the contract does not list: likely typos (`usename`, `Email`).
    for k in item.keys() {
        if !REQUIRED_FIELDS.contains(&k) && !OPTIONAL_FIELDS.contains(&k) {
            sink.push(
                at(prefix, key(k)),
                "unknown_field",
                Level::Platform,
                Field::Item,
                0,
            );
        }
    }

    ItemKeys { email, username }
}

/// Validates the `users` array of create-multi-user. Paths start with the item's index
/// (`[3, "email"]`); findings about the array itself have the path `[]`.
///
/// Contract: an array (`not_array`), non-empty (`empty`), at most 100 items (`too_many`; the items
/// are still all checked); each item an object (`not_object`) with `name`, `username`, `email`,
/// `password` as non-empty strings (`required`, `not_string`) and `phone`, `city`, `district`,
/// `street`, `gender`, `job` as strings when present (`not_string`); no two items with the same
/// e-mail (trimmed, case-insensitive: `duplicate_email`) or the same username (trimmed:
/// `duplicate_username`), reported on the later item with the earlier row in the message.
///
/// Platform: see [`validate_create_user`]; plus `duplicate_username` when two usernames differ
/// only in letter case (the platform's account system compares them case-insensitively).
pub fn validate_create_users<J: JsonView>(users: &J, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    let Kind::Arr(items) = users.kind() else {
        sink.push(
            Vec::new(),
            "not_array",
            Level::Contract,
            Field::AccountList,
            0,
        );
        return sink.finish();
    };
    if items.is_empty() {
        sink.push(Vec::new(), "empty", Level::Contract, Field::AccountList, 0);
    } else if items.len() > MAX_ITEMS {
        sink.push(
            Vec::new(),
            "too_many",
            Level::Contract,
            Field::AccountList,
            MAX_ITEMS,
        );
    }

    // The first row of each e-mail and username (trimmed; e-mails and folded usernames
    // lower-cased), so that each later row can name it.
    fn given<'a, J: JsonView>(item: &'a J, key: &str) -> Option<&'a str> {
        item.get(key)
            .and_then(J::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }
    let emails = FirstSeen::new(items.iter().map(|it| given(it, "email").map(fold)));
    let usernames = FirstSeen::new(items.iter().map(|it| given(it, "username").map(Cow::from)));
    let usernames_ci = FirstSeen::new(items.iter().map(|it| given(it, "username").map(fold)));
    for (i, item) in items.iter().enumerate() {
        let prefix = [PathSegment::Index(i)];
        let keys = check_item(item, &prefix, &mut sink);

        if let Some(email) = keys.email {
            if let Some(first) = emails.before(&fold(email.trim()), i) {
                sink.push(
                    at(&prefix, key("email")),
                    "duplicate_email",
                    Level::Contract,
                    Field::Email,
                    first + 1,
                );
            }
        }

        if let Some(username) = keys.username {
            let trimmed = username.trim();
            if let Some(first) = usernames.before(&Cow::from(trimmed), i) {
                sink.push(
                    at(&prefix, key("username")),
                    "duplicate_username",
                    Level::Contract,
                    Field::Username,
                    first + 1,
                );
            } else if let Some(first) = usernames_ci.before(&fold(trimmed), i) {
                sink.push(
                    at(&prefix, key("username")),
                    "duplicate_username",
                    Level::Platform,
                    Field::Username,
                    first + 1,
                );
            }
        }
    }
    sink.finish()
}

/// Validates one account-creation item (also the body of create-single-user). Paths start with the
/// key (`["email"]`); a non-object gives `not_object` at `[]`.
///
/// Contract: as for each item of [`validate_create_users`].
/// Platform (from the platform's documentation): name at least 3 characters after trimming
/// (`too_short`; Unicode characters, `Nguyễn` is 6); username 3–20 characters (`too_short`,
/// `too_long`) of a-z A-Z 0-9 only (`invalid_chars`); password 6–35 characters (`too_short`,
/// `too_long`); a plausible e-mail (`invalid_email`); keys other than the contract's fields
/// (`unknown_field`). `gender` is not restricted (the UI's `Nam`/`Nữ` is only a hint).
pub fn validate_create_user(item: &impl JsonView, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    check_item(item, &[], &mut sink);
    sink.finish()
}

// ---------------------------------------------------------------------------------------------
// Paging, search, ids, add-courses, login.

/// Checks an optional integer parameter: `null` (absent) passes.
fn check_int(
    v: &impl JsonView,
    name: &str,
    field: Field,
    min: i128,
    max: Option<i128>,
    sink: &mut Sink,
) {
    if v.is_null() {
        return;
    }
    let path = vec![key(name)];
    match v.as_integer() {
        None => sink.push(path, "not_integer", Level::Contract, field, 0),
        Some(n) if n < min => sink.push(path, "too_small", Level::Contract, field, bound(min)),
        Some(n) => {
            if let Some(max) = max.filter(|&m| n > m) {
                sink.push(path, "too_large", Level::Contract, field, bound(max));
            }
        }
    }
}

/// A (small, non-negative) bound as a message number.
fn bound(n: i128) -> usize {
    usize::try_from(n).unwrap_or(0)
}

/// A parameters object (`{start, limit}`, `{email, username}`, `{users, courses}`, ...): an
/// object, or `null`/absent where every parameter may be absent. Anything else is refused here,
/// before its keys are read (reading `"x"["start"]` would find nothing and pass).
pub fn validate_params(params: &impl JsonView, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    if !(params.is_object() || params.is_null()) {
        sink.push(
            Vec::new(),
            "params_not_object",
            Level::Contract,
            Field::Item,
            0,
        );
    }
    sink.finish()
}

/// Validates the page of get-multi-user ([`PageKind::Users`]) or get-multi-course
/// ([`PageKind::Courses`]). Paths `["start"]` / `["limit"]`.
///
/// Pass `Value::Null` for an absent parameter: absence is allowed (the caller then sends its
/// defaults, start 0 and limit 100). Present values must be integers (`not_integer`: `1.5`, `"3"`,
/// `true`; `1.0` is accepted), `start >= 0`, `limit` within 1..=100 for users and 0..=100 for
/// courses (`too_small`, `too_large`). All contract level.
pub fn validate_page(
    endpoint: PageKind,
    start: &impl JsonView,
    limit: &impl JsonView,
    opts: ValidateOptions,
) -> Report {
    let mut sink = Sink::new(opts);
    let min_limit = match endpoint {
        PageKind::Users => 1,
        PageKind::Courses => 0,
    };
    check_int(start, "start", Field::Start, 0, None, &mut sink);
    check_int(
        limit,
        "limit",
        Field::Limit,
        min_limit,
        Some(MAX_LIMIT),
        &mut sink,
    );
    sink.finish()
}

/// Validates the parameters of search-user. Pass `Value::Null` for an absent parameter.
///
/// Contract: each given parameter must be a string (`not_string` at `["email"]` / `["username"]`);
/// at least one must be a non-empty (after trimming) string (`email_or_username_required` at `[]`).
/// Platform: a non-empty e-mail must be plausible (`invalid_email`).
pub fn validate_search_user<J: JsonView>(email: &J, username: &J, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    let mut has_one = false;
    for (name, value, field) in [
        ("email", email, Field::Email),
        ("username", username, Field::Username),
    ] {
        match value.kind() {
            Kind::Null => {}
            Kind::Str(s) => {
                if !s.trim().is_empty() {
                    has_one = true;
                    if field == Field::Email && !plausible_email(s) {
                        sink.push(vec![key(name)], "invalid_email", Level::Platform, field, 0);
                    }
                }
            }
            _ => sink.push(vec![key(name)], "not_string", Level::Contract, field, 0),
        }
    }
    if !has_one {
        sink.push(
            Vec::new(),
            "email_or_username_required",
            Level::Contract,
            Field::Email,
            0,
        );
    }
    sink.finish()
}

/// Validates the `title` keywords of search-course (path `["title"]`): a string (`not_string`)
/// that is non-empty after trimming (`required`). Contract level.
pub fn validate_search_courses(title: &impl JsonView, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    required_str(Some(title), vec![key("title")], Field::Title, &mut sink);
    sink.finish()
}

/// Checks one id at `path`; returns it when it is usable.
fn check_id<'a, J: JsonView>(
    v: &'a J,
    path: Vec<PathSegment>,
    field: Field,
    sink: &mut Sink,
) -> Option<&'a str> {
    let id = required_str(Some(v), path.clone(), field, sink)?;
    // Trimmed too, so that a planner or server that trims cannot turn " .. " into "..".
    if matches!(id.trim(), "." | "..") {
        sink.push(path, "dot_segment", Level::Contract, field, 0);
        return None;
    }
    Some(id)
}

/// Validates an account or course id used as a path segment (get-single-user, get-single-course).
/// Path `[]`.
///
/// Contract: a string (`not_string`), non-empty after trimming (`required`), and not `.` or `..`
/// (`dot_segment`): URL parsers resolve such a segment, so the request would reach another path.
/// Every other character is percent-encoded by the planner, so `/`, `?`, `#` inside an id are fine.
/// Ids are opaque: no check of length or alphabet.
pub fn validate_id(id: &impl JsonView, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    check_id(id, Vec::new(), Field::Id, &mut sink);
    sink.finish()
}

/// Checks an id list of add-courses under `name`.
fn check_id_list(
    list: &impl JsonView,
    name: &str,
    list_field: Field,
    item_field: Field,
    max: Option<usize>,
    sink: &mut Sink,
) {
    let Kind::Arr(ids) = list.kind() else {
        sink.push(vec![key(name)], "not_array", Level::Contract, list_field, 0);
        return;
    };
    if ids.is_empty() {
        sink.push(vec![key(name)], "empty", Level::Contract, list_field, 0);
    }
    if let Some(max) = max.filter(|&m| ids.len() > m) {
        sink.push(
            vec![key(name)],
            "too_many",
            Level::Contract,
            list_field,
            max,
        );
    }
    let seen = FirstSeen::new(ids.iter().map(|v| v.as_str().map(Cow::from)));
    for (i, v) in ids.iter().enumerate() {
        let path = vec![key(name), PathSegment::Index(i)];
        if let Some(id) = check_id(v, path.clone(), item_field, sink) {
            if let Some(first) = seen.before(&Cow::from(id), i) {
                sink.push(path, "duplicate_id", Level::Platform, item_field, first + 1);
            }
        }
    }
}

/// Validates the body of add-multi-course-to-multi-user.
///
/// Contract: `users` an array (`not_array` at `["users"]`) of 1..=100 (`empty`, `too_many`) account
/// ids; `courses` an array of at least one course id (`not_array`, `empty` at `["courses"]`; the
/// contract sets no maximum); each id as in [`validate_id`] at `["users", i]` / `["courses", i]`.
/// Platform: the same id twice in one list (`duplicate_id`, on the later one).
pub fn validate_add_courses<J: JsonView>(users: &J, courses: &J, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    check_id_list(
        users,
        "users",
        Field::AccountIds,
        Field::AccountId,
        Some(MAX_ITEMS),
        &mut sink,
    );
    check_id_list(
        courses,
        "courses",
        Field::CourseIds,
        Field::CourseId,
        None,
        &mut sink,
    );
    sink.finish()
}

/// Validates the body of login-user (platform notes): `email` and `password` non-empty strings
/// (`required`, `not_string` at `["email"]` / `["password"]`, contract level). Platform: a plausible
/// e-mail (`invalid_email`). The password's length is not checked (accounts may predate the rule).
pub fn validate_login<J: JsonView>(email: &J, password: &J, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    if let Some(e) = required_str(Some(email), vec![key("email")], Field::Email, &mut sink) {
        if !plausible_email(e) {
            sink.push(
                vec![key("email")],
                "invalid_email",
                Level::Platform,
                Field::Email,
                0,
            );
        }
    }
    required_str(
        Some(password),
        vec![key("password")],
        Field::Password,
        &mut sink,
    );
    sink.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// Every code this module emits (kept in step with `template`).
    const CODES: [&str; 20] = [
        "params_not_object",
        "required",
        "not_string",
        "not_array",
        "empty",
        "too_many",
        "not_object",
        "duplicate_email",
        "duplicate_username",
        "not_integer",
        "too_small",
        "too_large",
        "email_or_username_required",
        "dot_segment",
        "too_short",
        "too_long",
        "invalid_chars",
        "invalid_email",
        "unknown_field",
        "duplicate_id",
    ];

    fn en() -> ValidateOptions {
        ValidateOptions::default()
    }

    fn vi() -> ValidateOptions {
        ValidateOptions {
            lang: Lang::Vi,
            platform_rules: true,
        }
    }

    fn lax() -> ValidateOptions {
        ValidateOptions {
            lang: Lang::En,
            platform_rules: false,
        }
    }

    /// (path as JSON, code, level) of every issue, for compact assertions.
    fn summary(r: &Report) -> Vec<(Value, &'static str, Level)> {
        r.issues
            .iter()
            .map(|i| (serde_json::to_value(&i.path).unwrap(), i.code, i.level))
            .collect()
    }

    fn codes_at(r: &Report, path: Value) -> Vec<&'static str> {
        r.issues
            .iter()
            .filter(|i| serde_json::to_value(&i.path).unwrap() == path)
            .map(|i| i.code)
            .collect()
    }

    fn user(n: usize) -> Value {
        json!({
            "name": format!("Người dùng {n}"),
            "username": format!("user{n}"),
            "email": format!("user{n}@example.com"),
            "password": "secret123",
        })
    }

    fn users(n: usize) -> Value {
        Value::Array((0..n).map(user).collect())
    }

    // ---- report, options, serialization -------------------------------------------------------

    #[test]
    fn options_default_and_deserialize() {
        let d = ValidateOptions::default();
        assert_eq!(d.lang, Lang::En);
        assert!(d.platform_rules);
        let o: ValidateOptions = serde_json::from_value(json!({})).unwrap();
        assert_eq!(o, d);
        let o: ValidateOptions =
            serde_json::from_value(json!({"lang": "vi", "platformRules": false})).unwrap();
        assert_eq!(
            o,
            ValidateOptions {
                lang: Lang::Vi,
                platform_rules: false
            }
        );
        let o: ValidateOptions = serde_json::from_value(json!({"lang": "vi"})).unwrap();
        assert!(o.platform_rules);
        assert_eq!(serde_json::to_value(Lang::Vi).unwrap(), json!("vi"));
    }

    #[test]
    fn issue_serializes_with_path_as_json() {
        let mut items = users(4);
        items[3]["email"] = json!(null);
        let r = validate_create_users(&items, en());
        assert_eq!(r.issues.len(), 1);
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(
            v,
            json!({"issues": [{
                "path": [3, "email"],
                "code": "required",
                "level": "contract",
                "message": "Email is required"
            }]})
        );
    }

    #[test]
    fn report_levels() {
        let ok = Report::default();
        assert!(ok.is_ok());
        assert!(!ok.blocks(Level::Platform));
        assert!(!ok.has_contract_issues());

        let platform_only = validate_create_user(
            &json!({"name": "Al", "username": "al1", "email": "al@x.vn", "password": "secret1"}),
            en(),
        );
        assert_eq!(
            summary(&platform_only),
            vec![(json!(["name"]), "too_short", Level::Platform)]
        );
        assert!(!platform_only.is_ok());
        assert!(!platform_only.blocks(Level::Contract));
        assert!(platform_only.blocks(Level::Platform));
        assert!(!platform_only.has_contract_issues());

        let contract = validate_create_user(&json!({}), en());
        assert!(contract.blocks(Level::Contract));
        assert!(contract.blocks(Level::Platform));
        assert!(contract.has_contract_issues());
        assert!(Level::Contract < Level::Platform);
    }

    // ---- create: array level ---------------------------------------------------------------

    #[test]
    fn create_valid_batch_passes() {
        assert!(validate_create_users(&users(3), en()).is_ok());
        let full = json!([{
            "name": "Nguyễn Văn An", "username": "nguyenvanan", "email": "an@example.vn",
            "password": "mat khau 123", "phone": "0901234567", "city": "Hà Nội",
            "district": "Ba Đình", "street": "Phố Huế", "gender": "Nữ", "job": "Giáo viên"
        }]);
        assert!(validate_create_users(&full, en()).is_ok());
    }

    #[test]
    fn create_users_must_be_array() {
        for bad in [
            json!(null),
            json!({}),
            json!("users"),
            json!(3),
            json!(true),
            json!(user(0)),
        ] {
            let r = validate_create_users(&bad, en());
            assert_eq!(
                summary(&r),
                vec![(json!([]), "not_array", Level::Contract)],
                "{bad}"
            );
        }
    }

    #[test]
    fn create_users_empty() {
        let r = validate_create_users(&json!([]), en());
        assert_eq!(summary(&r), vec![(json!([]), "empty", Level::Contract)]);
    }

    #[test]
    fn create_users_100_ok_101_too_many() {
        assert!(validate_create_users(&users(100), en()).is_ok());
        let r = validate_create_users(&users(101), en());
        assert_eq!(summary(&r), vec![(json!([]), "too_many", Level::Contract)]);
        assert_eq!(
            r.issues[0].message,
            "Account list can hold at most 100 items per request"
        );
        // Items beyond the limit are still checked.
        let mut many = users(101);
        many[100]["name"] = json!("");
        let r = validate_create_users(&many, en());
        assert_eq!(codes_at(&r, json!([100, "name"])), vec!["required"]);
    }

    #[test]
    fn create_item_not_object() {
        let items = json!([user(0), [1, 2], "x", null, 5]);
        let r = validate_create_users(&items, en());
        assert_eq!(
            summary(&r),
            vec![
                (json!([1]), "not_object", Level::Contract),
                (json!([2]), "not_object", Level::Contract),
                (json!([3]), "not_object", Level::Contract),
                (json!([4]), "not_object", Level::Contract),
            ]
        );
        let r = validate_create_user(&json!([]), en());
        assert_eq!(
            summary(&r),
            vec![(json!([]), "not_object", Level::Contract)]
        );
    }

    // ---- create: item fields ----------------------------------------------------------------

    #[test]
    fn create_required_fields_all_reported_at_once() {
        let r = validate_create_users(&json!([user(0), {}]), en());
        assert_eq!(
            summary(&r),
            vec![
                (json!([1, "name"]), "required", Level::Contract),
                (json!([1, "username"]), "required", Level::Contract),
                (json!([1, "email"]), "required", Level::Contract),
                (json!([1, "password"]), "required", Level::Contract),
            ]
        );
    }

    #[test]
    fn create_required_null_empty_blank_and_wrong_type() {
        for field in REQUIRED_FIELDS {
            for (value, code) in [
                (json!(null), "required"),
                (json!(""), "required"),
                (json!("  \t\n "), "required"),
                (json!(12), "not_string"),
                (json!(true), "not_string"),
                (json!(["a"]), "not_string"),
                (json!({"a": "b"}), "not_string"),
            ] {
                let mut item = user(0);
                item[field] = value.clone();
                let r = validate_create_user(&item, en());
                assert_eq!(
                    summary(&r),
                    vec![(json!([field]), code, Level::Contract)],
                    "{field} = {value}"
                );
            }
        }
    }

    #[test]
    fn create_optional_fields() {
        for field in OPTIONAL_FIELDS {
            for ok in [json!(null), json!(""), json!("Nam"), json!("anything")] {
                let mut item = user(0);
                item[field] = ok;
                assert!(validate_create_user(&item, en()).is_ok(), "{field}");
            }
            for bad in [json!(1), json!(false), json!([]), json!({})] {
                let mut item = user(0);
                item[field] = bad;
                let r = validate_create_user(&item, en());
                assert_eq!(
                    summary(&r),
                    vec![(json!([field]), "not_string", Level::Contract)]
                );
            }
        }
    }

    #[test]
    fn create_gender_is_not_restricted() {
        for g in ["Nam", "Nữ", "Khác", "male", "F"] {
            let mut item = user(0);
            item["gender"] = json!(g);
            assert!(validate_create_user(&item, en()).is_ok(), "{g}");
        }
    }

    #[test]
    fn create_unknown_field_is_platform() {
        let mut item = user(0);
        item["usename"] = json!("typo");
        item["Email"] = json!("x@y.z");
        let r = validate_create_users(&json!([item]), en());
        assert_eq!(
            summary(&r),
            vec![
                (json!([0, "Email"]), "unknown_field", Level::Platform),
                (json!([0, "usename"]), "unknown_field", Level::Platform),
            ]
        );
        assert!(validate_create_users(&json!([item]), lax()).is_ok());
    }

    #[test]
    fn create_name_length_counts_unicode_chars() {
        for ok in ["Nguyễn", "Bảo", "Ann", "  Ann  ", "Lê Lý"] {
            let mut item = user(0);
            item["name"] = json!(ok);
            assert!(validate_create_user(&item, en()).is_ok(), "{ok}");
        }
        assert_eq!("Nguyễn".chars().count(), 6);
        // "Lý" is 3 bytes but 2 characters; "  ab  " is 2 after trimming.
        for short in ["Lý", "ab", "  ab  ", "A"] {
            let mut item = user(0);
            item["name"] = json!(short);
            let r = validate_create_user(&item, en());
            assert_eq!(
                summary(&r),
                vec![(json!(["name"]), "too_short", Level::Platform)],
                "{short}"
            );
            assert_eq!(r.issues[0].message, "Name must be at least 3 characters");
            let r = validate_create_user(&item, vi());
            assert_eq!(r.issues[0].message, "Tên phải có ít nhất 3 ký tự");
        }
    }

    #[test]
    fn create_username_rules() {
        for ok in ["abc", "ABC123", "a1b2c3d4e5f6g7h8i9j0", "user2024"] {
            let mut item = user(0);
            item["username"] = json!(ok);
            assert!(validate_create_user(&item, en()).is_ok(), "{ok}");
        }
        let cases: [(&str, &[&str]); 8] = [
            ("ab", &["too_short"]),
            ("a1b2c3d4e5f6g7h8i9j0k", &["too_long"]),
            ("a_b", &["invalid_chars"]),
            ("tên123", &["invalid_chars"]),
            ("john doe", &["invalid_chars"]),
            (" abc", &["invalid_chars"]),
            ("a!", &["too_short", "invalid_chars"]),
            ("ab@cd.com", &["invalid_chars"]),
        ];
        for (u, codes) in cases {
            let mut item = user(0);
            item["username"] = json!(u);
            let r = validate_create_user(&item, en());
            assert_eq!(codes_at(&r, json!(["username"])), codes.to_vec(), "{u}");
            assert!(r.issues.iter().all(|i| i.level == Level::Platform));
            assert!(validate_create_user(&item, lax()).is_ok());
        }
    }

    #[test]
    fn create_password_rules() {
        for ok in ["123456", "a".repeat(35).as_str(), "mật khẩu", "      x"] {
            let mut item = user(0);
            item["password"] = json!(ok);
            assert!(validate_create_user(&item, en()).is_ok(), "{ok}");
        }
        for (p, code) in [
            ("12345", "too_short"),
            ("ả".repeat(36).as_str(), "too_long"),
        ] {
            let mut item = user(0);
            item["password"] = json!(p);
            let r = validate_create_user(&item, en());
            assert_eq!(
                summary(&r),
                vec![(json!(["password"]), code, Level::Platform)]
            );
        }
    }

    #[test]
    fn password_never_appears_in_messages() {
        let secrets = [
            "Zq9#x",
            "Zq9#xSecretSecretSecretSecretSecretSecret",
            "Zq9#xSecret",
        ];
        let mut items = Vec::new();
        for (i, s) in secrets.iter().enumerate() {
            // Every other field broken too, so many messages are produced.
            items.push(json!({
                "name": "x", "username": format!("Zq9#x{i}"), "email": s,
                "password": s, "phone": 5, "Zq9#x": s
            }));
        }
        items.push(
            json!({"name": "y", "username": "Zq9#x0", "email": secrets[0], "password": secrets[0]}),
        );
        let items = Value::Array(items);
        for opts in [en(), vi(), lax()] {
            let r = validate_create_users(&items, opts);
            assert!(r.issues.len() >= 5);
            for issue in &r.issues {
                assert!(!issue.message.contains("Zq9#"), "{}", issue.message);
            }
            let r = validate_login(&json!("a@b.c"), &json!(secrets[1]), opts);
            assert!(r.is_ok());
            let r = validate_login(&json!(secrets[1]), &json!(""), opts);
            assert!(r.issues.iter().all(|i| !i.message.contains("Zq9#")));
        }
    }

    #[test]
    fn email_plausibility() {
        for ok in [
            "a@b.co",
            "first.last+tag@sub.example.com",
            "người@ví-dụ.việt.nam",
            "A@EXAMPLE.VN",
        ] {
            assert!(plausible_email(ok), "{ok}");
            let mut item = user(0);
            item["email"] = json!(ok);
            assert!(validate_create_user(&item, en()).is_ok(), "{ok}");
        }
        for bad in [
            "plainaddress",
            "@example.com",
            "a@",
            "a@b",
            "a@@b.com",
            "a@b@c.com",
            "a b@c.com",
            "a@b.com ",
            " a@b.com",
            "a@.b.com",
            "a@b.com.",
            "a@b..com",
            "a@b.\u{7}com",
        ] {
            assert!(!plausible_email(bad), "{bad}");
            let mut item = user(0);
            item["email"] = json!(bad);
            let r = validate_create_user(&item, en());
            assert_eq!(
                summary(&r),
                vec![(json!(["email"]), "invalid_email", Level::Platform)],
                "{bad}"
            );
            assert!(validate_create_user(&item, lax()).is_ok());
        }
    }

    // ---- create: duplicates -----------------------------------------------------------------

    #[test]
    fn duplicate_email_case_insensitive_on_later_item() {
        let mut items = users(4);
        items[0]["email"] = json!("An@Example.com");
        items[3]["email"] = json!("an@EXAMPLE.COM");
        let r = validate_create_users(&items, en());
        assert_eq!(
            summary(&r),
            vec![(json!([3, "email"]), "duplicate_email", Level::Contract)]
        );
        assert_eq!(r.issues[0].message, "Email already used in row 1");

        let mut items = users(3);
        items[1]["email"] = json!("dup@x.vn");
        items[2]["email"] = json!("  DUP@x.vn ");
        let r = validate_create_users(&items, vi());
        assert_eq!(
            codes_at(&r, json!([2, "email"])),
            vec!["invalid_email", "duplicate_email"]
        );
        let dup = r
            .issues
            .iter()
            .find(|i| i.code == "duplicate_email")
            .unwrap();
        assert_eq!(dup.message, "Email đã xuất hiện ở dòng 2");
        // Contract level: reported even without platform rules.
        let r = validate_create_users(&items, lax());
        assert_eq!(
            summary(&r),
            vec![(json!([2, "email"]), "duplicate_email", Level::Contract)]
        );
    }

    #[test]
    fn duplicate_reported_against_first_occurrence() {
        let mut items = users(3);
        for i in 0..3 {
            items[i]["email"] = json!("same@x.vn");
        }
        let r = validate_create_users(&items, en());
        assert_eq!(
            summary(&r),
            vec![
                (json!([1, "email"]), "duplicate_email", Level::Contract),
                (json!([2, "email"]), "duplicate_email", Level::Contract),
            ]
        );
        assert!(r.issues.iter().all(|i| i.message.ends_with("row 1")));
    }

    #[test]
    fn duplicate_username() {
        let mut items = users(3);
        items[2]["username"] = json!("user0");
        let r = validate_create_users(&items, en());
        assert_eq!(
            summary(&r),
            vec![(
                json!([2, "username"]),
                "duplicate_username",
                Level::Contract
            )]
        );
        assert_eq!(r.issues[0].message, "Username already used in row 1");
        let r = validate_create_users(&items, vi());
        assert_eq!(r.issues[0].message, "Tên đăng nhập đã xuất hiện ở dòng 1");

        // Differing only in case: a platform-level prediction.
        let mut items = users(3);
        items[1]["username"] = json!("USER0");
        let r = validate_create_users(&items, en());
        assert_eq!(
            summary(&r),
            vec![(
                json!([1, "username"]),
                "duplicate_username",
                Level::Platform
            )]
        );
        assert!(validate_create_users(&items, lax()).is_ok());
    }

    #[test]
    fn no_duplicates_across_distinct_values_or_invalid_items() {
        let items = json!([
            {"name": "Ann", "username": "ann", "email": "a@x.vn", "password": "secret1"},
            {"name": "Ann", "username": "anna", "email": "ann@x.vn", "password": "secret1"},
            {"name": "Ann", "username": 5, "email": null, "password": "secret1"},
            {"name": "Ann", "username": 5, "email": null, "password": "secret1"}
        ]);
        let r = validate_create_users(&items, en());
        assert!(r.issues.iter().all(|i| !i.code.starts_with("duplicate")));
    }

    // ---- languages and the message table ----------------------------------------------------

    #[test]
    fn every_code_has_both_languages() {
        for code in CODES {
            let (en, vi) = template(code).unwrap_or_else(|| panic!("no template for {code}"));
            assert!(!en.is_empty() && !vi.is_empty());
            assert_ne!(en, vi, "{code}");
            for lang in [Lang::En, Lang::Vi] {
                let m = render(code, Field::Name, 7, lang);
                assert!(!m.contains('{'), "{m}");
            }
        }
        assert!(template("no_such_code").is_none());
    }

    #[test]
    fn every_emitted_code_is_in_the_table() {
        let inputs = odd_values();
        for v in &inputs {
            for r in run_all(v, en()) {
                for i in r.issues {
                    assert!(CODES.contains(&i.code), "{}", i.code);
                }
            }
        }
    }

    #[test]
    fn vietnamese_messages() {
        let r = validate_create_user(&json!({"name": null, "username": "ab", "email": 1}), vi());
        let msgs: Vec<&str> = r.issues.iter().map(|i| i.message.as_str()).collect();
        assert_eq!(
            msgs,
            vec![
                "Bắt buộc nhập tên",
                "Tên đăng nhập phải có ít nhất 3 ký tự",
                "Email phải là chuỗi ký tự",
                "Bắt buộc nhập mật khẩu",
            ]
        );
        let r = validate_page(PageKind::Users, &json!(-1), &json!(101), vi());
        assert_eq!(
            r.issues[0].message,
            "Vị trí bắt đầu phải lớn hơn hoặc bằng 0"
        );
        assert_eq!(r.issues[1].message, "Số lượng phải nhỏ hơn hoặc bằng 100");
        let r = validate_search_user(&json!(null), &json!(null), vi());
        assert_eq!(r.issues[0].message, "Cần nhập email hoặc tên đăng nhập");
    }

    #[test]
    fn english_messages() {
        let r = validate_create_user(&json!({"name": null, "username": "ab", "email": 1}), en());
        let msgs: Vec<&str> = r.issues.iter().map(|i| i.message.as_str()).collect();
        assert_eq!(
            msgs,
            vec![
                "Name is required",
                "Username must be at least 3 characters",
                "Email must be text",
                "Password is required",
            ]
        );
    }

    #[test]
    fn platform_rules_off_keeps_only_contract() {
        let items = json!([
            {"name": "A", "username": "a b", "email": "nope", "password": "1", "extra": 1},
            {"name": "Bob", "username": "bob", "email": "b@x.vn"}
        ]);
        let strict = validate_create_users(&items, en());
        assert!(strict.issues.iter().any(|i| i.level == Level::Platform));
        let r = validate_create_users(&items, lax());
        assert_eq!(
            summary(&r),
            vec![(json!([1, "password"]), "required", Level::Contract)]
        );
    }

    // ---- paging -----------------------------------------------------------------------------

    #[test]
    fn page_limits() {
        let check = |kind, start: Value, limit: Value| {
            summary(&validate_page(kind, &start, &limit, en()))
                .into_iter()
                .map(|(p, c, _)| (p, c))
                .collect::<Vec<_>>()
        };
        use PageKind::{Courses, Users};
        assert!(check(Users, json!(0), json!(1)).is_empty());
        assert!(check(Users, json!(5), json!(100)).is_empty());
        assert!(check(Users, json!(null), json!(null)).is_empty());
        assert!(check(Courses, json!(0), json!(0)).is_empty());
        assert!(check(Courses, json!(1.0), json!(100.0)).is_empty());
        assert!(check(Users, json!(u64::MAX), json!(50)).is_empty());
        assert_eq!(
            check(Users, json!(0), json!(0)),
            vec![(json!(["limit"]), "too_small")]
        );
        assert_eq!(
            check(Users, json!(0), json!(101)),
            vec![(json!(["limit"]), "too_large")]
        );
        assert_eq!(
            check(Courses, json!(0), json!(101)),
            vec![(json!(["limit"]), "too_large")]
        );
        assert_eq!(
            check(Courses, json!(0), json!(-1)),
            vec![(json!(["limit"]), "too_small")]
        );
        assert_eq!(
            check(Courses, json!(0), json!(u64::MAX)),
            vec![(json!(["limit"]), "too_large")]
        );
        assert_eq!(
            check(Users, json!(-1), json!(10)),
            vec![(json!(["start"]), "too_small")]
        );
        assert_eq!(
            check(Users, json!(i64::MIN), json!(10)),
            vec![(json!(["start"]), "too_small")]
        );
        for bad in [
            json!(1.5),
            json!("3"),
            json!(true),
            json!([1]),
            json!({}),
            json!(1e300),
            json!(-0.5),
        ] {
            assert_eq!(
                check(Courses, bad.clone(), bad.clone()),
                vec![
                    (json!(["start"]), "not_integer"),
                    (json!(["limit"]), "not_integer")
                ],
                "{bad}"
            );
        }
        let r = validate_page(Users, &json!(-3), &json!(0), en());
        assert!(r.issues.iter().all(|i| i.level == Level::Contract));
        assert_eq!(r.issues[0].message, "Start must be at least 0");
        assert_eq!(r.issues[1].message, "Limit must be at least 1");
    }

    // ---- search -----------------------------------------------------------------------------

    #[test]
    fn search_user() {
        let s = |e: Value, u: Value, o| summary(&validate_search_user(&e, &u, o));
        assert!(s(json!("a@b.vn"), json!(null), en()).is_empty());
        assert!(s(json!(null), json!("bob"), en()).is_empty());
        assert!(s(json!("a@b.vn"), json!("bob"), en()).is_empty());
        assert!(s(json!(""), json!("bob"), en()).is_empty());
        let one_of = (json!([]), "email_or_username_required", Level::Contract);
        assert_eq!(s(json!(null), json!(null), en()), vec![one_of.clone()]);
        assert_eq!(s(json!(""), json!("  "), en()), vec![one_of.clone()]);
        assert_eq!(
            s(json!(5), json!(null), en()),
            vec![
                (json!(["email"]), "not_string", Level::Contract),
                one_of.clone()
            ]
        );
        assert_eq!(
            s(json!("a@b.vn"), json!(["bob"]), en()),
            vec![(json!(["username"]), "not_string", Level::Contract)]
        );
        assert_eq!(
            s(json!("not an email"), json!(null), en()),
            vec![(json!(["email"]), "invalid_email", Level::Platform)]
        );
        assert!(s(json!("not an email"), json!(null), lax()).is_empty());
    }

    #[test]
    fn search_courses() {
        assert!(validate_search_courses(&json!("lập trình"), en()).is_ok());
        for (v, code) in [
            (json!(null), "required"),
            (json!(""), "required"),
            (json!("   "), "required"),
            (json!(5), "not_string"),
            (json!({"t": 1}), "not_string"),
        ] {
            let r = validate_search_courses(&v, en());
            assert_eq!(
                summary(&r),
                vec![(json!(["title"]), code, Level::Contract)],
                "{v}"
            );
        }
        let r = validate_search_courses(&json!(""), vi());
        assert_eq!(r.issues[0].message, "Bắt buộc nhập tiêu đề");
    }

    // ---- ids --------------------------------------------------------------------------------

    #[test]
    fn ids() {
        for ok in [
            "X7mKq2RBtWdHn4sPz",
            "abcdefghijklmn",
            "abcdefghijklmnopqrst",
            "a/b?c#d",
            "../x",
            "...",
            ".a",
            "%2e%2e",
            "x".repeat(300).as_str(),
        ] {
            assert!(validate_id(&json!(ok), en()).is_ok(), "{ok}");
        }
        for (v, code) in [
            (json!("."), "dot_segment"),
            (json!(".."), "dot_segment"),
            (json!(" .. "), "dot_segment"),
            (json!(""), "required"),
            (json!(" "), "required"),
            (json!(null), "required"),
            (json!(5), "not_string"),
            (json!(["a"]), "not_string"),
        ] {
            let r = validate_id(&v, lax());
            assert_eq!(summary(&r), vec![(json!([]), code, Level::Contract)], "{v}");
        }
        let r = validate_id(&json!(".."), vi());
        assert_eq!(r.issues[0].message, "Mã không được là \".\" hoặc \"..\"");
    }

    #[test]
    fn add_courses() {
        let ids = |n: usize, p: &str| {
            Value::Array((0..n).map(|i| json!(format!("{p}{i:014}"))).collect())
        };
        assert!(validate_add_courses(&ids(1, "u"), &ids(1, "c"), en()).is_ok());
        assert!(validate_add_courses(&ids(100, "u"), &ids(250, "c"), en()).is_ok());
        let r = validate_add_courses(&ids(101, "u"), &ids(1, "c"), en());
        assert_eq!(
            summary(&r),
            vec![(json!(["users"]), "too_many", Level::Contract)]
        );

        let r = validate_add_courses(&json!([]), &json!([]), en());
        assert_eq!(
            summary(&r),
            vec![
                (json!(["users"]), "empty", Level::Contract),
                (json!(["courses"]), "empty", Level::Contract),
            ]
        );
        let r = validate_add_courses(&json!(null), &json!("c1"), en());
        assert_eq!(
            summary(&r),
            vec![
                (json!(["users"]), "not_array", Level::Contract),
                (json!(["courses"]), "not_array", Level::Contract),
            ]
        );
        let r = validate_add_courses(&json!(["u1", "", 3, ".."]), &json!(["c1", null]), en());
        assert_eq!(
            summary(&r),
            vec![
                (json!(["users", 1]), "required", Level::Contract),
                (json!(["users", 2]), "not_string", Level::Contract),
                (json!(["users", 3]), "dot_segment", Level::Contract),
                (json!(["courses", 1]), "required", Level::Contract),
            ]
        );
        let r = validate_add_courses(&json!(["u1", "u2", "u1"]), &json!(["c1", "c1"]), en());
        assert_eq!(
            summary(&r),
            vec![
                (json!(["users", 2]), "duplicate_id", Level::Platform),
                (json!(["courses", 1]), "duplicate_id", Level::Platform),
            ]
        );
        assert_eq!(r.issues[0].message, "Account ID already listed in row 1");
        let r = validate_add_courses(&json!(["u1", "u2", "u1"]), &json!(["c1", "c1"]), vi());
        assert_eq!(r.issues[1].message, "Mã khoá học đã có ở dòng 1");
        assert!(validate_add_courses(&json!(["u1", "u1"]), &json!(["c1", "c1"]), lax()).is_ok());
    }

    // ---- login ------------------------------------------------------------------------------

    #[test]
    fn login() {
        assert!(validate_login(&json!("admin@x.vn"), &json!("pw"), en()).is_ok());
        let r = validate_login(&json!(null), &json!(""), en());
        assert_eq!(
            summary(&r),
            vec![
                (json!(["email"]), "required", Level::Contract),
                (json!(["password"]), "required", Level::Contract),
            ]
        );
        let r = validate_login(&json!(1), &json!({}), en());
        assert_eq!(
            summary(&r),
            vec![
                (json!(["email"]), "not_string", Level::Contract),
                (json!(["password"]), "not_string", Level::Contract),
            ]
        );
        let r = validate_login(&json!("admin"), &json!("pw"), en());
        assert_eq!(
            summary(&r),
            vec![(json!(["email"]), "invalid_email", Level::Platform)]
        );
        assert!(validate_login(&json!("admin"), &json!("pw"), lax()).is_ok());
    }

    // ---- never panics -----------------------------------------------------------------------

    /// Small deterministic generator (xorshift), so the stress test needs no extra crate.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n.max(1)
        }
    }

    const ODD_STRINGS: [&str; 14] = [
        "",
        " ",
        ".",
        "..",
        "@",
        "a@b.c",
        "Nguyễn",
        "\u{0}",
        "\u{202e}",
        "👩‍👩‍👧‍👦",
        "e\u{301}\u{302}\u{323}",
        "name",
        "email",
        "\u{fffd}\u{fffd}",
    ];

    fn random_value(rng: &mut Rng, depth: u32) -> Value {
        let pick = if depth == 0 {
            rng.below(7)
        } else {
            rng.below(10)
        };
        match pick {
            0 => Value::Null,
            1 => json!(rng.below(2) == 0),
            2 => json!(rng.next() as i64),
            3 => json!(rng.next()),
            4 => serde_json::Number::from_f64(f64::from_bits(rng.next()))
                .map(Value::Number)
                .unwrap_or(Value::Null),
            5 => json!(ODD_STRINGS[rng.below(ODD_STRINGS.len() as u64) as usize]),
            6 => json!("x".repeat(rng.below(64) as usize)),
            7 | 8 => {
                let n = rng.below(6);
                let mut map = serde_json::Map::new();
                for _ in 0..n {
                    let k = match rng.below(3) {
                        0 => REQUIRED_FIELDS[rng.below(4) as usize].to_owned(),
                        1 => OPTIONAL_FIELDS[rng.below(6) as usize].to_owned(),
                        _ => ODD_STRINGS[rng.below(ODD_STRINGS.len() as u64) as usize].to_owned(),
                    };
                    map.insert(k, random_value(rng, depth - 1));
                }
                Value::Object(map)
            }
            _ => {
                let n = rng.below(8);
                Value::Array((0..n).map(|_| random_value(rng, depth - 1)).collect())
            }
        }
    }

    fn odd_values() -> Vec<Value> {
        // Nested 500 deep (validators never descend into values, so depth costs nothing).
        let mut deep_array = json!([]);
        let mut deep_object = json!({});
        for _ in 0..500 {
            deep_array = json!([deep_array]);
            deep_object = json!({"email": deep_object});
        }
        let mut out = vec![
            Value::Null,
            json!(u64::MAX),
            json!(i64::MIN),
            json!(f64::MAX),
            json!(f64::MIN_POSITIVE),
            json!(-0.0),
            json!(1e300),
            json!({"name": {"name": {"name": []}}}),
            json!([[[[[]]]]]),
            json!([{"name": [], "username": {}, "email": 1e300, "password": [null]}]),
            json!(["..", ".", "", null, {}, []]),
            Value::Array(vec![json!({}); 300]),
            deep_array,
            deep_object,
        ];
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..400 {
            out.push(random_value(&mut rng, 4));
        }
        out
    }

    fn run_all(v: &Value, opts: ValidateOptions) -> Vec<Report> {
        let other = v.get(0).or_else(|| v.get("email")).unwrap_or(v);
        vec![
            validate_create_users(v, opts),
            validate_create_user(v, opts),
            validate_create_user(other, opts),
            validate_page(PageKind::Users, v, other, opts),
            validate_page(PageKind::Courses, other, v, opts),
            validate_search_user(v, other, opts),
            validate_search_courses(v, opts),
            validate_id(v, opts),
            validate_add_courses(v, other, opts),
            validate_login(v, other, opts),
        ]
    }

    #[test]
    fn stress_odd_json_never_panics() {
        let values = odd_values();
        for v in &values {
            for opts in [en(), vi(), lax()] {
                for r in run_all(v, opts) {
                    for issue in &r.issues {
                        assert!(!issue.message.is_empty());
                        if !opts.platform_rules {
                            assert_eq!(issue.level, Level::Contract);
                        }
                    }
                    assert!(serde_json::to_string(&r).is_ok());
                    assert_eq!(r.is_ok(), r.issues.is_empty());
                }
            }
        }
    }
}
