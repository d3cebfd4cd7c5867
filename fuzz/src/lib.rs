//! Helpers shared by the fuzz targets in `fuzz_targets/`: the known tokens, the token-leak check,
//! every text of an error, and JSON values built from fuzz bytes.
//!
//! Only the public API of `lpm-client` is used (the core's internals change under us).

use std::sync::OnceLock;

use arbitrary::{Result, Unstructured};
use lpm_client::Error;
use serde_json::{Map, Number, Value};

/// The tokens a planned request carries while its response is fuzzed: a platform-like token of
/// 43 characters using every non-alphanumeric character a token may hold, and one of the shortest
/// length accepted. Both are in `json.dict`, so the fuzzer writes them into bodies.
pub const TOKENS: [&str; 2] = ["kT3~fz.ZQ_9-mW2pLx8vR4nB7cY1sD6gH0jK5eA2uN", "Zq7Xw2Kp"];

/// Whether the strict redaction check is on (unless `LPM_FUZZ_STRICT_REDACTION=0`): besides the
/// token as is, also any run of 16 of its characters (or all of it when shorter), in any letter
/// case, percent-encoded (`%7E`, `%7e`) or JSON-escaped (`\u0053`), as `error::redact` promises
/// since issue 12's defect 2 was fixed.
pub fn strict_redaction() -> bool {
    static STRICT: OnceLock<bool> = OnceLock::new();
    *STRICT.get_or_init(|| std::env::var("LPM_FUZZ_STRICT_REDACTION").map_or(true, |v| v != "0"))
}

/// Panics when `text` holds `token` as is.
pub fn assert_no_token(what: &str, text: &str, token: &str) {
    assert!(!text.contains(token), "token leaked into {what}: {text:?}");
}

/// Panics when `text` holds `token` in any form [`strict_redaction`] covers (when it is on),
/// or as is.
pub fn assert_no_token_strict(what: &str, text: &str, token: &str) {
    assert_no_token(what, text, token);
    if strict_redaction() {
        let plain = unescape(text).to_lowercase();
        let token = token.to_lowercase();
        let run = token.len().min(16);
        // The token is ASCII (the core refuses anything else), so byte windows are characters.
        for start in 0..=token.len() - run {
            let part = &token[start..start + run];
            assert!(
                !plain.contains(part),
                "token (run {part:?}, encoded or re-cased) leaked into {what}: {text:?}"
            );
        }
    }
}

