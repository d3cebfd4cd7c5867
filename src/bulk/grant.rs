//! Granting courses to more than 100 accounts: chunked add-courses with a journal and resume.
//!
//! Decision: granting the same course twice is harmless on the platform (an existing enrolment
//! is kept), so a grant chunk in doubt is simply sent again; no look-ups.

use std::collections::{BTreeSet, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    check_chunk_size, check_start, chunks_for, out_of_order, repeat_issue, Action, BulkError,
    DoubtReason, Failure, GrantAction, JournalError, Pacer, Progress, Queues, DEFAULT_ATTEMPTS,
    DEFAULT_RETRY_DELAY_MS, GRANT_JOB, MAX_CHUNK,
};
use crate::error::{ApiError, Error};
use crate::plan::{Api, Request};
use crate::reply::AddCoursesReply;
use crate::validate::{self, Issue, Lang, Level, PathSegment, ValidateOptions};

/// Options of a grant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GrantOptions {
    /// Accounts per call, 1..=100 (default 100).
    pub chunk_size: usize,
    /// Milliseconds between two calls (default 0: the contract sets no interval for add-courses).
    pub interval_ms: u64,
    /// Language of the issues' messages.
    pub lang: Lang,
    /// Wait after a lost answer or a refusal that may pass.
    pub retry_delay_ms: u64,
    /// Such failures in a row before the run stops; the journal resumes it.
    pub attempts: u32,
}

impl Default for GrantOptions {
    fn default() -> Self {
        GrantOptions {
            chunk_size: MAX_CHUNK,
            interval_ms: 0,
            lang: Lang::En,
            retry_delay_ms: DEFAULT_RETRY_DELAY_MS,
            attempts: DEFAULT_ATTEMPTS,
        }
    }
}

/// A row of a grant as the journal names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GrantRow {
    /// 0-based index in the input.
    pub row: usize,
    /// The account id.
    pub user_id: String,
}

/// A grant row's outcome, as journaled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum GrantOutcome {
    /// The account received the courses.
    Granted,
    /// The platform refused the account (its status, e.g. `User not found`).
    Failed {
        /// The platform's status.
        status: String,
    },
    /// The answer had no result for the account.
    NoResult,
}

/// One journal event of a grant (persist before polling again, as for imports).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "event",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum GrantEvent {
    /// The first event: the job, its input's size and its courses.
    Started {
        /// `"grant"`.
        job: String,
        /// Accounts in the input.
        rows: usize,
        /// The course ids granted.
        courses: Vec<String>,
    },
    /// A chunk was formed from these rows.
    ChunkPlanned {
        /// Chunk number, increasing.
        chunk: u32,
        /// Its rows.
        rows: Vec<GrantRow>,
    },
    /// The chunk is about to be sent.
    ChunkSending {
        /// Chunk number.
        chunk: u32,
        /// When (ms).
        at: u64,
    },
    /// The server refused the whole call; its rows go back to be sent.
    ChunkRefused {
        /// Chunk number.
        chunk: u32,
        /// `respCode`.
        code: String,
        /// `msg`.
        msg: String,
    },
    /// The answer was lost; the rows go back to be sent (granting twice is harmless).
    ChunkInDoubt {
        /// Chunk number.
        chunk: u32,
        /// Why.
        reason: DoubtReason,
    },
    /// A row's outcome.
    RowOutcome {
        /// The row.
        row: usize,
        /// Its outcome.
        outcome: GrantOutcome,
    },
}

/// What happened to one account of a grant.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum GrantRowResult {
    /// The account received the courses.
    Granted,
    /// Refused by the platform with this status.
    Failed {
        /// The platform's status.
        status: String,
    },
    /// The answer had no result for the account.
    NoResult,
    /// Not sent: its issues.
    SetAside {
        /// The issues.
        issues: Vec<Issue>,
    },
    /// Not sent because the run stopped; resume to send it.
    NotSent {
        /// Why.
        reason: String,
    },
}

/// One account in the grant report.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrantRowReport {
    /// 0-based index in the input.
    pub row: usize,
    /// The account id as given (empty when it is not a string).
    pub user_id: String,
    /// What happened.
    pub result: GrantRowResult,
}

