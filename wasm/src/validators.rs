//! Validation for forms, without a client: each returns the core's issues (`Issue[]`, empty when
//! the input is good). The package also exposes each as a Standard Schema.

use lpm_client::endpoint::{check_params, Args};
use lpm_client::error::ConfigError;
use lpm_client::json::{self, JsonView, Value};
use lpm_client::validate::{Lang, ValidateOptions};
use lpm_client::Endpoint;
use wasm_bindgen::prelude::*;

/// The package's validators (`validate(kind, ...)`, named in `pkg-templates/schema.ts`): each is an
/// endpoint's parameters, given as the one parameter or as an object of them.
const VALIDATORS: [(&str, Endpoint, Args); 9] = [
    ("createUsers", Endpoint::CreateUsers, Args::One),
    ("createUser", Endpoint::CreateUser, Args::One),
    ("getUsers", Endpoint::GetUsers, Args::Object),
    ("getCourses", Endpoint::GetCourses, Args::Object),
    ("searchUser", Endpoint::SearchUser, Args::Object),
    ("searchCourses", Endpoint::SearchCourses, Args::One),
    ("id", Endpoint::GetUser, Args::One),
    ("addCourses", Endpoint::AddCoursesToUsers, Args::Object),
    ("login", Endpoint::Login, Args::Object),
];

/// `{lang, platformRules}` as JSON text (`optionsJson` in `pkg-templates/options.ts`); what is absent
/// or unusable takes the default.
pub(crate) fn options_of(options: &str) -> ValidateOptions {
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

/// The issues of `text` (the caller's value as JSON text, or `undefined` when it has none) for
/// the validator `kind` (`createUsers`, `getUsers`, ...), as JSON text. One export serves all
/// nine validators, which keeps the bindings small; the package names them. `options`: JSON
/// text (`optionsJson` in `pkg-templates/options.ts`).
#[wasm_bindgen]
pub fn validate(kind: &str, text: Option<String>, options: &str) -> Result<String, String> {
    let opts = options_of(options);
    let names = VALIDATORS.map(|(name, ..)| name);
    let found = lpm_client::text::position(&names, kind).and_then(|i| VALIDATORS.get(i));
    let Some(&(_, endpoint, args)) = found else {
        return Err(super::errors::config(ConfigError::Option {
            option: "kind",
            expected: "a validator of the package",
        }));
    };
    let report = check_params(endpoint, args, text.as_deref(), opts);
    Ok(json::ser::value_json(&report.issues))
}

/// The `NewUser` field a spreadsheet header stands for (`mapColumns`), if any. Not in the
/// validators entry's wasm: its alias table is for sheets, not forms.
#[cfg(not(feature = "validate-only"))]
#[wasm_bindgen(js_name = columnOf)]
pub fn column_of(header: &str) -> Option<String> {
    lpm_client::columns::column(header).map(str::to_owned)
}
