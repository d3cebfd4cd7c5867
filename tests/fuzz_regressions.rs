//! Minimal reproductions of what the fuzz targets in `fuzz/` found, as plain tests.
//!
//! Each names the target, the check and the mode it was found in. Tests of defects the core has
//! not fixed yet are `#[ignore]`d with the issue they belong to; fixing the defect means removing
//! the `ignore`.
// A test may unwrap: its panic is its failure, said where it happens.
#![allow(clippy::unwrap_used)]

use lpm_client::{Error, Planner};

/// The decode target's token (43 characters, every non-alphanumeric character a token may hold).
const TOKEN: &str = "kT3~fz.ZQ_9-mW2pLx8vR4nB7cY1sD6gH0jK5eA2uN";

/// Every text of an error a caller can see.
fn texts(err: &Error) -> String {
    format!("{err}\n{err:?}\n{}", serde_json::to_string(err).unwrap())
}

/// Found by `decode` with `LPM_FUZZ_STRICT_REDACTION=1` within seconds: a server that echoes
/// the token cut in two (here by a line break, as a wrapping proxy or a truncating log would)
/// leaves 21 characters of it in the excerpt of the `HttpError`. Issue 12, defect 2 ("any run
/// of at least 16 of its characters").
#[test]
fn a_run_of_the_token_in_a_non_envelope_body_is_redacted() {
    let api = Planner::new("https://school.example.com")
        .unwrap()
        .with_token(TOKEN)
        .unwrap();
    let req = api.get_users(0, 100).unwrap();
    let body = "bad request: token=kT3~fz.ZQ_9-\nmW2pLx8vR4nB7cY1sD6gH0jK5eA2uN";
    let err = req.decode(400, body.as_bytes()).unwrap_err();
    assert!(matches!(err, Error::Http(_)), "{err:?}");
    let texts = texts(&err);
    for start in 0..=TOKEN.len() - 16 {
        let run = &TOKEN[start..start + 16];
        assert!(!texts.contains(run), "{run:?} leaked: {texts}");
    }
}

/// Found by `decode` (strict redaction) on 2026-11-22: the text `\u0004` followed by 15 of the
/// token's characters in a body that is no JSON. Read with its escapes decoded, it is a control
/// character and a run of 15 (under the 16 that count); read as the characters it is, the `4` of
/// the escape makes a run of 16 (`4nB7cY1sD6gH0jK5`, re-cased). Both readings are redacted now.
#[test]
fn a_run_that_an_escape_completes_is_redacted() {
    let api = Planner::new("https://school.example.com")
        .unwrap()
        .with_token(TOKEN)
        .unwrap();
    let req = api.get_users(0, 100).unwrap();
    let body = "crxxxxxxx\"\\u00E0\"xxxx\\u0000\"xyxxxxo\\u0004nb7cy1sd6gh0jk50\"\n}\n";
    let err = req.decode(301, body.as_bytes()).unwrap_err();
    let texts = texts(&err).to_lowercase();
    for start in 0..=TOKEN.len() - 16 {
        let run = TOKEN[start..start + 16].to_lowercase();
        assert!(!texts.contains(&run), "{run:?} leaked: {texts}");
    }
    // What is no echo is kept: the text before it.
    assert!(texts.contains("xyxxxxo"), "{texts}");
}

/// Found by `validate` on a fresh clone (issue 35, item 1): the phone rule's message "Số điện
/// thoại không hợp lệ" holds the submitted "Số điện thoại khô", and the target's list of
/// templates, gathered from probe inputs that never met that rule, could not tell it from an
/// echo. The templates are now the core's own table: every message a validator gives is in it.
#[test]
fn every_message_given_is_in_the_core_table() {
    use lpm_client::validate::{every_message, validate_create_users};
    use lpm_client::{Lang, ValidateOptions};
    let rows = serde_json::json!([{
        "name": "Số điện thoại khô", "username": "a b", "email": "no-at",
        "password": "1", "phone": "Số điện thoại khô", "colour": 1
    }]);
    // Digit runs as one 0: numbers are bounds and rows (the table renders each as 0).
    let norm = |text: &str| {
        let mut shape = String::new();
        let mut in_digits = false;
        for c in text.chars() {
            let digit = c.is_ascii_digit();
            if !(digit && in_digits) {
                shape.push(if digit { '0' } else { c });
            }
            in_digits = digit;
        }
        shape
    };
    for lang in [Lang::En, Lang::Vi] {
        let table: Vec<String> = every_message(lang).map(|m| norm(&m)).collect();
        let opts = ValidateOptions {
            lang,
            platform_rules: true,
        };
        let report = validate_create_users(&rows, opts);
        assert!(report.issues.len() >= 5, "{:?}", report.issues);
        for issue in report.issues {
            let shape = norm(&issue.message);
            assert!(
                table.iter().any(|t| t == &shape),
                "not in the table: {shape:?}"
            );
        }
    }
}
