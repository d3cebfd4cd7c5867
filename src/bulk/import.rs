//! The account import: chunked create-multi-user with a journal, look-ups of rows in doubt, and
//! resume. The rules are in the module above.

use std::collections::{BTreeSet, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    check_chunk_size, check_start, chunks_for, out_of_order, repeat_issue, Action, BulkError,
    Failure, ImportAction, JournalError, Pacer, Progress, Queues, DEFAULT_ATTEMPTS,
    DEFAULT_CREATE_INTERVAL_MS, DEFAULT_RETRY_DELAY_MS, IMPORT_JOB, MAX_CHUNK,
};
use crate::codes::{Category, Reason};
use crate::error::{ApiError, Error};
use crate::model::{CreateStatus, NewUser, User};
use crate::plan::{Api, Request};
use crate::reply::{CreateUsersReply, UserReply};
use crate::validate::{self, Issue, Lang, Level, PathSegment, Report, ValidateOptions};

/// Options of an import.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ImportOptions {
    /// Rows per create call, 1..=100 (default 100).
    pub chunk_size: usize,
    /// Milliseconds between two create calls (default: the contract's 10 minutes).
    pub interval_ms: u64,
    /// Also set aside rows with platform-level findings (default `false`: they are sent and their
    /// findings reported as warnings, since the server may not enforce those rules).
    pub set_aside_platform: bool,
    /// Language of the issues' messages.
    pub lang: Lang,
    /// Wait after a failed look-up, and after a lost create answer before looking its rows up.
    pub retry_delay_ms: u64,
    /// Failures in a row (lost answers, refusals that may pass, failed look-ups) before the run
    /// stops; the journal resumes it.
    pub attempts: u32,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            chunk_size: MAX_CHUNK,
            interval_ms: DEFAULT_CREATE_INTERVAL_MS,
            set_aside_platform: false,
            lang: Lang::En,
            retry_delay_ms: DEFAULT_RETRY_DELAY_MS,
            attempts: DEFAULT_ATTEMPTS,
        }
    }
}

/// A row as the journal names it: its 0-based index, e-mail (trimmed, lower case) and username
/// (trimmed). Never its password.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedRow {
    /// 0-based index in the input.
    pub row: usize,
    /// E-mail, trimmed and lower case.
    pub email: String,
    /// Username, trimmed.
    pub username: String,
}

/// A row's final outcome, as journaled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Outcome {
    /// The account exists, created by this job.
    Created {
        /// Its id.
        user_id: String,
    },
    /// The platform refused the row (its per-item status, e.g. `Email already in use`).
    Failed {
        /// The platform's status.
        status: String,
    },
    /// A look-up found an account with this e-mail or username but other data: never overwritten.
    Conflict {
        /// The existing account's id.
        user_id: String,
        /// Its username.
        username: String,
        /// Its e-mail addresses.
        emails: Vec<String>,
    },
}

/// Why rows are in doubt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum DoubtReason {
    /// The create call got no answer.
    Transport {
        /// How it failed.
        failure: Failure,
    },
    /// The answer could not be read (not an envelope, or not the promised shape).
    Unreadable {
        /// Its HTTP status.
        status: u16,
    },
    /// The answer had no item for the row, or an item echoing another row.
    NoMatchingItem,
    /// The item says created but gives no id.
    NoUserId,
    /// The job stopped after `ChunkSending` and before the answer was journaled.
    Interrupted,
    /// Sent again after an earlier doubt, the row failed with "already in use": maybe the
    /// earlier send created it. `status` is the outcome if the look-up finds nothing.
    AlreadyInUse {
        /// The platform's status.
        status: String,
    },
}

/// What a look-up of a row in doubt found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum LookupOutcome {
    /// An account with the row's e-mail and username: created.
    Created {
        /// Its id.
        user_id: String,
    },
    /// An account with the row's e-mail or username but other data.
    Conflict {
        /// Its id.
        user_id: String,
        /// Its username.
        username: String,
        /// Its e-mail addresses.
        emails: Vec<String>,
    },
    /// No account by e-mail nor by username: the row is sent again in a later chunk.
    NotFound,
}

