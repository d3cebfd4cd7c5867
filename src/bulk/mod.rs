//! Bulk work beyond 100 rows: resumable, sans-IO import and grant engines.
//!
//! The API takes at most 100 accounts a call and asks for 10 minutes between account-creation
//! calls, so an import of thousands of rows is a job of hours that will be interrupted. The
//! engines here make such a job impossible to get wrong: every row ends up created exactly once or
//! reported, whatever happens in between.
//!
//! Like quinn-proto, an engine does no I/O and reads no clock: the caller passes `now`
//! (milliseconds since the epoch) into [`ImportJob::poll`], performs the [`Action`] it gets, and
//! hands the answer back with `handle_response(now, status, body, date)` (`date`: the answer's
//! `Date` header in ms since the epoch, [`http_date`]: the platform's clock) or
//! `handle_failure(now, failure)`. The same inputs always give the same outputs.
//!
//! # Rules
//!
//! - **Persist before acting.** [`Action::Persist`] hands out journal events; the caller appends
//!   them to durable storage (flushed) *before* it polls again. The engine never hands out a
//!   request while events are unpersisted, so a `chunkSending` event is always on disk before its
//!   chunk is sent. If persisting fails, stop driving: the job resumes from what is on disk.
//! - **Set aside, never block.** Rows with contract-level issues, and rows repeating an e-mail
//!   (trimmed, case-insensitive) or a username (trimmed) of an earlier row anywhere in the input,
//!   are set aside with their issues; platform-level findings are reported as warnings and, with
//!   [`ImportOptions::set_aside_platform`], set aside too. The other rows go on.
//! - **Chunks and interval.** At most [`ImportOptions::chunk_size`] rows a call, one call per
//!   [`ImportOptions::interval_ms`] (the contract's 10 minutes by default), counted from when the
//!   last call *ended* (`ChunkEnded`: its answer, or its give-up), since the platform counts from
//!   when it handled the call; a call the journal shows sent and never ended counts from the
//!   restart. A stored time more than a minute ahead of `now` (the journal's, or a hold from a
//!   shared store, [`ImportJob::hold_until`]) is refused as damaged with a warning in
//!   [`Progress`]: the next call waits one interval from now.
//! - **In doubt, look before sending again.** A chunk whose answer was lost (network error,
//!   timeout, abort, an unreadable reply, or a process killed after `ChunkSending`) is in doubt,
//!   as is a row no item of an answer can be proven to be (items are matched by their e-mail and
//!   username echo, not by position). Right before the next send may go (after the interval's
//!   wait) each row in doubt is looked up (`search-user` by e-mail, then by username); not found
//!   means sent again. A row sent again after a doubt that fails with "already in use" is looked
//!   up once more.
//! - **Whose account** (one judge, `judge.rs`, for every engine): a found account is the job's
//!   only when it has the row's e-mail and username and its `createdAt` falls inside the window
//!   of one of the row's sends in doubt (from `ChunkSending` to `ChunkEnded`, plus 2 minutes
//!   after a lost answer's give-up), read on this machine's clock through the offset measured
//!   from the answers' `Date` headers, within 2 s. A row the journal never sent is never the
//!   job's ("already in use" is reported as the platform said it). An account outside every
//!   window is a conflict, reported and never overwritten, or, when the clocks cannot be
//!   compared (no `Date`) or it gives no time, in doubt with the account to check. The report
//!   says `created` only for an account the job can show it made.
//! - **Resume.** [`ImportJob::resume`] rebuilds the state from the same input and the journal:
//!   finished rows are skipped, in-doubt rows are looked up (right before the next send). A journal that names rows the input
//!   does not hold (another file) is refused with [`JournalError`]. Rows the journal does not name
//!   may change between runs (fixing set-aside rows is the expected workflow).
//! - **One request at a time.** Each `Send`/`Lookup` gets exactly one `handle_*` call; polling
//!   in between answers [`Action::Busy`].
//! - **Cancel** by no longer driving the job (an aborted request in flight may be handed back as
//!   [`Failure::Aborted`] first); the journal resumes it.
//! - **Progress** ([`Progress`], after every change; the first at the first poll) says what a
//!   screen shows: the counts, the chunk out and since when, rows in doubt and the row looked up
//!   now, failures in a row and the last one's note, the next send counted from the answer; a
//!   time not known is absent.
//! - **Failures in a row.** Lost answers, refusals that may pass and failed look-ups are tried
//!   again after [`ImportOptions::retry_delay_ms`]; after [`ImportOptions::attempts`] in a row,
//!   and at once on a refusal that cannot pass (invalid token, no permission), the run stops with
//!   the reason in the report's `halted` (and, for a refusal, its category in `haltedBy`), rows
//!   not sent reported as such. A refusal means the server did nothing, so those rows are simply
//!   sent on resume.
//! - Every text of the server the journal or the report keeps (statuses, account ids, a found
//!   account) is redacted of the token as errors keep such texts ([`crate::error::redact`]).
//! - The journal never holds a password: rows are named by index, e-mail and username
//!   ([`PlannedRow`]); a grant's by account id.
//! - **Grants** ([`GrantJob`]) go the same way through add-courses, 100 accounts a call, no
//!   interval by default; a grant chunk in doubt is sent again without look-ups, since granting
//!   a course twice is harmless.
//!
//! # Driving loop
//!
//! ```
//! use lpm_client::bulk::{Action, ImportJob, ImportOptions};
//! use lpm_client::{Planner, NewUser};
//!
//! let api = Planner::new("https://school.example.com").unwrap().with_token("t0k3n-0123").unwrap();
//! let rows = vec![NewUser {
//!     name: "Lan Anh".into(), username: "lananh".into(), email: "lan@example.com".into(),
//!     password: "secret-123".into(), phone: None, city: None, district: None, street: None,
//!     gender: None, job: None,
//! }];
//! let mut job = ImportJob::new(api, rows, ImportOptions::default()).unwrap();
//! let mut journal = Vec::new(); // your durable, append-only store
//! let now = 1_700_000_000_000;
//! let report = loop {
//!     match job.poll(now) {
//!         Action::Persist(events) => journal.extend(events), // append + flush, then poll again
//!         Action::Send(request) => {
//!             // POST request.url() with request.body(); here the server created the account:
//!             let body = br#"{"respCode":"00","msg":"1 success, 0 error","users":[{"email":"lan@example.com","username":"lananh","userId":"u1","success":true,"status":"Success created"}]}"#;
//!             job.handle_response(now, 200, body, None).unwrap();
//!         }
//!         Action::Lookup(_request) => unreachable!("nothing is in doubt here"),
//!         Action::Wait { until } => unreachable!("one chunk never waits: {until}"),
//!         Action::Busy => unreachable!("one request at a time"),
//!         Action::Done(report) => break report,
//!     }
//!     while let Some(progress) = job.poll_event() {
//!         let _ = progress.remaining; // show it
//!     }
//! };
//! assert_eq!(report.counts.created, 1);
//! ```