/// Counts of the grant report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrantCounts {
    /// Accounts in the input.
    pub total: usize,
    /// Granted.
    pub granted: usize,
    /// Refused by the platform, or missing from its answer.
    pub failed: usize,
    /// Set aside.
    pub set_aside: usize,
    /// Not sent because the run stopped.
    pub not_sent: usize,
}

/// The final report of a grant.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrantReport {
    /// One entry per input account.
    pub rows: Vec<GrantRowReport>,
    /// Counts.
    pub counts: GrantCounts,
    /// Why the run stopped early, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub halted: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
enum State {
    SetAside(Vec<Issue>),
    Pending,
    Planned(u32),
    Sent(u32),
    Done(GrantOutcome),
}

struct InFlight {
    chunk: u32,
    rows: Vec<usize>,
    request: Request<AddCoursesReply>,
}

/// A resumable grant of courses to any number of accounts.
pub struct GrantJob {
    api: Api,
    opts: GrantOptions,
    courses: Vec<String>,
    ids: Vec<String>,
    states: Vec<State>,
    pending: BTreeSet<usize>,
    next_chunk: u32,
    last_chunk: Option<(u32, Vec<usize>)>,
    pacer: Pacer,
    send_failures: u32,
    halted: Option<String>,
    ready: Option<InFlight>,
    in_flight: Option<InFlight>,
    queues: Queues<GrantEvent>,
}

impl GrantJob {
    /// A new grant of `courses` to `users` (account ids).
    pub fn new(
        api: Api,
        users: Vec<String>,
        courses: Vec<String>,
        options: GrantOptions,
    ) -> Result<GrantJob, BulkError> {
        Self::from_values(
            api,
            users.into_iter().map(Value::from).collect(),
            courses,
            options,
        )
    }

    /// A new grant from raw JSON account ids (non-strings are set aside with their issues).
    pub fn from_values(
        api: Api,
        users: Vec<Value>,
        courses: Vec<String>,
        options: GrantOptions,
    ) -> Result<GrantJob, BulkError> {
        let mut job = Self::build(api, users, courses, options)?;
        let event = GrantEvent::Started {
            job: GRANT_JOB.to_owned(),
            rows: job.ids.len(),
            courses: job.courses.clone(),
        };
        job.record(event);
        job.push_progress(0);
        Ok(job)
    }

    /// Rebuilds a grant from the same input and its journal. Refused when the journal is of
    /// another input (other accounts at the rows it names, other courses, another size).
    pub fn resume(
        api: Api,
        users: Vec<String>,
        courses: Vec<String>,
        options: GrantOptions,
        journal: &[GrantEvent],
    ) -> Result<GrantJob, BulkError> {
        let users: Vec<Value> = users.into_iter().map(Value::from).collect();
        if journal.is_empty() {
            return Self::from_values(api, users, courses, options);
        }
        let mut job = Self::build(api, users, courses, options)?;
        for (index, event) in journal.iter().enumerate() {
            if index == 0 && !matches!(event, GrantEvent::Started { .. }) {
                return Err(JournalError::NoStart.into());
            }
            job.apply(index, event)?;
        }
        // Sent with no outcome: sent again (granting twice is harmless).
        let sent: Vec<(usize, u32)> = job
            .states
            .iter()
            .enumerate()
            .filter_map(|(r, s)| match s {
                State::Sent(c) => Some((r, *c)),
                _ => None,
            })
            .collect();
        let mut chunks: Vec<u32> = sent.iter().map(|&(_, c)| c).collect();
        chunks.dedup();
        for chunk in chunks {
            job.record(GrantEvent::ChunkInDoubt {
                chunk,
                reason: DoubtReason::Interrupted,
            });
        }
        for r in 0..job.states.len() {
            if matches!(job.states[r], State::Planned(_)) {
                job.set_state(r, State::Pending);
            }
        }
        job.push_progress(0);
        Ok(job)
    }

