//! In-memory state shared by the handlers and the control API.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{json, Map, Value};

use crate::config::{Config, Seed};
use crate::seed;
use crate::util::{iso, Rng, DAY_MS};

/// Lifetime enrolment length used by the platform (`expiredAt = activatedDate + 36500 days`).
pub const ENROLMENT_DAYS: i64 = 36_500;

#[derive(Debug, Clone)]
pub struct Account {
    pub id: String,
    /// Insertion sequence: tie-breaker for records created in the same millisecond.
    pub seq: u64,
    pub created_ms: i64,
    /// The user record as served (without `forSeller` / `balance`, added for the caller's own account).
    pub record: Map<String, Value>,
    pub password: String,
    /// Has management permission.
    pub admin: bool,
    pub for_seller: Value,
}

impl Account {
    /// Same e-mail: compared trimmed and ignoring case.
    pub fn email_matches(&self, email: &str) -> bool {
        let wanted = email.trim().to_lowercase();
        self.record
            .get("emails")
            .and_then(Value::as_array)
            .map(|emails| {
                emails.iter().any(|e| {
                    e.get("address")
                        .and_then(Value::as_str)
                        .is_some_and(|a| a.trim().to_lowercase() == wanted)
                })
            })
            .unwrap_or(false)
    }

    /// Same username: compared trimmed and ignoring case.
    pub fn username_matches(&self, username: &str) -> bool {
        let wanted = username.trim().to_lowercase();
        self.record
            .get("username")
            .and_then(Value::as_str)
            .is_some_and(|u| u.trim().to_lowercase() == wanted)
    }