/// One journal event of an import. Persist every event handed out by [`Action::Persist`] before
/// polling again; give them all back, in order, to [`ImportJob::resume`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "event",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ImportEvent {
    /// The first event: the job and its input's size.
    Started {
        /// `"import"`.
        job: String,
        /// Rows in the input.
        rows: usize,
    },
    /// A chunk was formed from these rows.
    ChunkPlanned {
        /// Chunk number, increasing.
        chunk: u32,
        /// Its rows.
        rows: Vec<PlannedRow>,
    },
    /// The chunk is about to be sent (persist it before sending).
    ChunkSending {
        /// Chunk number.
        chunk: u32,
        /// When (ms).
        at: u64,
    },
    /// The server refused the whole call before processing it: nothing was created; the rows go
    /// back to be sent.
    ChunkRefused {
        /// Chunk number.
        chunk: u32,
        /// `respCode`.
        code: String,
        /// `msg`.
        msg: String,
    },
    /// Rows of a sent chunk whose outcome is unknown: they are looked up before anything is sent.
    RowsInDoubt {
        /// Chunk number.
        chunk: u32,
        /// The rows.
        rows: Vec<usize>,
        /// Why.
        reason: DoubtReason,
    },
    /// A row's outcome from the create answer.
    RowOutcome {
        /// The row.
        row: usize,
        /// Its outcome.
        outcome: Outcome,
    },
    /// A look-up's finding for a row in doubt.
    LookupResult {
        /// The row.
        row: usize,
        /// What was found.
        result: LookupOutcome,
    },
}

/// What happened to one row, in the final report.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum RowResult {
    /// Created (by the create answer, or found by a look-up after a lost answer).
    Created {
        /// The account's id.
        user_id: String,
    },
    /// Refused by the platform with this per-item status.
    Failed {
        /// The platform's status.
        status: String,
    },
    /// Not sent: its issues.
    SetAside {
        /// The issues (paths relative to the row).
        issues: Vec<Issue>,
    },
    /// Another account holds its e-mail or username.
    Conflict {
        /// That account's id.
        user_id: String,
        /// Its username.
        username: String,
        /// Its e-mail addresses.
        emails: Vec<String>,
    },
    /// Sent, outcome unknown and not resolved in this run: resume to look it up again. Never
    /// sent again before that.
    InDoubt {
        /// Why it is unresolved.
        reason: String,
    },
    /// Not sent because the run stopped (see [`ImportReport::halted`]); resume to send it.
    NotSent {
        /// Why.
        reason: String,
    },
}

/// One input row in the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RowReport {
    /// 0-based index in the input.
    pub row: usize,
    /// Its e-mail (trimmed).
    pub email: String,
    /// Its username (trimmed).
    pub username: String,
    /// What happened.
    pub result: RowResult,
    /// Platform-level findings of a row that was sent anyway.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Issue>,
}

/// Counts of the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportCounts {
    /// Input rows.
    pub total: usize,
    /// Created.
    pub created: usize,
    /// Refused by the platform.
    pub failed: usize,
    /// Set aside before sending.
    pub set_aside: usize,
    /// Conflicts with existing accounts.
    pub conflicts: usize,
    /// Unresolved doubts.
    pub in_doubt: usize,
    /// Not sent because the run stopped.
    pub not_sent: usize,
}

/// The final report: one entry per input row, in input order, and counts.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    /// One entry per input row.
    pub rows: Vec<RowReport>,
    /// Counts.
    pub counts: ImportCounts,
    /// Why the run stopped before the end (e.g. an invalid token), if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub halted: Option<String>,
}

/// Where a row stands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    SetAside,
    Pending,
    Planned(u32),
    Sent(u32),
    /// To look up; `recheck` is the status to report when nothing is found.
    InDoubt {
        recheck: Option<String>,
    },
    /// In doubt, and the look-up cannot be made in this run (not journaled).
    Unresolved(String),
    Done(Outcome),
}

/// The progress bucket of a state.
#[derive(Clone, Copy)]
enum Bucket {
    Done,
    Failed,
    SetAside,
    Unresolved,
    Remaining,
}

impl State {
    fn bucket(&self) -> Bucket {
        match self {
            State::SetAside => Bucket::SetAside,
            State::Done(Outcome::Created { .. }) => Bucket::Done,
            State::Done(_) => Bucket::Failed,
            State::Unresolved(_) => Bucket::Unresolved,
            _ => Bucket::Remaining,
        }
    }
}

struct Slot {
    value: Value,
    /// Trimmed as given (what is searched).
    email: String,
    /// Trimmed, lower case (what is compared).
    email_key: String,
    /// Trimmed.
    username: String,
    issues: Vec<Issue>,
    warnings: Vec<Issue>,
    state: State,
    /// An earlier send of the row was in doubt: it may exist already.
    was_in_doubt: bool,
}