use serde::{Deserialize, Serialize};

use crate::interval::CREATE_INTERVAL_MS;
use crate::plan::MAX_PAGE;
use crate::validate::{Issue, IssueCode, Lang, Level, PathSegment};

mod answer;
mod grant;
mod import;
mod journal;
mod judge;
mod ledger;
pub mod read;
mod sync;

pub use grant::{GrantJob, GrantOptions, GrantReport, GrantRowReport};
pub use import::{ImportJob, ImportOptions, ImportReport, RowIssues, RowReport};
pub use journal::{DoubtReason, Event, Existing, FoundAccount, LookupOutcome, Outcome, PlannedRow};
pub use judge::http_date;
pub use sync::{SyncAction, SyncCounts, SyncJob, SyncOptions, SyncReport, SyncRowReport};

/// The contract's interval between two create calls, in whole milliseconds (from
/// [`crate::interval::CREATE_INTERVAL_MS`]).
pub const DEFAULT_CREATE_INTERVAL_MS: u64 = CREATE_INTERVAL_MS as u64;

/// The most rows one call takes (the contract's 100).
pub const MAX_CHUNK: usize = MAX_PAGE as usize;

/// What the caller does next.
#[derive(Debug)]
#[must_use]
pub enum Action<L, R> {
    /// Append these journal events to durable storage (flushed), then poll again.
    Persist(Vec<Event>),
    /// Send this request and hand the answer to `handle_response` or `handle_failure`.
    Send(crate::plan::Request<L>),
    /// Send this look-up (a GET) and hand the answer back the same way.
    Lookup(crate::plan::Request<crate::reply::UserReply>),
    /// Nothing to do before `until` (ms); poll again then.
    Wait {
        /// When to poll again.
        until: u64,
    },
    /// A request is out: hand its answer back before polling again.
    Busy,
    /// The job is over; the report has one entry per input row.
    Done(R),
}

