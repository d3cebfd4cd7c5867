//! Validation for forms, without a client: each returns the core's issues (`Issue[]`, empty when
//! the input is good). The package also exposes each as a Standard Schema.

use crate::error::{ConfigError, Error};
use crate::json::{self, JsonView, Value};
use crate::validate::{Lang, ValidateOptions};

/// `{lang, platformRules}` as JSON text (`optionsJson` in `pkg-templates/options.ts`); what is absent
/// or unusable takes the default.
fn options_of(options: &str) -> ValidateOptions {
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
pub fn validate(kind: &str, text: Option<&str>, options: &str) -> Result<String, String> {
    let opts = options_of(options);
    let Some(report) = crate::endpoint::validate_js(kind, text, opts) else {
        return Err(
            super::errors::Failure::Core(Error::Config(ConfigError::Option {
                option: "kind",
                expected: "a validator of the package",
            }))
            .into_json(),
        );
    };
    Ok(json::ser::to_string(&report.issues))
}