enum InFlight {
    Create {
        chunk: u32,
        rows: Vec<usize>,
        request: Request<CreateUsersReply>,
    },
    Lookup {
        row: usize,
        by_email: bool,
        request: Request<UserReply>,
    },
}

/// A resumable account import. See the module docs for the driving loop and the rules.
pub struct ImportJob {
    api: Api,
    opts: ImportOptions,
    slots: Vec<Slot>,
    pending: BTreeSet<usize>,
    in_doubt: BTreeSet<usize>,
    buckets: [usize; 5],
    next_chunk: u32,
    /// The last planned chunk and its rows.
    last_chunk: Option<(u32, Vec<usize>)>,
    pacer: Pacer,
    /// Look-ups wait until then (after a failure, or to let a lost create settle).
    lookup_not_before: u64,
    send_failures: u32,
    lookup_failures: u32,
    /// A cap on the chunk from a "only n free slots" refusal.
    slot_cap: Option<usize>,
    halted: Option<String>,
    ready: Option<InFlight>,
    in_flight: Option<InFlight>,
    queues: Queues<ImportEvent>,
}

/// The one call into validation: a row's findings, platform rules included.
fn validate_row(row: &Value, lang: Lang) -> Report {
    validate::validate_create_user(
        row,
        ValidateOptions {
            lang,
            platform_rules: true,
        },
    )
}

fn text(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .unwrap_or_default()
        .to_owned()
}

/// Compares a found account with a row: the same e-mail (any of its addresses) and username,
/// both ignoring case and surrounding spaces (the platform's accounts match both so).
fn judge(slot: &Slot, user: &User) -> LookupOutcome {
    let email = user
        .emails
        .iter()
        .any(|e| e.address.trim().to_lowercase() == slot.email_key);
    let username = user.username.trim().to_lowercase() == slot.username.to_lowercase();
    if email && username {
        LookupOutcome::Created {
            user_id: user.id.clone(),
        }
    } else {
        LookupOutcome::Conflict {
            user_id: user.id.clone(),
            username: user.username.clone(),
            emails: user.emails.iter().map(|e| e.address.clone()).collect(),
        }
    }
}

impl ImportJob {
    /// A new import of typed rows.
    pub fn new(
        api: Api,
        rows: Vec<NewUser>,
        options: ImportOptions,
    ) -> Result<ImportJob, BulkError> {
        Self::from_values(api, rows.iter().map(to_value).collect(), options)
    }

    /// A new import of raw JSON rows (a form's or a CSV reader's objects); rows that are not
    /// objects or miss fields are set aside with their issues.
    pub fn from_values(
        api: Api,
        rows: Vec<Value>,
        options: ImportOptions,
    ) -> Result<ImportJob, BulkError> {
        let mut job = Self::build(api, rows, options)?;
        let rows = job.slots.len();
        job.record(ImportEvent::Started {
            job: IMPORT_JOB.to_owned(),
            rows,
        });
        job.push_progress(0);
        Ok(job)
    }

    /// Rebuilds an import from the same input and its journal (every event persisted, in order).
    /// An empty journal starts afresh. Refused when the journal names rows this input does not
    /// hold as it recorded them.
    pub fn resume(
        api: Api,
        rows: Vec<NewUser>,
        options: ImportOptions,
        journal: &[ImportEvent],
    ) -> Result<ImportJob, BulkError> {
        Self::resume_values(api, rows.iter().map(to_value).collect(), options, journal)
    }

    /// [`ImportJob::resume`] with raw JSON rows.
    pub fn resume_values(
        api: Api,
        rows: Vec<Value>,
        options: ImportOptions,
        journal: &[ImportEvent],
    ) -> Result<ImportJob, BulkError> {
        if journal.is_empty() {
            return Self::from_values(api, rows, options);
        }
        let mut job = Self::build(api, rows, options)?;
        for (index, event) in journal.iter().enumerate() {
            if index == 0 && !matches!(event, ImportEvent::Started { .. }) {
                return Err(JournalError::NoStart.into());
            }
            job.apply(index, event)?;
        }
        job.settle_after_replay();
        job.push_progress(0);
        Ok(job)
    }

