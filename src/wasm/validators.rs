//! Validation for forms, without a client: each returns the core's issues (`Issue[]`, empty when
//! the input is good). The package also exposes each as a Standard Schema.

use wasm_bindgen::prelude::*;

use crate::error::{Error, ValidationError};
use crate::json::{self, JsonView, Value};
use crate::validate::{self, Issue, Lang, Level, PageKind, Report, ValidateOptions};
use crate::Endpoint;

use super::convert::{get, json_text, to_js};

/// The report on a value that cannot be read as JSON (a cycle, a BigInt, NaN or Infinity).
fn not_json_report() -> Report {
    Report {
        issues: vec![Issue {
            path: Vec::new(),
            code: "not_json",
            level: Level::Contract,
            message: "The value cannot be written as JSON (a cycle, a BigInt, NaN or Infinity)."
                .into(),
        }],
    }
}

/// The validation error of a value that cannot be read as JSON.
pub fn not_json(endpoint: Endpoint) -> Error {
    Error::Validation(ValidationError {
        endpoint,
        report: not_json_report(),
    })
}

/// `{lang, platformRules}`; what is absent or unusable takes the default.
fn options(options: &JsValue) -> ValidateOptions {
    let mut opts = ValidateOptions::default();
    if get(options, "lang").as_string().as_deref() == Some("vi") {
        opts.lang = Lang::Vi;
    }
    if let Some(rules) = get(options, "platformRules").as_bool() {
        opts.platform_rules = rules;
    }
    opts
}

fn run(
    value: &JsValue,
    options_js: &JsValue,
    check: impl FnOnce(&Value<'_>, ValidateOptions) -> Report,
) -> Result<JsValue, JsValue> {
    let opts = options(options_js);
    let text = json_text(value);
    let report = match text.as_deref().map(json::parse) {
        Some(Ok(v)) => check(&v, opts),
        _ => not_json_report(),
    };
    Ok(to_js(&report.issues))
}

/// As `run`, for a parameters object (`{start, limit}`, ...): anything but an object (or
/// nothing) is one issue, before its keys are read.
fn run_params(
    value: &JsValue,
    options_js: &JsValue,
    check: impl FnOnce(&Value<'_>, ValidateOptions) -> Report,
) -> Result<JsValue, JsValue> {
    run(value, options_js, |v, o| {
        let shape = validate::validate_params(v, o);
        if shape.is_ok() {
            check(v, o)
        } else {
            shape
        }
    })
}

/// A member of a parameters object (`null` when absent).
fn m<'v, 'a>(v: &'v Value<'a>, key: &str) -> &'v Value<'a> {
    v.get(key).unwrap_or(&Value::Null)
}

/// The issues of `text` (the caller's value as JSON text, or `undefined` when it has none) for
/// the validator `kind` (`createUsers`, `getUsers`, ...). One export serves all nine validators,
/// which keeps the bindings small; the package names them.
#[wasm_bindgen(unchecked_return_type = "Issue[]")]
pub fn validate(
    kind: &str,
    #[wasm_bindgen(unchecked_param_type = "string | undefined")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let (t, o) = (&text, &options);
    match kind {
        "createUsers" => run(t, o, |v, o| validate::validate_create_users(v, o)),
        "createUser" => run(t, o, |v, o| validate::validate_create_user(v, o)),
        "getUsers" => run_params(t, o, |v, o| {
            validate::validate_page(PageKind::Users, m(v, "start"), m(v, "limit"), o)
        }),
        "getCourses" => run_params(t, o, |v, o| {
            validate::validate_page(PageKind::Courses, m(v, "start"), m(v, "limit"), o)
        }),
        "searchUser" => run_params(t, o, |v, o| {
            validate::validate_search_user(m(v, "email"), m(v, "username"), o)
        }),
        "searchCourses" => run(t, o, |v, o| validate::validate_search_courses(v, o)),
        "id" => run(t, o, |v, o| validate::validate_id(v, o)),
        "addCourses" => run_params(t, o, |v, o| {
            validate::validate_add_courses(m(v, "users"), m(v, "courses"), o)
        }),
        "login" => run_params(t, o, |v, o| {
            validate::validate_login(m(v, "email"), m(v, "password"), o)
        }),
        _ => Err(JsValue::from_str("unknown validator")),
    }
}