    /// Adds an enrolment unless the account already has this course.
    pub fn enrol(&mut self, course_id: &str, at_ms: i64) {
        let courses = self
            .record
            .entry("myCourses")
            .or_insert_with(|| Value::Array(Vec::new()));
        if !courses.is_array() {
            *courses = Value::Array(Vec::new());
        }
        if let Value::Array(items) = courses {
            let present = items
                .iter()
                .any(|c| c.get("courseId").and_then(Value::as_str) == Some(course_id));
            if !present {
                items.push(json!({
                    "courseId": course_id,
                    "activatedDate": iso(at_ms),
                    "expiredAt": iso(at_ms + ENROLMENT_DAYS * DAY_MS),
                }));
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct Course {
    pub id: String,
    pub seq: u64,
    pub created_ms: i64,
    pub record: Map<String, Value>,
}

impl Course {
    pub fn title(&self) -> &str {
        self.record
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

#[derive(Debug, Clone)]
pub struct TokenInfo {
    pub account_id: String,
    pub expired: bool,
    /// Expiry reported by login.
    pub expires_ms: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    Delay,
    Html500,
    Truncated,
    Close,
    Status,
    RespCode,
    /// The endpoint answers its own "Server not able to authenticate your account" code.
    AuthFail,
    /// create-multi-user answers 10 "Server is not able to check your website resources".
    ResourceFail,
    /// create-multi-user: every item that would succeed fails with `Server error in create new use`.
    ItemError,
    /// The request runs (a create is committed), then the connection is closed before any byte
    /// of the answer.
    Drop,
    /// The connection is reset (TCP RST) before the request runs.
    Reset,
    /// Head and half the body, a stall of `delay_ms`, then the rest.
    StallBody,
    /// The answer padded (in its `msg`) to exactly `bytes` bytes, streamed.
    Huge,
    /// The answer with bytes that are not UTF-8 at the start of its `msg`.
    BadUtf8,
    /// A redirect to `/_emulator/redirect-loop`, which redirects to itself.
    Redirect,
    /// A list answers the page at `start=0`, whatever `start` asks: the same full page for ever.
    SamePage,
    /// A list answers the page `back` records before the asked `start`: overlapping pages.
    Overlap,
}

impl FaultKind {
    pub fn parse(s: &str) -> Option<FaultKind> {
        Some(match s {
            "delay" => FaultKind::Delay,
            "html500" => FaultKind::Html500,
            "truncated" => FaultKind::Truncated,
            "close" => FaultKind::Close,
            "status" => FaultKind::Status,
            "respcode" => FaultKind::RespCode,
            "authfail" => FaultKind::AuthFail,
            "resourcefail" => FaultKind::ResourceFail,
            "itemerror" => FaultKind::ItemError,
            "drop" => FaultKind::Drop,
            "reset" => FaultKind::Reset,
            "stallbody" => FaultKind::StallBody,
            "huge" => FaultKind::Huge,
            "badutf8" => FaultKind::BadUtf8,
            "redirect" => FaultKind::Redirect,
            "samepage" => FaultKind::SamePage,
            "overlap" => FaultKind::Overlap,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone)]
pub struct Fault {
    pub endpoint: String,
    pub remaining: u32,
    pub kind: FaultKind,
    pub delay_ms: u64,
    pub status: Option<u16>,
    pub retry_after: Option<u64>,
    /// `respcode`: any JSON value (a number gives the numeric-respCode case).
    pub resp_code: Value,
    pub msg: String,
    /// `huge`: the size of the body.
    pub bytes: u64,
    /// `huge`: stream without Content-Length.
    pub chunked: bool,
    /// `overlap`: how many records before the asked `start` the page starts.
    pub back: u64,
}

/// A call of an endpoint the platform asks to space out (create-multi-user,
/// create-user-login-token, create-single-user), as the control API reports it.
#[derive(Debug, Clone)]
pub struct LoggedCall {
    pub at_ms: i64,
    /// The caller's token cut to 4 characters and `…` (the log never holds a whole token).
    pub token_prefix: String,
    /// The member that says what the call was about: `("items", n)`, `("userId", id)`.
    pub detail: (&'static str, Value),
}

impl LoggedCall {
    pub fn now(token: &str, detail: (&'static str, Value)) -> LoggedCall {
        let prefix: String = token.chars().take(4).collect();
        LoggedCall {
            at_ms: crate::util::now_ms(),
            token_prefix: format!("{prefix}…"),
            detail,
        }
    }
}

#[derive(Debug)]
pub struct Inner {
    pub accounts: Vec<Account>,
    pub courses: Vec<Course>,
    pub tokens: HashMap<String, TokenInfo>,
    pub capacity: usize,
    pub faults: Vec<Fault>,
    pub create_calls: Vec<LoggedCall>,
    pub login_token_calls: Vec<LoggedCall>,
    pub single_create_calls: Vec<LoggedCall>,
    /// One-time login tokens issued by create-user-login-token and not yet used: token -> account id.
    pub login_tokens: HashMap<String, String>,
    pub rng: Rng,
    pub seq: u64,
}

impl Inner {
    pub fn new(cfg: &Config, seed: Seed) -> Inner {
        let data = seed::build(seed);
        let seq = (data.accounts.len() + data.courses.len()) as u64;
        let far = crate::util::now_ms() + 90 * DAY_MS;
        let mut tokens = HashMap::new();
        tokens.insert(
            cfg.admin_token.clone(),
            TokenInfo {
                account_id: data.admin_id.clone(),
                expired: false,
                expires_ms: far,
            },
        );
        tokens.insert(
            cfg.user_token.clone(),
            TokenInfo {
                account_id: data.user_id.clone(),
                expired: false,
                expires_ms: far,
            },
        );
        tokens.insert(
            cfg.expired_token.clone(),
            TokenInfo {
                account_id: data.admin_id,
                expired: true,
                expires_ms: crate::util::ms_at(2024, 1, 1, 0, 0, 0),
            },
        );
        Inner {
            accounts: data.accounts,
            courses: data.courses,
            tokens,
            capacity: cfg.capacity,
            faults: Vec::new(),
            create_calls: Vec::new(),
            login_token_calls: Vec::new(),
            single_create_calls: Vec::new(),
            login_tokens: HashMap::new(),
            rng: Rng::from_clock(),
            seq,
        }
    }

    pub fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    pub fn account(&self, id: &str) -> Option<&Account> {
        self.accounts.iter().find(|a| a.id == id)
    }

    pub fn account_mut(&mut self, id: &str) -> Option<&mut Account> {
        self.accounts.iter_mut().find(|a| a.id == id)
    }

    pub fn course(&self, id: &str) -> Option<&Course> {
        self.courses.iter().find(|c| c.id == id)
    }

    /// Accounts, newest `createdAt` first.
    pub fn accounts_newest_first(&self) -> Vec<&Account> {
        let mut v: Vec<&Account> = self.accounts.iter().collect();
        v.sort_by_key(|x| std::cmp::Reverse((x.created_ms, x.seq)));
        v
    }

    /// Courses, newest `createdAt` first.
    pub fn courses_newest_first(&self) -> Vec<&Course> {
        let mut v: Vec<&Course> = self.courses.iter().collect();
        v.sort_by_key(|x| std::cmp::Reverse((x.created_ms, x.seq)));
        v
    }

    /// Takes one use of the first pending fault for `endpoint`.
    pub fn take_fault(&mut self, endpoint: &str) -> Option<Fault> {
        let idx = self
            .faults
            .iter()
            .position(|f| f.endpoint == endpoint && f.remaining > 0)?;
        let f = &mut self.faults[idx];
        f.remaining -= 1;
        let taken = f.clone();
        if f.remaining == 0 {
            self.faults.remove(idx);
        }
        Some(taken)
    }
}

/// The emulator's state, shared by every request: its configuration and its data.
#[derive(Clone)]
pub struct AppState {
    /// The configuration it was started with.
    pub cfg: Arc<Config>,
    inner: Arc<Mutex<Inner>>,
}

impl AppState {
    /// The state `cfg` starts with (its seed's data).
    pub fn new(cfg: Config) -> AppState {
        let inner = Inner::new(&cfg, cfg.seed);
        AppState {
            cfg: Arc::new(cfg),
            inner: Arc::new(Mutex::new(inner)),
        }
    }

    /// Locks the state; a poisoned lock is recovered (no handler panics on request data).
    pub fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Restores the seeded state: accounts, courses, tokens, capacity, faults and call logs.
    pub fn reset(&self, seed: Seed) {
        let fresh = Inner::new(&self.cfg, seed);
        *self.lock() = fresh;
    }
}