    fn build(api: Api, rows: Vec<Value>, opts: ImportOptions) -> Result<ImportJob, BulkError> {
        check_chunk_size(opts.chunk_size)?;
        if api.token().is_none() {
            return Err(BulkError::NoToken);
        }
        let lang = opts.lang;
        let mut slots = Vec::with_capacity(rows.len());
        // First row of each key among rows that will be sent.
        let mut emails: HashMap<String, usize> = HashMap::new();
        let mut usernames: HashMap<String, usize> = HashMap::new();
        let mut usernames_lc: HashMap<String, usize> = HashMap::new();
        for (i, value) in rows.into_iter().enumerate() {
            let report = validate_row(&value, lang);
            let (mut issues, mut warnings): (Vec<Issue>, Vec<Issue>) = report
                .issues
                .into_iter()
                .partition(|issue| issue.level == Level::Contract);
            let email = text(&value, "email");
            let email_key = email.to_lowercase();
            let username = text(&value, "username");
            if issues.is_empty() {
                if let Some(&first) = emails.get(&email_key) {
                    issues.push(repeat_issue(
                        "duplicate_email",
                        "email",
                        first,
                        Level::Contract,
                        lang,
                    ));
                } else if let Some(&first) = usernames.get(&username) {
                    issues.push(repeat_issue(
                        "duplicate_username",
                        "username",
                        first,
                        Level::Contract,
                        lang,
                    ));
                } else if let Some(&first) = usernames_lc.get(&username.to_lowercase()) {
                    warnings.push(repeat_issue(
                        "duplicate_username",
                        "username",
                        first,
                        Level::Platform,
                        lang,
                    ));
                }
            }
            if opts.set_aside_platform && issues.is_empty() && !warnings.is_empty() {
                issues.append(&mut warnings);
            }
            let state = if issues.is_empty() {
                emails.insert(email_key.clone(), i);
                usernames.insert(username.clone(), i);
                usernames_lc.entry(username.to_lowercase()).or_insert(i);
                State::Pending
            } else {
                State::SetAside
            };
            slots.push(Slot {
                value,
                email,
                email_key,
                username,
                issues,
                warnings,
                state,
                was_in_doubt: false,
            });
        }
        let mut buckets = [0; 5];
        let mut pending = BTreeSet::new();
        for (i, s) in slots.iter().enumerate() {
            buckets[s.state.bucket() as usize] += 1;
            if s.state == State::Pending {
                pending.insert(i);
            }
        }
        Ok(ImportJob {
            api,
            pacer: Pacer::new(opts.interval_ms),
            opts,
            slots,
            pending,
            in_doubt: BTreeSet::new(),
            buckets,
            next_chunk: 0,
            last_chunk: None,
            lookup_not_before: 0,
            send_failures: 0,
            lookup_failures: 0,
            slot_cap: None,
            halted: None,
            ready: None,
            in_flight: None,
            queues: Queues::default(),
        })
    }

    /// Moves a row to a new state, keeping the indexes and counters.
    fn set_state(&mut self, row: usize, state: State) {
        let slot = &mut self.slots[row];
        self.buckets[slot.state.bucket() as usize] -= 1;
        self.buckets[state.bucket() as usize] += 1;
        match state {
            State::Pending => {
                self.pending.insert(row);
                self.in_doubt.remove(&row);
            }
            State::InDoubt { .. } => {
                self.in_doubt.insert(row);
                self.pending.remove(&row);
            }
            _ => {
                self.pending.remove(&row);
                self.in_doubt.remove(&row);
            }
        }
        slot.state = state;
    }

