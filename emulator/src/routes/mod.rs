//! Handlers of the `/manage/api` endpoints.

pub mod courses;
pub mod learner;
pub mod login;
pub mod users;

use serde_json::{Map, Value};

use crate::api::{parse_count, ApiErr, Ctx};

/// Paging parameters of the list endpoints.
pub struct Paging {
    pub start: usize,
    pub limit: usize,
}

impl Paging {
    /// The page of `records` (already in list order) as a JSON array.
    pub fn of<'a>(&self, records: impl IntoIterator<Item = &'a Map<String, Value>>) -> Value {
        Value::Array(
            records
                .into_iter()
                .skip(self.start)
                .take(self.limit)
                .map(|r| Value::Object(r.clone()))
                .collect(),
        )
    }
}

/// Reads `start` / `limit` with the endpoint's limit range and codes
/// (`start_codes` for missing / invalid start, `limit_code` for a bad limit).
pub fn paging(
    ctx: &Ctx,
    start_required: bool,
    default_limit: usize,
    min_limit: i64,
    limit_code: &str,
) -> Result<Paging, ApiErr> {
    let start = match ctx.param("start") {
        None if start_required => return Err(ApiErr::bad("03", "No start parameter")),
        None => 0,
        Some(s) => match parse_count(s) {
            Some(n) if n >= 0 => n as usize,
            _ => {
                return Err(ApiErr::bad(
                    "04",
                    "Invalid start parameter, start should be greater than or equal 0",
                ))
            }
        },
    };
    let limit = match ctx.param("limit") {
        None => default_limit,
        Some(s) => match parse_count(s) {
            Some(n) if (min_limit..=100).contains(&n) => n as usize,
            _ => {
                return Err(ApiErr::bad(
                    limit_code,
                    format!("Invalid limit parameter, limit should be between {min_limit} and 100"),
                ))
            }
        },
    };
    Ok(Paging { start, limit })
}

/// A string member of a JSON object, `None` when absent, not a string or empty.
pub fn str_field<'a>(obj: &'a Value, key: &str) -> Option<&'a str> {
    obj.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}