    fn build(
        api: Api,
        users: Vec<Value>,
        courses: Vec<String>,
        opts: GrantOptions,
    ) -> Result<GrantJob, BulkError> {
        check_chunk_size(opts.chunk_size)?;
        if api.token().is_none() {
            return Err(BulkError::NoToken);
        }
        let vopts = ValidateOptions {
            lang: opts.lang,
            platform_rules: true,
        };
        let course_values = Value::from(courses.clone());
        // The course list alone, checked with a placeholder account.
        let course_issues: Vec<String> =
            validate::validate_add_courses(&Value::from(vec!["x"]), &course_values, vopts)
                .issues
                .into_iter()
                .filter(|i| i.level == Level::Contract)
                .map(|i| i.message)
                .collect();
        if !course_issues.is_empty() {
            return Err(BulkError::Courses(course_issues));
        }
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut ids = Vec::with_capacity(users.len());
        let mut states = Vec::with_capacity(users.len());
        let mut pending = BTreeSet::new();
        for (i, user) in users.into_iter().enumerate() {
            let id = user.as_str().unwrap_or_default().to_owned();
            // The one call into validation for a grant row: its findings under `users[0]`.
            let mut issues: Vec<Issue> = validate::validate_add_courses(
                &Value::Array(vec![user]),
                &Value::from(vec!["x"]),
                vopts,
            )
            .issues
            .into_iter()
            .filter(|i| i.level == Level::Contract)
            .map(|mut i| {
                i.path
                    .retain(|s| !matches!(s, PathSegment::Key(k) if k == "users"));
                i.path.retain(|s| !matches!(s, PathSegment::Index(0)));
                i
            })
            .collect();
            if issues.is_empty() {
                if let Some(&first) = seen.get(&id) {
                    issues.push(repeat_issue(
                        "duplicate_id",
                        "",
                        first,
                        Level::Contract,
                        opts.lang,
                    ));
                } else {
                    seen.insert(id.clone(), i);
                }
            }
            if issues.is_empty() {
                pending.insert(i);
                states.push(State::Pending);
            } else {
                states.push(State::SetAside(issues));
            }
            ids.push(id);
        }
        Ok(GrantJob {
            api,
            pacer: Pacer::new(opts.interval_ms),
            opts,
            courses,
            ids,
            states,
            pending,
            next_chunk: 0,
            last_chunk: None,
            send_failures: 0,
            halted: None,
            ready: None,
            in_flight: None,
            queues: Queues::default(),
        })
    }

    fn set_state(&mut self, row: usize, state: State) {
        if state == State::Pending {
            self.pending.insert(row);
        } else {
            self.pending.remove(&row);
        }
        self.states[row] = state;
    }

    /// The rows of the last planned chunk, if it is `chunk`.
    fn last(&self, index: usize, chunk: u32) -> Result<Vec<usize>, JournalError> {
        match &self.last_chunk {
            Some((c, rows)) if *c == chunk => Ok(rows.clone()),
            _ => Err(out_of_order(
                index,
                format!("chunk {chunk} was not planned last"),
            )),
        }
    }

    /// Moves the rows of `chunk` that are in `from` to `to`.
    fn move_rows(&mut self, rows: Vec<usize>, from: &State, to: &State) {
        for r in rows {
            if &self.states[r] == from {
                self.set_state(r, to.clone());
            }
        }
    }

