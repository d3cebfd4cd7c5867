//! Every validator of `lpm_client::validate` on arbitrary JSON, in English or Vietnamese.
//!
//! Input: JSON (the fixtures, mutated) or any bytes, from which a value is built with `arbitrary`.
//! Each two-argument validator takes its arguments from the value's keys (`{"start": .., "limit":
//! ..}`), from a two-item array, or takes the value itself as the first argument.
//!
//! The language is chosen per input (by its length), so both are covered at the speed of one.
//!
//! Checks: no panic; every issue has a non-empty code and message; no message holds a submitted
//! string (value or key) longer than 3 characters unless that text is part of the message
//! templates, the core's own table (messages must never echo input, a password least of all).
#![no_main]

use std::collections::BTreeSet;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use lpm_client::validate::{
    every_message, validate_add_courses, validate_create_user, validate_create_users, validate_id,
    validate_login, validate_page, validate_params, validate_search_courses, validate_search_user,
    PageKind,
};
use lpm_client::{Lang, Report, ValidateOptions};
use lpm_client_fuzz::json_from_bytes;
use serde_json::Value;

/// Runs every validator on `v` with `opts`.
fn validate_all(v: &Value, opts: ValidateOptions) -> Vec<Report> {
    const NULL: &Value = &Value::Null;
    let arg = |k: &str, i: usize| match v {
        Value::Object(m) => m.get(k).unwrap_or(NULL),
        Value::Array(a) if a.len() == 2 => &a[i],
        _ if i == 0 => v,
        _ => NULL,
    };
    let pair = |a: &str, b: &str| (arg(a, 0), arg(b, 1));
    let (start, limit) = pair("start", "limit");
    let (email, username) = pair("email", "username");
    let (users, courses) = pair("users", "courses");
    let (login_email, password) = pair("email", "password");
    let title = match v {
        Value::Object(m) => m.get("title").unwrap_or(v),
        _ => v,
    };
    vec![
        validate_create_users(v, opts),
        validate_create_user(v, opts),
        validate_params(v, opts),
        validate_page(PageKind::Users, start, limit, opts),
        validate_page(PageKind::Courses, start, limit, opts),
        validate_search_user(email, username, opts),
        validate_search_courses(title, opts),
        validate_id(v, opts),
        validate_add_courses(users, courses, opts),
        validate_login(login_email, password, opts),
    ]
}

/// English and Vietnamese, platform rules on (a superset of the issues without them).
fn options() -> [ValidateOptions; 2] {
    [Lang::En, Lang::Vi].map(|lang| ValidateOptions {
        lang,
        platform_rules: true,
    })
}

/// Digit runs collapsed to `0`: numbers in messages are bounds and rows, not input.
fn norm(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_digits = false;
    for c in s.chars() {
        let digit = c.is_ascii_digit();
        if !(digit && in_digits) {
            out.push(if digit { '0' } else { c });
        }
        in_digits = digit;
    }
    out
}

/// Every message template (the core's table, each code for each field, in both languages,
/// numbers normalised), joined by NUL, which no message holds.
fn template_texts() -> &'static str {
    static TEXTS: OnceLock<String> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let mut texts = String::new();
        for lang in [Lang::En, Lang::Vi] {
            for message in every_message(lang) {
                texts.push_str(&norm(&message));
                texts.push('\0');
            }
        }
        texts
    })
}

/// Every string of `v` (values and keys) longer than 3 characters.
fn submitted(v: &Value, out: &mut Vec<String>) {
    fn add(s: &str, out: &mut Vec<String>) {
        if s.chars().count() > 3 {
            out.push(s.to_owned());
        }
    }
    match v {
        Value::String(s) => add(s, out),
        Value::Array(items) => items.iter().for_each(|i| submitted(i, out)),
        Value::Object(map) => {
            for (k, v) in map {
                add(k, out);
                submitted(v, out);
            }
        }
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let value = json_from_bytes(data);
    let mut strings = Vec::new();
    submitted(&value, &mut strings);
    let strings: BTreeSet<String> = strings.iter().map(|s| norm(s)).collect();
    // Big inputs give many issues with the same few messages: check each distinct one once.
    let mut messages = BTreeSet::new();
    // One language per input (both for the probes): the rules are the same, the speed doubles.
    let opts = options()[data.len() % 2];
    for report in validate_all(&value, opts) {
        for issue in report.issues {
            assert!(
                !issue.code.as_str().is_empty(),
                "issue without a code: {issue:?}"
            );
            assert!(
                !issue.message.is_empty(),
                "issue without a message: {issue:?}"
            );
            messages.insert(issue.message);
        }
    }
    for message in &messages {
        let normalised = norm(message);
        for s in &strings {
            assert!(
                !normalised.contains(s.as_str()) || template_texts().contains(s.as_str()),
                "message echoes submitted text {s:?}: {message:?}"
            );
        }
    }
});