impl<L> Action<L, ()> {
    /// The same action, of a job whose end carries a report (none: `Done` is not passed here).
    pub(crate) fn without_report<R>(self) -> Action<L, R> {
        match self {
            Action::Persist(events) => Action::Persist(events),
            Action::Send(r) => Action::Send(r),
            Action::Lookup(r) => Action::Lookup(r),
            Action::Wait { until } => Action::Wait { until },
            Action::Busy | Action::Done(()) => Action::Busy,
        }
    }
}

/// The import's action: create chunks, look-ups, the import report.
pub type ImportAction = Action<crate::endpoint::CreateUsersReply, ImportReport>;
/// The grant's action (it never looks up).
pub type GrantAction = Action<crate::endpoint::AddCoursesReply, GrantReport>;

/// What happened to one input row, in a final report.
#[derive(Clone, Debug, PartialEq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum RowResult {
    /// Import: created (by the create answer, or found by a look-up after a lost answer).
    Created {
        /// The account's id.
        user_id: String,
    },
    /// Grant: the account received the courses.
    Granted,
    /// Sync: the row's account existed (the same e-mail and username).
    Exists {
        /// The account's id.
        user_id: String,
    },
    /// Refused by the platform with this per-item status.
    Failed {
        /// The platform's status.
        status: String,
    },
    /// Grant: the answer had no result for the account.
    NoResult,
    /// Not sent: its issues (paths relative to the row).
    SetAside {
        /// The issues.
        issues: Vec<Issue>,
    },
    /// Import: another account holds the row's e-mail or username; it was not touched.
    Conflict {
        /// That account.
        existing: Existing,
    },
    /// Import: sent, outcome unknown and not resolved in this run (never sent again before a
    /// look-up: resume to look it up), or an account found with the row's data that the job
    /// cannot show it made (`existing`: check it).
    InDoubt {
        /// Why it is unresolved.
        reason: String,
        /// The account found, when one was: a person checks whether it is the row's.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "wasm", tsify(optional))]
        existing: Option<Existing>,
    },
    /// Not sent because the run stopped (the report's `halted`); resume to send it.
    NotSent {
        /// Why.
        reason: String,
    },
}

/// Counts of a final report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    /// Input rows.
    pub total: usize,
    /// Import: accounts created.
    pub created: usize,
    /// Grant: accounts that received the courses.
    pub granted: usize,
    /// Refused by the platform (or, for a grant, missing from its answer).
    pub failed: usize,
    /// Set aside before sending.
    pub set_aside: usize,
    /// Import: conflicts with existing accounts.
    pub conflicts: usize,
    /// Import: unresolved doubts.
    pub in_doubt: usize,
    /// Not sent because the run stopped.
    pub not_sent: usize,
}

/// A request that got no HTTP answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, lpm_derive::SerializeUnit)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum Failure {
    /// The connection failed or dropped.
    Network,
    /// No answer in time.
    Timeout,
    /// The caller aborted the request.
    Aborted,
}

