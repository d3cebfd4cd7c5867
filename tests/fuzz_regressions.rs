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