    /// Applies one event to the state: the same code runs live and on replay, so a resumed job
    /// is in the state the interrupted one was in.
    fn apply(&mut self, index: usize, event: &ImportEvent) -> Result<(), JournalError> {
        let len = self.slots.len();
        let row_ok = |row: usize| {
            if row < len {
                Ok(row)
            } else {
                Err(out_of_order(
                    index,
                    format!("row {row} is outside the input"),
                ))
            }
        };
        match event {
            ImportEvent::Started { job, rows } => {
                if index != 0 {
                    return Err(out_of_order(index, "a second `started` event"));
                }
                check_start(job, *rows, IMPORT_JOB, len)?;
            }
            ImportEvent::ChunkPlanned { chunk, rows } => {
                if *chunk < self.next_chunk {
                    return Err(out_of_order(
                        index,
                        format!("chunk {chunk} is planned again"),
                    ));
                }
                // A chunk planned and never sent gave its rows back.
                if let Some((_, old)) = self.last_chunk.take() {
                    for r in old {
                        if matches!(self.slots[r].state, State::Planned(_)) {
                            self.set_state(r, State::Pending);
                        }
                    }
                }
                let mut planned = Vec::with_capacity(rows.len());
                for p in rows {
                    let r = row_ok(p.row)?;
                    let slot = &self.slots[r];
                    if slot.email_key != p.email || slot.username != p.username {
                        return Err(JournalError::RowMismatch { row: r });
                    }
                    // A row set aside now may have been sent by an earlier run (other options):
                    // the journal wins.
                    if !matches!(slot.state, State::Pending | State::SetAside) {
                        return Err(out_of_order(
                            index,
                            format!("row {r} is planned while not pending"),
                        ));
                    }
                    self.set_state(r, State::Planned(*chunk));
                    planned.push(r);
                }
                self.next_chunk = chunk.saturating_add(1);
                self.last_chunk = Some((*chunk, planned));
            }
            ImportEvent::ChunkSending { chunk, at } => {
                let Some((c, rows)) = self.last_chunk.clone().filter(|(c, _)| c == chunk) else {
                    return Err(out_of_order(
                        index,
                        format!("chunk {chunk} is sent but not planned last"),
                    ));
                };
                for r in rows {
                    if self.slots[r].state == State::Planned(c) {
                        self.set_state(r, State::Sent(c));
                    }
                }
                self.pacer.last_send_at = Some(self.pacer.last_send_at.unwrap_or(0).max(*at));
            }
            ImportEvent::ChunkRefused { chunk, .. } => {
                let Some((c, rows)) = self.last_chunk.clone().filter(|(c, _)| c == chunk) else {
                    return Err(out_of_order(
                        index,
                        format!("chunk {chunk} is refused but not sent last"),
                    ));
                };
                for r in rows {
                    if self.slots[r].state == State::Sent(c) {
                        self.set_state(r, State::Pending);
                    }
                }
            }
            ImportEvent::RowsInDoubt {
                chunk,
                rows,
                reason,
            } => {
                let recheck = match reason {
                    DoubtReason::AlreadyInUse { status } => Some(status.clone()),
                    _ => None,
                };
                for &r in rows {
                    let r = row_ok(r)?;
                    if self.slots[r].state != State::Sent(*chunk) {
                        return Err(out_of_order(
                            index,
                            format!("row {r} is in doubt but not sent in chunk {chunk}"),
                        ));
                    }
                    self.slots[r].was_in_doubt = true;
                    self.set_state(
                        r,
                        State::InDoubt {
                            recheck: recheck.clone(),
                        },
                    );
                }
            }
            ImportEvent::RowOutcome { row, outcome } => {
                let r = row_ok(*row)?;
                if !matches!(self.slots[r].state, State::Sent(_)) {
                    return Err(out_of_order(
                        index,
                        format!("row {r} has an outcome but was not sent"),
                    ));
                }
                self.set_state(r, State::Done(outcome.clone()));
            }
            ImportEvent::LookupResult { row, result } => {
                let r = row_ok(*row)?;
                let State::InDoubt { recheck } = &self.slots[r].state else {
                    return Err(out_of_order(
                        index,
                        format!("row {r} is looked up but not in doubt"),
                    ));
                };
                let next = match (result, recheck) {
                    (LookupOutcome::Created { user_id }, _) => State::Done(Outcome::Created {
                        user_id: user_id.clone(),
                    }),
                    (
                        LookupOutcome::Conflict {
                            user_id,
                            username,
                            emails,
                        },
                        _,
                    ) => State::Done(Outcome::Conflict {
                        user_id: user_id.clone(),
                        username: username.clone(),
                        emails: emails.clone(),
                    }),
                    (LookupOutcome::NotFound, Some(status)) => State::Done(Outcome::Failed {
                        status: status.clone(),
                    }),
                    (LookupOutcome::NotFound, None) => State::Pending,
                };
                self.set_state(r, next);
            }
        }
        Ok(())
    }

    /// After a replay: rows of a chunk planned but never sent go back to pending; rows sent with
    /// no outcome are in doubt (journaled, so the next resume knows).
    fn settle_after_replay(&mut self) {
        let mut sent: Vec<(u32, Vec<usize>)> = Vec::new();
        for r in 0..self.slots.len() {
            match self.slots[r].state {
                State::Planned(_) => self.set_state(r, State::Pending),
                State::Sent(c) => match sent.iter_mut().find(|(k, _)| *k == c) {
                    Some((_, rows)) => rows.push(r),
                    None => sent.push((c, vec![r])),
                },
                _ => {}
            }
        }
        for (chunk, rows) in sent {
            self.record(ImportEvent::RowsInDoubt {
                chunk,
                rows,
                reason: DoubtReason::Interrupted,
            });
        }
    }