impl Failure {
    /// In words, for a report line.
    pub fn describe(self) -> &'static str {
        match self {
            Failure::Network => "the connection failed",
            Failure::Timeout => "no answer in time",
            Failure::Aborted => "aborted",
        }
    }
}

/// Where a job stands, for a progress bar and a screen that shows what the engine is doing:
/// the counts, a chunk out and since when, rows in doubt and the one looked up now, failures in
/// a row, and when the next send may go. A member that is not known is absent (never `null`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// Rows finished well (created, or granted): counted as soon as an answer or a look-up says.
    pub done: usize,
    /// Rows the platform refused, and conflicts.
    pub failed: usize,
    /// Rows set aside before sending.
    pub set_aside: usize,
    /// Rows whose outcome this run could not settle (reported in doubt), and accounts found that
    /// the job cannot show it made.
    pub unresolved: usize,
    /// Rows still to send or to look up.
    pub remaining: usize,
    /// Import: rows sent whose outcome is unknown, to be looked up (by this run, right before
    /// its next send) before anything is sent again.
    pub in_doubt: usize,
    /// The chunk sent and waiting for its answer, if one is out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub sending: Option<Sending>,
    /// Import: the row being looked up now (0-based), if a look-up is out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub looking_up: Option<usize>,
    /// Calls in a row that failed in a way that may pass (each is tried again after the retry
    /// delay; the run stops after the `attempts` option's number).
    pub retries: u32,
    /// The last such failure, in words, while failures are in a row.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub last_error: Option<String>,
    /// When the next call (a chunk, or the look-ups right before it) may go (ms), counted from
    /// the last call's answer; absent when nothing waits (a call is out, or may go now).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub next_send_at: Option<u64>,
    /// When the job should end (ms): the next chunk's time plus the remaining chunks'
    /// intervals; absent when nothing is left or a call is out (its answer's time is unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub estimated_end_at: Option<u64>,
    /// A stored time refused as damaged (a clock set back, a store written by a clock ahead).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub warning: Option<String>,
}

/// A chunk out: sent, its answer awaited.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Sending {
    /// Its rows (0-based).
    pub rows: Vec<usize>,
    /// When it left (ms).
    pub since: u64,
}

/// Why a job could not be set up or resumed.
#[derive(Clone, Debug, PartialEq)]
pub enum BulkError {
    /// `chunk_size` must be 1..=100.
    ChunkSize(usize),
    /// The planner has no token.
    NoToken,
    /// The grant's course list is not usable (its issues).
    Courses(Vec<Issue>),
    /// The input is not usable at all (its issues): rows that are not a list, a grant without
    /// an account list.
    Input(Vec<Issue>),
    /// The journal does not belong to this input, or is damaged.
    Journal(JournalError),
    /// `handle_*` was called while no request was out.
    NothingInFlight,
}

/// What kind of refusal a journal's is, for a program to branch on (`refusal` of the package's
/// `ConfigError`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, lpm_derive::SerializeUnit)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum JournalRefusal {
    /// It was written for another input (another number of rows, a row that differs now): most
    /// often the same sheet, edited since.
    OtherInput,
    /// It is the journal of another kind of job.
    OtherJob,
    /// It cannot be read as a job's journal (no start, events out of order, an event that
    /// cannot be read).
    Damaged,
    /// Its store failed to load or append it (a full disk, an I/O error: the error's `cause`);
    /// the package's journal stores give it.
    Store,
}

impl JournalRefusal {
    /// The name JS sees (`otherInput`).
    pub fn as_str(self) -> &'static str {
        self.serde_name()
    }
}

