//! Validation for forms, without a client: each returns the core's issues (`Issue[]`, empty when
//! the input is good). The package also exposes each as a Standard Schema.

use wasm_bindgen::prelude::*;

use crate::error::{ConfigError, Error, ValidationError};
use crate::json::{self, JsonView, Value};
use crate::validate::{self, Issue, IssueCode, Lang, Level, PageKind, Report, ValidateOptions};
use crate::Endpoint;

/// The report on a value that cannot be read as JSON (a cycle, a BigInt, NaN or Infinity).
fn not_json_report(lang: Lang) -> Report {
    let code = IssueCode::NotJson;
    Report {
        issues: vec![Issue {
            path: Vec::new(),
            code,
            level: Level::Contract,
            message: validate::message(code, "", 0, lang),
        }],
    }
}

/// The validation error of a value that cannot be read as JSON.
pub fn not_json(endpoint: Endpoint) -> Error {
    Error::Validation(ValidationError {
        endpoint,
        report: not_json_report(Lang::En),
    })
}

/// `{lang, platformRules}` as JSON text (`optionsJson` in lib.js); what is absent or unusable
/// takes the default.
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

fn run(
    value: Option<&str>,
    options_text: &str,
    check: impl FnOnce(&Value<'_>, ValidateOptions) -> Report,
) -> Result<String, JsValue> {
    let opts = options(options_text);
    let report = match value.map(json::parse) {
        Some(Ok(v)) => check(&v, opts),
        _ => not_json_report(opts.lang),
    };
    Ok(json::ser::to_string(&report.issues))
}

/// As `run`, for a parameters object (`{start, limit}`, ...): anything but an object (or
/// nothing) is one issue, before its keys are read.
fn run_params(
    value: Option<&str>,
    options_text: &str,
    check: impl FnOnce(&Value<'_>, ValidateOptions) -> Report,
) -> Result<String, JsValue> {
    run(value, options_text, |v, o| {
        let shape = validate::validate_params(v, o);
        if shape.is_ok() {
            check(v, o)
        } else {
            shape
        }
    })
}

/// A member of a parameters object (`null` when absent).
pub(super) fn member<'v, 'a>(v: &'v Value<'a>, key: &str) -> &'v Value<'a> {
    v.get(key).unwrap_or(&Value::Null)
}

/// The issues of `text` (the caller's value as JSON text, or `undefined` when it has none) for
/// the validator `kind` (`createUsers`, `getUsers`, ...), as JSON text. One export serves all
/// nine validators, which keeps the bindings small; the package names them. `options`: JSON
/// text (`optionsJson` in lib.js).
#[wasm_bindgen]
pub fn validate(kind: &str, text: Option<String>, options: &str) -> Result<String, JsValue> {
    let (t, o) = (text.as_deref(), options);
    match kind {
        "createUsers" => run(t, o, |v, o| validate::validate_create_users(v, o)),
        "createUser" => run(t, o, |v, o| validate::validate_create_user(v, o)),
        "getUsers" => run_params(t, o, |v, o| {
            validate::validate_page(PageKind::Users, member(v, "start"), member(v, "limit"), o)
        }),
        "getCourses" => run_params(t, o, |v, o| {
            validate::validate_page(PageKind::Courses, member(v, "start"), member(v, "limit"), o)
        }),
        "searchUser" => run_params(t, o, |v, o| {
            validate::validate_search_user(member(v, "email"), member(v, "username"), o)
        }),
        "searchCourses" => run(t, o, |v, o| validate::validate_search_courses(v, o)),
        "id" => run(t, o, |v, o| validate::validate_id(v, o)),
        "addCourses" => run_params(t, o, |v, o| {
            validate::validate_add_courses(member(v, "users"), member(v, "courses"), o)
        }),
        "login" => run_params(t, o, |v, o| {
            validate::validate_login(member(v, "email"), member(v, "password"), o)
        }),
        _ => Err(
            super::errors::Failure::Core(Error::Config(ConfigError::Option {
                option: "kind",
                expected: "a validator of the package",
            }))
            .into_js(None),
        ),
    }
}