    /// Applies a live event and queues it for the journal.
    fn record(&mut self, event: ImportEvent) {
        let applied = self.apply(usize::MAX, &event);
        debug_assert!(applied.is_ok(), "live event refused: {applied:?}");
        self.queues.journal.push(event);
    }

    /// What to do next at `now` (ms). Persist what [`Action::Persist`] hands out before polling
    /// again.
    pub fn poll(&mut self, now: u64) -> ImportAction {
        loop {
            if !self.queues.journal.is_empty() {
                return Action::Persist(std::mem::take(&mut self.queues.journal));
            }
            if let Some(ready) = self.ready.take() {
                let action = match &ready {
                    InFlight::Create { request, .. } => Action::Send(request.clone()),
                    InFlight::Lookup { request, .. } => Action::Lookup(request.clone()),
                };
                self.in_flight = Some(ready);
                return action;
            }
            if self.in_flight.is_some() {
                return Action::Busy;
            }
            if self.halted.is_some() {
                return Action::Done(self.report());
            }
            // Every doubt is resolved before anything is sent again.
            if let Some(&row) = self.in_doubt.iter().next() {
                if now < self.lookup_not_before {
                    return Action::Wait {
                        until: self.lookup_not_before,
                    };
                }
                self.plan_lookup(row, true);
                continue;
            }
            if self.pending.is_empty() {
                return Action::Done(self.report());
            }
            let at = self.pacer.next_send_at();
            if now < at {
                return Action::Wait { until: at };
            }
            self.plan_chunk(now);
        }
    }

    fn plan_lookup(&mut self, row: usize, by_email: bool) {
        let slot = &self.slots[row];
        let planned = if by_email {
            self.api.search_user(Some(&slot.email), None)
        } else {
            self.api.search_user(None, Some(&slot.username))
        };
        match planned {
            Ok(request) => {
                self.ready = Some(InFlight::Lookup {
                    row,
                    by_email,
                    request,
                })
            }
            Err(e) => self.set_state(
                row,
                State::Unresolved(format!("the look-up could not be planned: {e}")),
            ),
        }
    }

    fn plan_chunk(&mut self, now: u64) {
        let size = self
            .slot_cap
            .map_or(self.opts.chunk_size, |cap| cap.min(self.opts.chunk_size));
        let rows: Vec<usize> = self.pending.iter().take(size).copied().collect();
        let values = Value::Array(rows.iter().map(|&r| self.slots[r].value.clone()).collect());
        match self.api.create_users_value(&values) {
            Ok(request) => {
                let chunk = self.next_chunk;
                let planned = rows
                    .iter()
                    .map(|&r| PlannedRow {
                        row: r,
                        email: self.slots[r].email_key.clone(),
                        username: self.slots[r].username.clone(),
                    })
                    .collect();
                self.record(ImportEvent::ChunkPlanned {
                    chunk,
                    rows: planned,
                });
                self.record(ImportEvent::ChunkSending { chunk, at: now });
                self.ready = Some(InFlight::Create {
                    chunk,
                    rows,
                    request,
                });
                self.push_progress(now);
            }
            Err(Error::Validation(v)) => {
                // The planner is stricter than this job's checks (e.g. strict platform rules):
                // the rows it names are set aside with its issues, the others stay pending.
                let whole = v.to_string();
                let mut named: HashMap<usize, Vec<Issue>> = HashMap::new();
                for mut issue in v.report.issues {
                    let Some(PathSegment::Index(i)) = issue.path.first().cloned() else {
                        continue;
                    };
                    if let Some(&r) = rows.get(i) {
                        issue.path.remove(0);
                        named.entry(r).or_default().push(issue);
                    }
                }
                if named.is_empty() {
                    self.halted = Some(format!("the chunk could not be planned: {whole}"));
                }
                for (r, issues) in named {
                    let slot = &mut self.slots[r];
                    slot.issues = issues;
                    self.set_state(r, State::SetAside);
                }
            }
            Err(e) => self.halted = Some(format!("the chunk could not be planned: {e}")),
        }
    }