/// Why a journal was refused on resume.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JournalError {
    /// The first event is not the job's `started` event.
    NoStart,
    /// A sync's journal was written for other courses.
    Courses,
    /// The journal is of another kind of job (`import` vs `grant`).
    WrongJob {
        /// The journal's job.
        journal: String,
    },
    /// The journal was written for an input with another number of rows.
    RowCount {
        /// Rows the journal's input had.
        journal: usize,
        /// Rows given now.
        input: usize,
    },
    /// A row the journal names holds other data now: another input (0-based row).
    RowMismatch {
        /// The row.
        row: usize,
    },
    /// An event that cannot follow the ones before it (0-based event index).
    OutOfOrder {
        /// Index of the event in the journal.
        index: usize,
        /// What is wrong.
        detail: String,
    },
}

/// `n` in decimal (without `core::fmt`, for the wasm; the npm package's crate writes row numbers
/// with it).
#[doc(hidden)]
pub fn num(n: usize) -> String {
    let mut s = String::new();
    crate::json::push_uint(&mut s, n as u64);
    s
}

/// The issues' messages, `; `-separated.
fn joined(issues: &[Issue]) -> String {
    let messages: Vec<&str> = issues.iter().map(|i| i.message.as_str()).collect();
    messages.join("; ")
}

impl BulkError {
    /// In words (built without `core::fmt`, which would add kilobytes to the wasm).
    pub fn message(&self) -> String {
        match self {
            BulkError::ChunkSize(n) => {
                ["chunk size ", &num(*n), " is outside 1..=", &num(MAX_CHUNK)].concat()
            }
            BulkError::NoToken => "the planner has no API token".to_owned(),
            BulkError::Courses(issues) => {
                ["the course list is not usable: ", &joined(issues)].concat()
            }
            BulkError::Input(issues) => ["the input is not usable: ", &joined(issues)].concat(),
            BulkError::Journal(e) => ["the journal was refused: ", &e.message()].concat(),
            BulkError::NothingInFlight => "no request is out to take an answer for".to_owned(),
        }
    }
}

impl JournalError {
    /// What kind of refusal it is.
    pub fn refusal(&self) -> JournalRefusal {
        match self {
            JournalError::RowCount { .. }
            | JournalError::RowMismatch { .. }
            | JournalError::Courses => JournalRefusal::OtherInput,
            JournalError::WrongJob { .. } => JournalRefusal::OtherJob,
            JournalError::NoStart | JournalError::OutOfOrder { .. } => JournalRefusal::Damaged,
        }
    }

    /// In words.
    pub fn message(&self) -> String {
        match self {
            JournalError::NoStart => "it does not start with the job's `started` event".to_owned(),
            JournalError::Courses => "it was written for other courses: another sync?".to_owned(),
            JournalError::WrongJob { journal } => {
                ["it is the journal of another kind of job: `", journal, "`"].concat()
            }
            JournalError::RowCount { journal, input } => [
                "it was written for an input of ",
                &num(*journal),
                " rows, this input has ",
                &num(*input),
                ": another file?",
            ]
            .concat(),
            JournalError::RowMismatch { row } => [
                "row ",
                &num(row + 1),
                " holds another e-mail, username or account than the journal records: another file?",
            ]
            .concat(),
            JournalError::OutOfOrder { index, detail } => [
                "event ",
                &num(index + 1),
                " cannot follow the ones before it: ",
                detail,
            ]
            .concat(),
        }
    }
}

impl core::fmt::Display for BulkError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message())
    }
}

impl core::fmt::Display for JournalError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for BulkError {}
impl std::error::Error for JournalError {}

impl From<JournalError> for BulkError {
    fn from(e: JournalError) -> Self {
        BulkError::Journal(e)
    }
}

/// Checks a chunk size option.
fn check_chunk_size(n: usize) -> Result<usize, BulkError> {
    if (1..=MAX_CHUNK).contains(&n) {
        Ok(n)
    } else {
        Err(BulkError::ChunkSize(n))
    }
}

/// The `started` event's job names.
const IMPORT_JOB: &str = "import";
const GRANT_JOB: &str = "grant";

/// How many times a request failing for a reason that may pass is tried before the job gives up
/// for this run (the journal resumes it).
const DEFAULT_ATTEMPTS: u32 = 3;
/// How long to wait after such a failure before trying again.
const DEFAULT_RETRY_DELAY_MS: u64 = 30_000;

