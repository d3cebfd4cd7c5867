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

/// Issues of a create-multi-user batch (`users` array); paths start with the item's index.
#[wasm_bindgen(js_name = validateCreateUsers, unchecked_return_type = "Issue[]")]
pub fn validate_create_users(
    #[wasm_bindgen(unchecked_param_type = "unknown")] users: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    run(&users, &options, |v, o| {
        validate::validate_create_users(v, o)
    })
}

/// Issues of one account-creation item; paths start with the field.
#[wasm_bindgen(js_name = validateCreateUser, unchecked_return_type = "Issue[]")]
pub fn validate_create_user(
    #[wasm_bindgen(unchecked_param_type = "unknown")] user: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    run(&user, &options, |v, o| validate::validate_create_user(v, o))
}

/// Issues of get-multi-user's `{start, limit}`.
#[wasm_bindgen(js_name = validateGetUsers, unchecked_return_type = "Issue[]")]
pub fn validate_get_users(
    #[wasm_bindgen(unchecked_param_type = "unknown")] params: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    run_params(&params, &options, |v, o| {
        validate::validate_page(PageKind::Users, m(v, "start"), m(v, "limit"), o)
    })
}

/// Issues of get-multi-course's `{start, limit}`.
#[wasm_bindgen(js_name = validateGetCourses, unchecked_return_type = "Issue[]")]
pub fn validate_get_courses(
    #[wasm_bindgen(unchecked_param_type = "unknown")] params: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    run_params(&params, &options, |v, o| {
        validate::validate_page(PageKind::Courses, m(v, "start"), m(v, "limit"), o)
    })
}

/// Issues of search-user's `{email, username}`.
#[wasm_bindgen(js_name = validateSearchUser, unchecked_return_type = "Issue[]")]
pub fn validate_search_user(
    #[wasm_bindgen(unchecked_param_type = "unknown")] params: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    run_params(&params, &options, |v, o| {
        validate::validate_search_user(m(v, "email"), m(v, "username"), o)
    })
}

/// Issues of search-course's title.
#[wasm_bindgen(js_name = validateSearchCourses, unchecked_return_type = "Issue[]")]
pub fn validate_search_courses(
    #[wasm_bindgen(unchecked_param_type = "unknown")] title: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    run(&title, &options, |v, o| {
        validate::validate_search_courses(v, o)
    })
}

/// Issues of an account or course id.
#[wasm_bindgen(js_name = validateId, unchecked_return_type = "Issue[]")]
pub fn validate_id(
    #[wasm_bindgen(unchecked_param_type = "unknown")] id: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    run(&id, &options, |v, o| validate::validate_id(v, o))
}

/// Issues of add-courses' `{users, courses}`.
#[wasm_bindgen(js_name = validateAddCourses, unchecked_return_type = "Issue[]")]
pub fn validate_add_courses(
    #[wasm_bindgen(unchecked_param_type = "unknown")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    run_params(&input, &options, |v, o| {
        validate::validate_add_courses(m(v, "users"), m(v, "courses"), o)
    })
}

/// Issues of login's `{email, password}`.
#[wasm_bindgen(js_name = validateLogin, unchecked_return_type = "Issue[]")]
pub fn validate_login(
    #[wasm_bindgen(unchecked_param_type = "unknown")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    run_params(&input, &options, |v, o| {
        validate::validate_login(m(v, "email"), m(v, "password"), o)
    })
}