    /// Applies one event, live or on replay.
    fn apply(&mut self, index: usize, event: &GrantEvent) -> Result<(), JournalError> {
        match event {
            GrantEvent::Started { job, rows, courses } => {
                if index != 0 {
                    return Err(out_of_order(index, "a second `started` event"));
                }
                check_start(job, *rows, GRANT_JOB, self.ids.len())?;
                if courses != &self.courses {
                    return Err(out_of_order(index, "the journal grants other courses"));
                }
            }
            GrantEvent::ChunkPlanned { chunk, rows } => {
                if *chunk < self.next_chunk {
                    return Err(out_of_order(
                        index,
                        format!("chunk {chunk} is planned again"),
                    ));
                }
                if let Some((c, old)) = self.last_chunk.take() {
                    self.move_rows(old, &State::Planned(c), &State::Pending);
                }
                let mut planned = Vec::with_capacity(rows.len());
                for p in rows {
                    if self.ids.get(p.row) != Some(&p.user_id) {
                        return Err(JournalError::RowMismatch { row: p.row });
                    }
                    if !matches!(self.states[p.row], State::Pending | State::SetAside(_)) {
                        return Err(out_of_order(
                            index,
                            format!("row {} is planned while not pending", p.row),
                        ));
                    }
                    self.set_state(p.row, State::Planned(*chunk));
                    planned.push(p.row);
                }
                self.next_chunk = chunk.saturating_add(1);
                self.last_chunk = Some((*chunk, planned));
            }
            GrantEvent::ChunkSending { chunk, at } => {
                let rows = self.last(index, *chunk)?;
                self.move_rows(rows, &State::Planned(*chunk), &State::Sent(*chunk));
                self.pacer.last_send_at = Some(self.pacer.last_send_at.unwrap_or(0).max(*at));
            }
            GrantEvent::ChunkRefused { chunk, .. } | GrantEvent::ChunkInDoubt { chunk, .. } => {
                let rows = self.last(index, *chunk)?;
                self.move_rows(rows, &State::Sent(*chunk), &State::Pending);
            }
            GrantEvent::RowOutcome { row, outcome } => {
                if !matches!(self.states.get(*row), Some(State::Sent(_))) {
                    return Err(out_of_order(
                        index,
                        format!("row {row} has an outcome but was not sent"),
                    ));
                }
                self.set_state(*row, State::Done(outcome.clone()));
            }
        }
        Ok(())
    }

    fn record(&mut self, event: GrantEvent) {
        let applied = self.apply(usize::MAX, &event);
        debug_assert!(applied.is_ok(), "live event refused: {applied:?}");
        self.queues.journal.push(event);
    }

    /// What to do next at `now` (ms). Persist what [`Action::Persist`] hands out first.
    pub fn poll(&mut self, now: u64) -> GrantAction {
        if !self.queues.journal.is_empty() {
            return Action::Persist(std::mem::take(&mut self.queues.journal));
        }
        if let Some(ready) = self.ready.take() {
            let request = ready.request.clone();
            self.in_flight = Some(ready);
            return Action::Send(request);
        }
        if self.in_flight.is_some() {
            return Action::Busy;
        }
        if self.halted.is_some() || self.pending.is_empty() {
            return Action::Done(self.report());
        }
        let at = self.pacer.next_send_at();
        if now < at {
            return Action::Wait { until: at };
        }
        let rows: Vec<usize> = self
            .pending
            .iter()
            .take(self.opts.chunk_size)
            .copied()
            .collect();
        let input = crate::model::AddCoursesInput {
            users: rows.iter().map(|&r| self.ids[r].clone()).collect(),
            courses: self.courses.clone(),
        };
        match self.api.add_courses_to_users(&input) {
            Ok(request) => {
                let chunk = self.next_chunk;
                let planned = rows
                    .iter()
                    .map(|&r| GrantRow {
                        row: r,
                        user_id: self.ids[r].clone(),
                    })
                    .collect();
                self.record(GrantEvent::ChunkPlanned {
                    chunk,
                    rows: planned,
                });
                self.record(GrantEvent::ChunkSending { chunk, at: now });
                self.ready = Some(InFlight {
                    chunk,
                    rows,
                    request,
                });
                self.push_progress(now);
            }
            Err(e) => self.halted = Some(format!("the chunk could not be planned: {e}")),
        }
        self.poll(now)
    }

    /// Hands back the HTTP answer of the request the last action handed out.
    pub fn handle_response(&mut self, now: u64, status: u16, body: &[u8]) -> Result<(), BulkError> {
        let f = self.in_flight.take().ok_or(BulkError::NothingInFlight)?;
        match f.request.decode(status, body) {
            Ok(reply) => {
                self.send_failures = 0;
                let by_id: HashMap<&str, _> = reply
                    .result
                    .iter()
                    .map(|o| (o.user_id.as_str(), o))
                    .collect();
                for &r in &f.rows {
                    let outcome = match by_id.get(self.ids[r].as_str()) {
                        Some(o) if o.success => GrantOutcome::Granted,
                        Some(o) => GrantOutcome::Failed {
                            status: o.status.as_str().to_owned(),
                        },
                        None => GrantOutcome::NoResult,
                    };
                    self.record(GrantEvent::RowOutcome { row: r, outcome });
                }
            }
            Err(Error::Api(e)) => self.refused(now, f.chunk, &e),
            Err(_) => self.lost(now, f.chunk, DoubtReason::Unreadable { status }),
        }
        self.push_progress(now);
        Ok(())
    }

