//! Validation for forms, without a client: each returns the core's issues (`Issue[]`, empty when
//! the input is good). The package also exposes each as a Standard Schema.

use crate::endpoint::{member, not_json_report};
use crate::error::{ConfigError, Error};
use crate::json::{self, JsonView, Value};
use crate::validate::{self, Lang, PageKind, Report, ValidateOptions};

/// `{lang, platformRules}` as JSON text (`optionsJson` in `pkg-templates/lib.ts`); what is absent
/// or unusable takes the default.
fn options(options: &str) -> ValidateOptions {
    let mut opts = ValidateOptions::default();
    let options = json::parse(options).unwrap_or(Value::Null);
    if options.get("lang").and_then(JsonView::as_str) == Some("vi") {
        opts.lang = Lang::Vi;
    }
    if let Some(Value::Bool(rules)) = options.get("platformRules") {
        opts.platform_rules = *rules;
    }
    opts
}

/// A validator over the caller's value as a JSON tree.
type Check = fn(&Value<'_>, ValidateOptions) -> Report;

/// Runs `check` on the value; `params`: it takes a parameters object (`{start, limit}`, ...), so
/// anything but an object (or nothing) is one issue, before its keys are read. One copy for every
/// validator (a generic one cost the wasm a copy of the parsing and writing per validator).
fn run(value: Option<&str>, options_text: &str, params: bool, check: Check) -> String {
    let opts = options(options_text);
    let report = match value.map(json::parse) {
        Some(Ok(v)) => {
            let shape = match params {
                true => validate::validate_params(&v, opts),
                false => Report { issues: Vec::new() },
            };
            if shape.is_ok() {
                check(&v, opts)
            } else {
                shape
            }
        }
        _ => not_json_report(opts.lang),
    };
    json::ser::to_string(&report.issues)
}

/// The issues of `text` (the caller's value as JSON text, or `undefined` when it has none) for
/// the validator `kind` (`createUsers`, `getUsers`, ...), as JSON text. One export serves all
/// nine validators, which keeps the bindings small; the package names them. `options`: JSON
/// text (`optionsJson` in `pkg-templates/lib.ts`).
pub fn validate(kind: &str, text: Option<&str>, options: &str) -> Result<String, String> {
    let (params, check): (bool, Check) = match kind {
        "createUsers" => (false, |v, o| validate::validate_create_users(v, o)),
        "createUser" => (false, |v, o| validate::validate_create_user(v, o)),
        "getUsers" => (true, |v, o| {
            validate::validate_page(PageKind::Users, member(v, "start"), member(v, "limit"), o)
        }),
        "getCourses" => (true, |v, o| {
            validate::validate_page(PageKind::Courses, member(v, "start"), member(v, "limit"), o)
        }),
        "searchUser" => (true, |v, o| {
            validate::validate_search_user(member(v, "email"), member(v, "username"), o)
        }),
        "searchCourses" => (false, |v, o| validate::validate_search_courses(v, o)),
        "id" => (false, |v, o| validate::validate_id(v, o)),
        "addCourses" => (true, |v, o| {
            validate::validate_add_courses(member(v, "users"), member(v, "courses"), o)
        }),
        "login" => (true, |v, o| {
            validate::validate_login(member(v, "email"), member(v, "password"), o)
        }),
        _ => {
            return Err(
                super::errors::Failure::Core(Error::Config(ConfigError::Option {
                    option: "kind",
                    expected: "a validator of the package",
                }))
                .into_json(None),
            )
        }
    };
    Ok(run(text, options, params, check))
}