    /// Hands back the HTTP answer of the request the last action handed out.
    pub fn handle_response(&mut self, now: u64, status: u16, body: &[u8]) -> Result<(), BulkError> {
        match self.in_flight.take().ok_or(BulkError::NothingInFlight)? {
            InFlight::Create {
                chunk,
                rows,
                request,
            } => match request.decode(status, body) {
                Ok(reply) => self.created(chunk, &rows, &reply),
                Err(Error::Api(e)) => self.refused(now, chunk, &rows, &e),
                Err(_) => self.lost(now, chunk, rows, DoubtReason::Unreadable { status }),
            },
            InFlight::Lookup {
                row,
                by_email,
                request,
            } => match request.decode(status, body) {
                Ok(reply) => {
                    self.lookup_failures = 0;
                    let result = judge(&self.slots[row], &reply.user);
                    self.record(ImportEvent::LookupResult { row, result });
                }
                Err(Error::Api(e)) if e.category == Category::NotFound => {
                    self.lookup_failures = 0;
                    if by_email {
                        self.plan_lookup(row, false);
                    } else {
                        self.record(ImportEvent::LookupResult {
                            row,
                            result: LookupOutcome::NotFound,
                        });
                    }
                }
                Err(e) => self.lookup_failed(now, e.to_string()),
            },
        }
        self.push_progress(now);
        Ok(())
    }

    /// Hands back a request that got no answer.
    pub fn handle_failure(&mut self, now: u64, failure: Failure) -> Result<(), BulkError> {
        match self.in_flight.take().ok_or(BulkError::NothingInFlight)? {
            InFlight::Create { chunk, rows, .. } => {
                self.lost(now, chunk, rows, DoubtReason::Transport { failure })
            }
            InFlight::Lookup { .. } => {
                self.lookup_failed(now, format!("the look-up failed: {failure:?}"))
            }
        }
        self.push_progress(now);
        Ok(())
    }