/// `text` with `%XX` and `\uXXXX` escapes of ASCII characters decoded (others left as they are),
/// and the one-letter backslash escapes of JSON and Rust's `Debug` (`\n`, `\t`, `\"`, ...) read
/// as the characters they stand for: a reader of `Debug` output sees a newline there, not the
/// letter `n` (without this, `"\n" + 15 token characters` counted as a 16-character run).
fn unescape(text: &str) -> String {
    let b = text.as_bytes();
    let hex = |s: &[u8]| {
        std::str::from_utf8(s)
            .ok()
            .and_then(|s| u32::from_str_radix(s, 16).ok())
    };
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let decoded = match b[i] {
            b'%' if i + 3 <= b.len() => hex(&b[i + 1..i + 3]).map(|c| (c, 3)),
            b'\\' if i + 6 <= b.len() && b[i + 1] == b'u' && b[i + 2] != b'{' => {
                hex(&b[i + 2..i + 6]).map(|c| (c, 6))
            }
            b'\\' if i + 2 <= b.len() => match b[i + 1] {
                b'n' => Some((u32::from(b'\n'), 2)),
                b't' => Some((u32::from(b'\t'), 2)),
                b'r' => Some((u32::from(b'\r'), 2)),
                b'f' => Some((0x0c, 2)),
                b'b' => Some((0x08, 2)),
                b'0' => Some((0, 2)),
                b'"' | b'\'' | b'\\' | b'/' => Some((u32::from(b[i + 1]), 2)),
                _ => None,
            },
            _ => None,
        };
        match decoded {
            Some((c, len)) if c < 0x80 => {
                out.push(c as u8);
                i += len;
            }
            _ => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Every text a caller can see of `err`: `Display`, `Debug`, its JSON form (every serialized
/// field) and each string field by name.
pub fn error_texts(err: &Error) -> Vec<(&'static str, String)> {
    let mut texts = vec![
        ("Display", err.to_string()),
        ("Debug", format!("{err:?}")),
        (
            "JSON",
            serde_json::to_string(err).unwrap_or_else(|e| panic!("error does not serialize: {e}")),
        ),
    ];
    match err {
        Error::Api(e) => {
            texts.push(("ApiError.code", e.code.clone()));
            texts.push(("ApiError.msg", e.msg.clone()));
            texts.push(("ApiError.explanation", e.explanation.to_owned()));
        }
        Error::Http(e) => texts.push(("HttpError.excerpt", e.excerpt.clone())),
        Error::Decode(e) => {
            texts.push(("DecodeError.path", e.path.clone()));
            texts.push(("DecodeError.detail", e.detail.clone()));
        }
        Error::Validation(e) => {
            for issue in &e.report.issues {
                texts.push(("Issue.message", issue.message.clone()));
            }
        }
        Error::Config(_) => {}
    }
    texts
}

/// Panics when any text of `err` holds `token` (in any form, with [`strict_redaction`]).
pub fn assert_error_clean(err: &Error, token: &str) {
    for (what, text) in error_texts(err) {
        assert_no_token_strict(what, &text, token);
    }
}

/// The JSON value a fuzz input stands for: the bytes parsed as JSON when they are JSON (the
/// fixtures and the dictionary steer the fuzzer there), else a value built with `arbitrary`.
pub fn json_from_bytes(data: &[u8]) -> Value {
    if let Ok(v) = serde_json::from_slice::<Value>(data) {
        return v;
    }
    arbitrary_json(&mut Unstructured::new(data), 4).unwrap_or(Value::Null)
}

/// Strings and keys the validators treat specially, so that built values reach their branches.
const WORDS: [&str; 24] = [
    "",
    " ",
    ".",
    "..",
    " .. ",
    "name",
    "username",
    "email",
    "password",
    "phone",
    "gender",
    "job",
    "users",
    "courses",
    "start",
    "limit",
    "title",
    "id",
    "a@b.co",
    "Nguyễn Văn An",
    "nguyenvanan",
    "Secret-Passw0rd",
    "Nam",
    "Nữ",
];

/// Most nodes a built value has: big enough for the 100-item limits, small enough to keep the
/// fuzzer fast.
const MAX_NODES: usize = 2_000;

/// A JSON value of at most `depth` levels and [`MAX_NODES`] nodes, drawn from `u`.
pub fn arbitrary_json(u: &mut Unstructured<'_>, depth: u32) -> Result<Value> {
    let mut budget = MAX_NODES;
    build(u, depth, &mut budget)
}

/// Number of nodes of `v`.
fn nodes(v: &Value) -> usize {
    1 + match v {
        Value::Array(items) => items.iter().map(nodes).sum(),
        Value::Object(map) => map.values().map(nodes).sum(),
        _ => 0,
    }
}

fn build(u: &mut Unstructured<'_>, depth: u32, budget: &mut usize) -> Result<Value> {
    *budget = budget.saturating_sub(1);
    let pick = if depth == 0 || *budget == 0 {
        u.int_in_range(0..=6)?
    } else {
        u.int_in_range(0..=8)?
    };
    Ok(match pick {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::from(u.arbitrary::<i64>()?),
        3 => Value::from(u.arbitrary::<u64>()?),
        4 => Number::from_f64(u.arbitrary()?).map_or(Value::Null, Value::Number),
        5 => Value::String(u.choose(&WORDS)?.to_string()),
        6 => Value::String(u.arbitrary()?),
        7 => {
            let n = u.int_in_range(0..=8)?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(build(u, depth - 1, budget)?);
            }
            // Sometimes one item repeated past the 100-item limits, within the budget.
            if n == 1 && u.arbitrary()? {
                let size = nodes(&items[0]);
                let k = u.int_in_range(0..=120)?.min(*budget / size + 1);
                *budget = budget.saturating_sub(size * k);
                items = vec![items[0].clone(); k];
            }
            Value::Array(items)
        }
        _ => {
            let n = u.int_in_range(0..=8)?;
            let mut map = Map::new();
            for _ in 0..n {
                let key = if u.arbitrary()? {
                    u.choose(&WORDS)?.to_string()
                } else {
                    u.arbitrary()?
                };
                map.insert(key, build(u, depth - 1, budget)?);
            }
            Value::Object(map)
        }
    })
}