    /// Hands back a request that got no answer.
    pub fn handle_failure(&mut self, now: u64, failure: Failure) -> Result<(), BulkError> {
        let f = self.in_flight.take().ok_or(BulkError::NothingInFlight)?;
        self.lost(now, f.chunk, DoubtReason::Transport { failure });
        self.push_progress(now);
        Ok(())
    }

    fn refused(&mut self, now: u64, chunk: u32, e: &ApiError) {
        self.record(GrantEvent::ChunkRefused {
            chunk,
            code: e.code.clone(),
            msg: e.msg.clone(),
        });
        if e.retryable {
            self.failed_once(now, e.to_string());
        } else {
            self.halted = Some(e.to_string());
        }
    }

    fn lost(&mut self, now: u64, chunk: u32, reason: DoubtReason) {
        self.record(GrantEvent::ChunkInDoubt { chunk, reason });
        self.failed_once(now, "add-courses calls got no readable answer".to_owned());
    }

    fn failed_once(&mut self, now: u64, reason: String) {
        self.send_failures += 1;
        if self.send_failures >= self.opts.attempts {
            self.halted = Some(format!(
                "{} failures in a row; the last: {reason}",
                self.send_failures
            ));
        } else {
            self.pacer.not_before = now.saturating_add(self.opts.retry_delay_ms);
        }
    }

    /// The next progress event, if any.
    pub fn poll_event(&mut self) -> Option<Progress> {
        self.queues.progress.pop_front()
    }

    /// Where the grant stands at `now`.
    pub fn progress(&self, now: u64) -> Progress {
        let mut p = Progress::default();
        for s in &self.states {
            match s {
                State::Done(GrantOutcome::Granted) => p.done += 1,
                State::Done(_) => p.failed += 1,
                State::SetAside(_) => p.set_aside += 1,
                _ => p.remaining += 1,
            }
        }
        p.next_send_at = (!self.pending.is_empty()).then(|| self.pacer.next_send_at().max(now));
        p.estimated_end_at = self
            .pacer
            .estimate_end(now, chunks_for(self.pending.len(), self.opts.chunk_size));
        p
    }

    fn push_progress(&mut self, now: u64) {
        let p = self.progress(now);
        self.queues.progress.push_back(p);
    }

    /// The report as things stand.
    pub fn report(&self) -> GrantReport {
        let stop = self
            .halted
            .clone()
            .unwrap_or_else(|| "the run stopped".to_owned());
        let mut counts = GrantCounts {
            total: self.ids.len(),
            ..GrantCounts::default()
        };
        let rows = self
            .states
            .iter()
            .enumerate()
            .map(|(row, s)| {
                let result = match s {
                    State::Done(GrantOutcome::Granted) => {
                        counts.granted += 1;
                        GrantRowResult::Granted
                    }
                    State::Done(GrantOutcome::Failed { status }) => {
                        counts.failed += 1;
                        GrantRowResult::Failed {
                            status: status.clone(),
                        }
                    }
                    State::Done(GrantOutcome::NoResult) => {
                        counts.failed += 1;
                        GrantRowResult::NoResult
                    }
                    State::SetAside(issues) => {
                        counts.set_aside += 1;
                        GrantRowResult::SetAside {
                            issues: issues.clone(),
                        }
                    }
                    State::Pending | State::Planned(_) | State::Sent(_) => {
                        counts.not_sent += 1;
                        GrantRowResult::NotSent {
                            reason: stop.clone(),
                        }
                    }
                };
                GrantRowReport {
                    row,
                    user_id: self.ids[row].clone(),
                    result,
                }
            })
            .collect();
        GrantReport {
            rows,
            counts,
            halted: self.halted.clone(),
        }
    }
}
