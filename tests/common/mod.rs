//! Shared helpers of the integration tests: the fixture manifest and a decoder per endpoint.
#![allow(dead_code)]

use std::path::PathBuf;

use lpm_client::{AddCoursesInput, Endpoint, Error, NewUser, Planner};
use serde::Deserialize;
use serde_json::Value;

pub const TOKEN: &str = "tok-en_with.odd~chars0123456789abcdefghijklmno";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Case {
    pub endpoint: String,
    pub file: String,
    pub status: u16,
    pub resp_code: Option<String>,
    pub msg: Option<String>,
    pub source: String,
    pub outcome: String,
    #[serde(default)]
    pub decode_path: Option<String>,
    /// The reason an API error decodes to, where the manifest names it.
    #[serde(default)]
    pub reason: Option<String>,
}

pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(fixtures_dir().join("cases.json")).expect("manifest");
    serde_json::from_str(&text).expect("manifest parses")
}

pub fn body(case: &Case) -> Vec<u8> {
    std::fs::read(fixtures_dir().join(&case.file)).expect("fixture file")
}

pub fn api() -> Planner {
    Planner::new("https://school.example.com/prefix/")
        .unwrap()
        .with_token(TOKEN)
        .unwrap()
}

pub fn new_user(i: usize) -> NewUser {
    NewUser {
        name: format!("Người dùng {i}"),
        username: format!("user{i}"),
        email: format!("user{i}@example.com"),
        password: "secret-password".into(),
        phone: None,
        city: None,
        district: None,
        street: None,
        gender: None,
        job: None,
    }
}

/// Plans a valid request of `endpoint`, decodes (status, body) with it and returns the reply as JSON.
pub fn decode(endpoint: Endpoint, status: u16, body: &[u8]) -> Result<Value, Error> {
    let api = api();
    let to_json = |v: Result<Value, serde_json::Error>| v.expect("reply serializes");
    Ok(match endpoint {
        Endpoint::CreateUsers => to_json(serde_json::to_value(
            api.create_users(&[new_user(1)])?.decode(status, body)?,
        )),
        Endpoint::CreateUser => to_json(serde_json::to_value(
            api.create_user_raw(&new_user(1))?.decode(status, body)?,
        )),
        Endpoint::GetUsers => to_json(serde_json::to_value(
            api.get_users(0, 100)?.decode(status, body)?,
        )),
        Endpoint::GetUser => to_json(serde_json::to_value(
            api.get_user("abc")?.decode(status, body)?,
        )),
        Endpoint::GetMe => to_json(serde_json::to_value(api.get_me()?.decode(status, body)?)),
        Endpoint::SearchUser => to_json(serde_json::to_value(
            api.search_user(Some("a@b.co"), None)?
                .decode(status, body)?,
        )),
        Endpoint::GetCourse => to_json(serde_json::to_value(
            api.get_course("abc")?.decode(status, body)?,
        )),
        Endpoint::GetCourses => to_json(serde_json::to_value(
            api.get_courses(0, 100)?.decode(status, body)?,
        )),
        Endpoint::SearchCourses => to_json(serde_json::to_value(
            api.search_courses("toán")?.decode(status, body)?,
        )),
        Endpoint::AddCoursesToUsers => {
            let input = AddCoursesInput {
                users: vec!["u1".into()],
                courses: vec!["c1".into()],
            };
            to_json(serde_json::to_value(
                api.add_courses_to_users(&input)?.decode(status, body)?,
            ))
        }
        Endpoint::Login => to_json(serde_json::to_value(
            api.login("admin@example.com", "password1")?
                .decode(status, body)?,
        )),
        Endpoint::CreateLoginToken => to_json(serde_json::to_value(
            api.create_login_token("u1")?.decode(status, body)?,
        )),
    })
}

/// Percent-decodes `s` (`%XX` escapes to bytes) and reads the bytes as UTF-8; `None` when an
/// escape is malformed or the bytes are not UTF-8.
pub fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Splits an absolute `http(s)` URL into (path segments after the host, query) — the path split
/// on `/` after its leading slash; the query is what follows the first `?` (no fragment allowed).
pub fn url_parts(url: &str) -> (Vec<String>, Option<String>) {
    assert!(
        !url.contains('#'),
        "a planned URL never has a fragment: {url}"
    );
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .expect("absolute URL");
    let (before_query, query) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q.to_owned())),
        None => (rest, None),
    };
    let path = before_query.split_once('/').map_or("", |(_host, p)| p);
    (path.split('/').map(str::to_owned).collect(), query)
}

/// JSON numbers compare as numbers: `1820` and `1820.0` are the same value (models hold `f64`).
pub fn numbers_as_f64(v: Value) -> Value {
    match v {
        Value::Number(n) => n.as_f64().map_or(Value::Number(n), Value::from),
        Value::Array(a) => Value::Array(a.into_iter().map(numbers_as_f64).collect()),
        Value::Object(o) => {
            Value::Object(o.into_iter().map(|(k, v)| (k, numbers_as_f64(v))).collect())
        }
        other => other,
    }
}

/// `ms` since the epoch as the platform writes a timestamp (`2024-09-05T08:10:31.207Z`).
pub fn iso(ms: u64) -> String {
    let (days, rest) = ((ms / 86_400_000) as i64, ms % 86_400_000);
    // Date of days since 1970-01-01 (H. Hinnant's civil_from_days).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, m, sec, milli) = (
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000,
    );
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{sec:02}.{milli:03}Z")
}

/// `ms` as an HTTP `Date` (IMF-fixdate: whole seconds).
pub fn http_date(ms: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let iso = iso(ms);
    let month: usize = iso[5..7].parse().unwrap();
    let weekday = DAYS[(ms / 86_400_000 % 7) as usize];
    format!(
        "{weekday}, {} {} {} {} GMT",
        &iso[8..10],
        MONTHS[month - 1],
        &iso[0..4],
        &iso[11..19]
    )
}