/// Chunks needed for `rows` rows.
fn chunks_for(rows: usize, chunk_size: usize) -> usize {
    rows.div_ceil(chunk_size.max(1))
}

/// An issue this module finds across the whole input: a repeat of an earlier row (its message
/// from the validator's table).
fn repeat_issue(code: IssueCode, field: &str, first_row: usize, level: Level, lang: Lang) -> Issue {
    // Rows in messages count from 1 for people.
    let message = crate::validate::message(code, field, first_row + 1, lang);
    Issue {
        path: if field.is_empty() {
            Vec::new()
        } else {
            vec![PathSegment::Key(field.to_owned())]
        },
        code,
        level,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::ser::value_json;

    /// What the wasm hands JS of a job (reports, progress, rows with issues) is written by
    /// `lpm_derive::WriteJson` as serde writes it.
    #[test]
    fn reports_are_written_as_serde_writes_them() {
        let issues = crate::rules::validate_create_users(
            &crate::json::parse(r#"[{"email":"x"}]"#).unwrap_or(crate::json::Value::Null),
            crate::rules::ValidateOptions::default(),
        )
        .issues;
        let existing = Existing {
            user_id: "u9".into(),
            username: "ann".into(),
            emails: vec!["a@x.vn".into(), "b@x.vn".into()],
        };
        let results = [
            RowResult::Created {
                user_id: "u1".into(),
            },
            RowResult::Granted,
            RowResult::Failed {
                status: "Email already in use \"x\"".into(),
            },
            RowResult::NoResult,
            RowResult::SetAside {
                issues: issues.clone(),
            },
            RowResult::Conflict { existing },
            RowResult::InDoubt {
                reason: "timeout".into(),
                existing: None,
            },
            RowResult::InDoubt {
                reason: "check".into(),
                existing: Some(Existing {
                    user_id: "u8".into(),
                    username: "an".into(),
                    emails: vec![],
                }),
            },
            RowResult::NotSent {
                reason: "halted".into(),
            },
        ];
        for halted in [None, Some("no token".to_owned())] {
            let report = GrantReport {
                rows: results
                    .iter()
                    .enumerate()
                    .map(|(row, result)| GrantRowReport {
                        row,
                        user_id: "é".into(),
                        result: result.clone(),
                    })
                    .collect(),
                counts: Counts {
                    total: 8,
                    created: 1,
                    ..Counts::default()
                },
                halted_by: halted
                    .as_ref()
                    .map(|_| crate::codes::Category::Authentication),
                halted,
            };
            assert_eq!(value_json(&report), serde_json::to_string(&report).unwrap());
        }
        let rows = vec![RowIssues {
            row: 3,
            issues: issues.clone(),
            warnings: Vec::new(),
        }];
        assert_eq!(value_json(&rows), serde_json::to_string(&rows).unwrap());
        for next_send_at in [None, Some(12)] {
            let p = Progress {
                done: 1,
                next_send_at,
                ..Progress::default()
            };
            assert_eq!(value_json(&p), serde_json::to_string(&p).unwrap());
            assert!(!value_json(&p).contains("null"), "absent, never null");
        }
        let busy = Progress {
            sending: Some(Sending {
                rows: vec![3, 4],
                since: 7,
            }),
            looking_up: Some(2),
            retries: 1,
            last_error: Some("no answer in time".into()),
            estimated_end_at: Some(9),
            warning: Some("clock".into()),
            ..Progress::default()
        };
        assert_eq!(value_json(&busy), serde_json::to_string(&busy).unwrap());
        let warned = RowReport {
            row: 0,
            email: "a@x.vn".into(),
            username: "ann".into(),
            result: RowResult::Granted,
            warnings: issues,
        };
        for r in [
            warned.clone(),
            RowReport {
                warnings: Vec::new(),
                ..warned
            },
        ] {
            assert_eq!(value_json(&r), serde_json::to_string(&r).unwrap());
        }
    }
}