    fn created(&mut self, chunk: u32, rows: &[usize], reply: &CreateUsersReply) {
        self.send_failures = 0;
        let mut doubts: Vec<(DoubtReason, Vec<usize>)> = Vec::new();
        let mut doubt =
            |reason: DoubtReason, row: usize| match doubts.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, rows)) => rows.push(row),
                None => doubts.push((reason, vec![row])),
            };
        let mut outcomes = Vec::new();
        for (i, &row) in rows.iter().enumerate() {
            let slot = &self.slots[row];
            let item = reply.users.get(i).filter(|it| {
                it.email
                    .as_deref()
                    .is_none_or(|e| e.trim().to_lowercase() == slot.email_key)
                    && it
                        .username
                        .as_deref()
                        .is_none_or(|u| u.trim() == slot.username)
            });
            let Some(item) = item else {
                doubt(DoubtReason::NoMatchingItem, row);
                continue;
            };
            if item.success {
                match item.user_id.as_deref().filter(|id| !id.is_empty()) {
                    Some(id) => outcomes.push((
                        row,
                        Outcome::Created {
                            user_id: id.to_owned(),
                        },
                    )),
                    None => doubt(DoubtReason::NoUserId, row),
                }
            } else if slot.was_in_doubt
                && matches!(
                    item.status,
                    CreateStatus::EmailInUse | CreateStatus::UsernameInUse
                )
            {
                doubt(
                    DoubtReason::AlreadyInUse {
                        status: item.status.as_str().to_owned(),
                    },
                    row,
                );
            } else {
                outcomes.push((
                    row,
                    Outcome::Failed {
                        status: item.status.as_str().to_owned(),
                    },
                ));
            }
        }
        for (row, outcome) in outcomes {
            self.record(ImportEvent::RowOutcome { row, outcome });
        }
        for (reason, rows) in doubts {
            self.record(ImportEvent::RowsInDoubt {
                chunk,
                rows,
                reason,
            });
        }
    }

    fn refused(&mut self, now: u64, chunk: u32, rows: &[usize], e: &ApiError) {
        self.record(ImportEvent::ChunkRefused {
            chunk,
            code: e.code.clone(),
            msg: e.msg.clone(),
        });
        let slots = e.available_slots.map(|n| n as usize);
        if e.reason == Reason::NotEnoughSlots && slots.is_some_and(|n| n > 0 && n < rows.len()) {
            // Decision: the platform says how many accounts it still takes; send that many.
            self.slot_cap = slots;
        } else if e.retryable {
            self.send_failures += 1;
            if self.send_failures >= self.opts.attempts {
                self.halted = Some(e.to_string());
            } else {
                self.pacer.not_before = now.saturating_add(self.opts.retry_delay_ms);
            }
        } else {
            self.halted = Some(e.to_string());
        }
    }

    fn lost(&mut self, now: u64, chunk: u32, rows: Vec<usize>, reason: DoubtReason) {
        self.record(ImportEvent::RowsInDoubt {
            chunk,
            rows,
            reason,
        });
        // Let the server finish what it may still be doing before looking.
        self.lookup_not_before = now.saturating_add(self.opts.retry_delay_ms);
        self.send_failures += 1;
        if self.send_failures >= self.opts.attempts {
            self.halted = Some(format!(
                "{} create calls in a row got no readable answer",
                self.send_failures
            ));
        }
    }

    fn lookup_failed(&mut self, now: u64, reason: String) {
        self.lookup_failures += 1;
        if self.lookup_failures >= self.opts.attempts {
            self.halted = Some(format!(
                "{} look-ups in a row failed; the last: {reason}",
                self.lookup_failures
            ));
        } else {
            self.lookup_not_before = now.saturating_add(self.opts.retry_delay_ms);
        }
    }

    /// The next progress event, if any (one is queued after every change).
    pub fn poll_event(&mut self) -> Option<Progress> {
        self.queues.progress.pop_front()
    }

    /// Where the job stands at `now`.
    pub fn progress(&self, now: u64) -> Progress {
        let to_send = self.pending.len() + self.in_doubt.len();
        let size = self
            .slot_cap
            .map_or(self.opts.chunk_size, |c| c.min(self.opts.chunk_size));
        let chunks = chunks_for(to_send, size);
        Progress {
            done: self.buckets[Bucket::Done as usize],
            failed: self.buckets[Bucket::Failed as usize],
            set_aside: self.buckets[Bucket::SetAside as usize],
            unresolved: self.buckets[Bucket::Unresolved as usize],
            remaining: self.buckets[Bucket::Remaining as usize],
            next_send_at: (!self.pending.is_empty()).then(|| self.pacer.next_send_at().max(now)),
            estimated_end_at: self.pacer.estimate_end(now, chunks),
        }
    }

    fn push_progress(&mut self, now: u64) {
        let p = self.progress(now);
        self.queues.progress.push_back(p);
    }

    /// The report as things stand (what [`Action::Done`] carries at the end).
    pub fn report(&self) -> ImportReport {
        let halted = self.halted.clone();
        let stop = || {
            halted
                .clone()
                .unwrap_or_else(|| "the run stopped".to_owned())
        };
        let mut counts = ImportCounts {
            total: self.slots.len(),
            ..ImportCounts::default()
        };
        let rows = self
            .slots
            .iter()
            .enumerate()
            .map(|(row, s)| {
                let result = match &s.state {
                    State::SetAside => {
                        counts.set_aside += 1;
                        RowResult::SetAside {
                            issues: s.issues.clone(),
                        }
                    }
                    State::Done(Outcome::Created { user_id }) => {
                        counts.created += 1;
                        RowResult::Created {
                            user_id: user_id.clone(),
                        }
                    }
                    State::Done(Outcome::Failed { status }) => {
                        counts.failed += 1;
                        RowResult::Failed {
                            status: status.clone(),
                        }
                    }
                    State::Done(Outcome::Conflict {
                        user_id,
                        username,
                        emails,
                    }) => {
                        counts.conflicts += 1;
                        RowResult::Conflict {
                            user_id: user_id.clone(),
                            username: username.clone(),
                            emails: emails.clone(),
                        }
                    }
                    State::Unresolved(reason) => {
                        counts.in_doubt += 1;
                        RowResult::InDoubt {
                            reason: reason.clone(),
                        }
                    }
                    State::InDoubt { .. } | State::Sent(_) => {
                        counts.in_doubt += 1;
                        RowResult::InDoubt { reason: stop() }
                    }
                    State::Pending | State::Planned(_) => {
                        counts.not_sent += 1;
                        RowResult::NotSent { reason: stop() }
                    }
                };
                RowReport {
                    row,
                    email: s.email.clone(),
                    username: s.username.clone(),
                    result,
                    warnings: if s.state == State::SetAside {
                        Vec::new()
                    } else {
                        s.warnings.clone()
                    },
                }
            })
            .collect();
        ImportReport {
            rows,
            counts,
            halted,
        }
    }
}

/// Typed rows as JSON (serializing these plain structs cannot fail).
fn to_value(row: &NewUser) -> Value {
    serde_json::to_value(row).unwrap_or(Value::Null)
}
