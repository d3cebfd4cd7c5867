//! The account import: chunked create-multi-user with a journal, look-ups of rows in doubt, and
//! resume. The rules are in the module above.

use core::ops::Range;

use serde::{Deserialize, Serialize};

use super::answer;
use super::journal::{push_created, DoubtReason, Event, LookupOutcome, Outcome, PlannedRow};
use super::judge::{self, RowKey};
use super::ledger::{result, Ledger, State};
use super::{
    check_chunk_size, repeat_issue, Action, BulkError, Counts, Failure, ImportAction, Progress,
    RowResult, DEFAULT_ATTEMPTS, DEFAULT_CREATE_INTERVAL_MS, DEFAULT_RETRY_DELAY_MS, IMPORT_JOB,
    MAX_CHUNK,
};
use crate::codes::{Category, Reason};
use crate::error::{ApiError, Error};
use crate::json::ser::{self, WriteJson};
use crate::json::{self, JsonView};
use crate::model::{CreateStatus, NewUser};
use crate::plan::{Planner, Request};
use crate::text::fold;
use crate::validate::collect::FirstSeen;
use crate::validate::{self, Issue, IssueCode, Lang, Level, Report, ValidateOptions};
use crate::{endpoint::CreateUsersReply, reply::UserReply};

/// Options of an import.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", default)]
pub struct ImportOptions {
    /// Rows per create call, 1..=100 (default 100).
    #[cfg_attr(feature = "wasm", tsify(type = "number | undefined"))]
    pub chunk_size: usize,
    /// Milliseconds between two create calls (default: the contract's 10 minutes).
    #[cfg_attr(feature = "wasm", tsify(type = "number | undefined"))]
    pub interval_ms: u64,
    /// Also set aside rows with platform-level findings (default `false`: they are sent and their
    /// findings reported as warnings, since the server may not enforce those rules).
    #[cfg_attr(feature = "wasm", tsify(type = "boolean | undefined"))]
    pub set_aside_platform: bool,
    /// Language of the issues' messages.
    #[cfg_attr(feature = "wasm", tsify(type = "Lang | undefined"))]
    pub lang: Lang,
    /// Wait after a failed look-up, and after a lost create answer before looking its rows up.
    #[cfg_attr(feature = "wasm", tsify(type = "number | undefined"))]
    pub retry_delay_ms: u64,
    /// Failures in a row (lost answers, refusals that may pass, failed look-ups) before the run
    /// stops; the journal resumes it.
    #[cfg_attr(feature = "wasm", tsify(type = "number | undefined"))]
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

/// One input row in the report.
#[derive(Clone, Debug, PartialEq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
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

/// The final report: one entry per input row, in input order, and counts.
#[derive(Clone, Debug, PartialEq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    /// One entry per input row.
    pub rows: Vec<RowReport>,
    /// Counts.
    pub counts: Counts,
    /// Why the run stopped before the end (e.g. an invalid token), if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub halted: Option<String>,
    /// The category of the platform's refusal that stopped the run (`authentication` for a
    /// token refused or expired mid-job, `permission`, ...), when a refusal did: what a program
    /// branches on (the command line's exit code).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub halted_by: Option<crate::codes::Category>,
}

/// A row with findings, as the job judged its input when it started (before anything is sent):
/// what a command line lists before the job runs, without validating the input again.
#[derive(Clone, Debug, PartialEq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct RowIssues {
    /// 0-based index in the input.
    pub row: usize,
    /// What sets the row aside (contract-level issues and repeats of earlier rows; platform
    /// findings too with `setAsidePlatform`); empty: the row is sent.
    pub issues: Vec<Issue>,
    /// Platform-level findings not setting it aside.
    pub warnings: Vec<Issue>,
}

/// One input row as this job keeps it.
struct Slot {
    /// Where the row's JSON text (what is sent) is in [`ImportJob::texts`].
    json: Range<usize>,
    /// Trimmed as given (what is searched).
    email: String,
    /// Trimmed, lower case (what is compared and journaled).
    email_key: String,
    /// Trimmed.
    username: String,
    issues: Vec<Issue>,
    warnings: Vec<Issue>,
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
    api: Planner,
    opts: ImportOptions,
    /// The rows' JSON texts, one after the other (each slot's `json` is its range).
    texts: String,
    slots: Vec<Slot>,
    ledger: Ledger,
    /// Look-ups wait until then (after a failure, or to let a lost create settle).
    lookup_not_before: u64,
    lookup_failures: u32,
    /// The last failed look-up's reason, for progress.
    lookup_error: Option<String>,
    /// A cap on the chunk from a "only n free slots" refusal.
    slot_cap: Option<usize>,
    ready: Option<InFlight>,
    in_flight: Option<InFlight>,
    /// Whether this run has polled (its first poll settles a call the journal left open).
    polled: bool,
    /// A hold ([`ImportJob::hold_until`]) moved the next send later: the next poll tells it.
    held: bool,
    /// The platform's clock less this machine's (ms), from the last answer's `Date` header.
    offset: Option<i64>,
}

/// The one call into validation: a row's findings, platform rules included.
fn validate_row(row: &impl JsonView, lang: Lang) -> Report {
    validate::validate_create_user(
        row,
        ValidateOptions {
            lang,
            platform_rules: true,
        },
    )
}

fn text(v: &impl JsonView, key: &str) -> String {
    v.get(key)
        .and_then(JsonView::as_str)
        .map(str::trim)
        .unwrap_or_default()
        .to_owned()
}

/// The rows written out as JSON texts, one after the other, and each one's range.
fn row_texts<J: JsonView>(rows: &[J]) -> (String, Vec<Range<usize>>) {
    let (mut texts, mut ranges) = (String::new(), Vec::with_capacity(rows.len()));
    for row in rows {
        let from = texts.len();
        texts.push_str(&row.to_json());
        ranges.push(from..texts.len());
    }
    (texts, ranges)
}

/// Validates every row and finds repeats across the whole input: a row repeating the e-mail or
/// the username of an earlier row that has no contract-level issue of its own is set aside
/// (repeats found as the batch validator finds them, first come first kept). `json`: each row's
/// range in the job's texts, one a row.
fn check_rows<J: JsonView>(rows: &[J], json: &[Range<usize>], opts: &ImportOptions) -> Vec<Slot> {
    let lang = opts.lang;
    let mut slots: Vec<Slot> = rows
        .iter()
        .enumerate()
        .map(|(i, value)| {
            let (issues, warnings): (Vec<Issue>, Vec<Issue>) = validate_row(value, lang)
                .issues
                .into_iter()
                .partition(|issue| issue.level == Level::Contract);
            let email = text(value, "email");
            Slot {
                json: json.get(i).cloned().unwrap_or_default(),
                email_key: fold(&email).into_owned(),
                email,
                username: text(value, "username"),
                issues,
                warnings,
            }
        })
        .collect();
    let lower: Vec<String> = slots
        .iter()
        .map(|s| fold(&s.username).into_owned())
        .collect();
    let repeats: Vec<Option<(IssueCode, &str, usize, Level)>> = {
        // Keys of the rows that may be sent (those with issues of their own hold none).
        let ok = |i: usize| slots[i].issues.is_empty();
        let n = slots.len();
        let emails = FirstSeen::new((0..n).map(|i| ok(i).then_some(slots[i].email_key.as_str())));
        let names = FirstSeen::new((0..n).map(|i| ok(i).then_some(slots[i].username.as_str())));
        let lowers = FirstSeen::new((0..n).map(|i| ok(i).then_some(lower[i].as_str())));
        (0..n)
            .map(|i| {
                let s = &slots[i];
                if !ok(i) {
                    None
                } else if let Some(first) = emails.before(&s.email_key, i) {
                    Some((IssueCode::DuplicateEmail, "email", first, Level::Contract))
                } else if let Some(first) = names.before(&s.username, i) {
                    Some((
                        IssueCode::DuplicateUsername,
                        "username",
                        first,
                        Level::Contract,
                    ))
                } else {
                    lowers.before(&lower[i], i).map(|first| {
                        (
                            IssueCode::DuplicateUsername,
                            "username",
                            first,
                            Level::Platform,
                        )
                    })
                }
            })
            .collect()
    };
    for (slot, repeat) in slots.iter_mut().zip(repeats) {
        if let Some((code, field, first, level)) = repeat {
            let issue = repeat_issue(code, field, first, level, lang);
            match level {
                Level::Contract => slot.issues.push(issue),
                Level::Platform => slot.warnings.push(issue),
            }
        }
        if opts.set_aside_platform && slot.issues.is_empty() && !slot.warnings.is_empty() {
            let mut warnings = core::mem::take(&mut slot.warnings);
            slot.issues.append(&mut warnings);
        }
    }
    slots
}

impl ImportJob {
    /// A new import of typed rows.
    pub fn new(
        api: Planner,
        rows: Vec<NewUser>,
        options: ImportOptions,
    ) -> Result<ImportJob, BulkError> {
        Self::resume(api, rows, options, &[])
    }

    /// A new import of raw JSON rows (a form's or a CSV reader's objects); rows that are not
    /// objects or miss fields are set aside with their issues.
    pub fn from_values(
        api: Planner,
        rows: Vec<serde_json::Value>,
        options: ImportOptions,
    ) -> Result<ImportJob, BulkError> {
        Self::resume_rows(api, &rows, options, &[])
    }

    /// Rebuilds an import from the same input and its journal (every event persisted, in order).
    /// An empty journal starts afresh. Refused when the journal names rows this input does not
    /// hold as it recorded them, or is another job's.
    pub fn resume(
        api: Planner,
        rows: Vec<NewUser>,
        options: ImportOptions,
        journal: &[Event],
    ) -> Result<ImportJob, BulkError> {
        let rows: Vec<serde_json::Value> = rows.iter().map(to_value).collect();
        Self::resume_rows(api, &rows, options, journal)
    }

    /// [`ImportJob::resume`] with raw JSON rows.
    pub fn resume_values(
        api: Planner,
        rows: Vec<serde_json::Value>,
        options: ImportOptions,
        journal: &[Event],
    ) -> Result<ImportJob, BulkError> {
        Self::resume_rows(api, &rows, options, journal)
    }

    /// [`ImportJob::resume`] with rows in any JSON representation ([`JsonView`]): the rows are
    /// read once, kept as JSON text, and the input can be dropped.
    pub fn resume_rows<J: JsonView>(
        api: Planner,
        rows: &[J],
        opts: ImportOptions,
        journal: &[Event],
    ) -> Result<ImportJob, BulkError> {
        let (texts, ranges) = row_texts(rows);
        Self::resume_texts(api, rows, texts, ranges, opts, journal)
    }

    /// [`ImportJob::resume_rows`] with the rows' JSON texts as they are sent: `ranges` has each
    /// row's range in `texts`, one a row (the wasm's are the rows' texts as JS gave them,
    /// [`super::read::items`], not written out again).
    pub fn resume_texts<J: JsonView>(
        api: Planner,
        rows: &[J],
        texts: String,
        ranges: Vec<Range<usize>>,
        mut opts: ImportOptions,
        journal: &[Event],
    ) -> Result<ImportJob, BulkError> {
        check_chunk_size(opts.chunk_size)?;
        if api.token().is_none() {
            return Err(BulkError::NoToken);
        }
        // A strict planner refuses platform-level findings: such rows are set aside up front,
        // so that every chunk is sent as planned without being validated again.
        opts.set_aside_platform |= api.strict_platform_rules();
        debug_assert_eq!(ranges.len(), rows.len());
        let slots = check_rows(rows, &ranges, &opts);
        let keys = slots
            .iter()
            .enumerate()
            .map(|(row, s)| PlannedRow {
                row,
                email: Some(s.email_key.clone()),
                username: Some(s.username.clone()),
                user_id: None,
            })
            .collect();
        let aside: Vec<bool> = slots.iter().map(|s| !s.issues.is_empty()).collect();
        let mut ledger = Ledger::new(
            IMPORT_JOB,
            Vec::new(),
            keys,
            &aside,
            opts.interval_ms,
            false,
        );
        ledger.start(journal)?;
        let job = ImportJob {
            api,
            opts,
            texts,
            slots,
            ledger,
            lookup_not_before: 0,
            lookup_failures: 0,
            lookup_error: None,
            slot_cap: None,
            ready: None,
            in_flight: None,
            polled: false,
            held: false,
            offset: None,
        };
        Ok(job)
    }

    /// Holds the next create call until `at` (ms) at least: for a create this job does not know
    /// of, e.g. one the client's interval guard ([`crate::interval::IntervalGuard`]) recorded.
    /// `at` is on the platform's clock as the store keeps it ([`ImportJob::last_call_at`]),
    /// read on this machine's through the measured offset; one beyond a sane bound ahead is
    /// refused as damaged at the next poll, with a warning.
    pub fn hold_until(&mut self, at: u64) {
        let at = match self.offset {
            Some(offset) => at.saturating_add_signed(offset.saturating_neg()),
            None => at,
        };
        let pacer = &mut self.ledger.pacer;
        self.held |= at > pacer.next_send_at();
        pacer.held_until = pacer.held_until.max(at);
    }

    /// Whether a poll at `now` may plan the next chunk (and record its `ChunkSending`): the one
    /// moment a caller sharing the create interval with others (an interval store read by other
    /// processes) needs to ask it and pass its time to [`ImportJob::hold_until`] before polling.
    /// When this is false, `poll(now)` plans no chunk. (Rows in doubt are looked up right before
    /// the next send may go: with their look-ups due it says true, so the hold applies to them.)
    pub fn may_plan(&self, now: u64) -> bool {
        let ledger = &self.ledger;
        !ledger.has_unpersisted()
            && self.ready.is_none()
            && self.in_flight.is_none()
            && ledger.halted.is_none()
            && (ledger.in_doubt.is_empty() || now >= self.lookup_not_before)
            && !(ledger.pending.is_empty() && ledger.in_doubt.is_empty())
            && now >= ledger.pacer.next_send_at()
    }

    /// When the last create call ended (its answer, or its give-up; its send while it is out),
    /// on this machine's clock: what an interval store shared with other clients keeps, since
    /// the platform counts the interval from when it handled the call.
    /// On the platform's clock when the offset is measured (a machine whose clock is off
    /// writes the store's other readers a true time).
    pub fn last_call_at(&self) -> Option<u64> {
        let at = self.ledger.pacer.last_call_at?;
        Some(match self.offset {
            Some(offset) => at.saturating_add_signed(offset),
            None => at,
        })
    }

    /// Rows per chunk now.
    fn chunk_size(&self) -> usize {
        self.slot_cap
            .map_or(self.opts.chunk_size, |cap| cap.min(self.opts.chunk_size))
    }

    fn push_progress(&mut self, now: u64) {
        let p = self.progress(now);
        self.ledger.progress.push_back(p);
    }

    /// What to do next at `now` (ms). Persist what [`Action::Persist`] hands out before polling
    /// again.
    pub fn poll(&mut self, now: u64) -> ImportAction {
        match self.next(now) {
            Action::Done(()) => Action::Done(self.report()),
            action => action.without_report(),
        }
    }

    /// [`ImportJob::poll`] without building the report at the end (the wasm hands JS
    /// [`ImportJob::report_json`]).
    pub fn next(&mut self, now: u64) -> Action<CreateUsersReply, ()> {
        let owed = self.ledger.start_poll(&mut self.polled, now);
        // A hold is told at once: a screen counts down the wait it makes, not only after it.
        let held = std::mem::take(&mut self.held);
        if owed || held {
            self.push_progress(now);
        }
        loop {
            if let Some(events) = self.ledger.take_journal() {
                return Action::Persist(events);
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
            if self.ledger.halted.is_some() {
                return Action::Done(());
            }
            // Every doubt is resolved before anything is sent again, by look-ups made right
            // before the next send may go (after the interval's wait): a create the platform
            // was still committing has landed by then, so it is found rather than sent again.
            let first_in_doubt = self.ledger.in_doubt.iter().next();
            if first_in_doubt.is_none() && self.ledger.pending.is_empty() {
                return Action::Done(());
            }
            let at = self.ledger.pacer.next_send_at();
            let at = match first_in_doubt {
                Some(_) => at.max(self.lookup_not_before),
                None => at,
            };
            if now < at {
                return Action::Wait { until: at };
            }
            match first_in_doubt {
                Some(row) => {
                    self.plan_lookup(row, true);
                    self.push_progress(now);
                }
                None => self.plan_chunk(now),
            }
        }
    }

    fn plan_lookup(&mut self, row: usize, by_email: bool) {
        let slot = &self.slots[row];
        // Our own JSON values: the typed planner would go through serde_json.
        let none = json::Value::Null;
        let planned = if by_email {
            let email = json::Value::Str(slot.email.as_str().into());
            self.api.search_user_value(&email, &none)
        } else {
            let username = json::Value::Str(slot.username.as_str().into());
            self.api.search_user_value(&none, &username)
        };
        match planned {
            Ok(request) => {
                self.ready = Some(InFlight::Lookup {
                    row,
                    by_email,
                    request,
                })
            }
            Err(e) => self.ledger.set(
                row,
                State::Unresolved(["the look-up could not be planned: ", &e.message()].concat()),
            ),
        }
    }

    fn plan_chunk(&mut self, now: u64) {
        let rows: Vec<usize> = self.ledger.pending.iter().take(self.chunk_size()).collect();
        // (Every range is the row's own: `row_texts` made them.)
        let texts: Vec<&str> = rows
            .iter()
            .map(|&r| self.texts.get(self.slots[r].json.clone()).unwrap_or("{}"))
            .collect();
        match self.api.create_users_checked(&texts) {
            Ok(request) => {
                let chunk = self.ledger.plan(&rows, now);
                self.ready = Some(InFlight::Create {
                    chunk,
                    rows,
                    request,
                });
                self.push_progress(now);
            }
            Err(e) => {
                self.ledger.halted =
                    Some(["the chunk could not be planned: ", &e.message()].concat())
            }
        }
    }

    /// Hands back the HTTP answer of the request the last action handed out, with its `Date`
    /// header in ms since the epoch ([`super::http_date`]; `None` when the answer had none, or
    /// the runtime hides it): the platform's clock, against which a found account's creation is
    /// read (the judge, `src/bulk/judge.rs`).
    pub fn handle_response(
        &mut self,
        now: u64,
        status: u16,
        body: &[u8],
        date: Option<u64>,
    ) -> Result<(), BulkError> {
        let in_flight = self.in_flight.take().ok_or(BulkError::NothingInFlight)?;
        if let Some(offset) = judge::offset_from(date, now) {
            self.offset = Some(offset);
        }
        match in_flight {
            InFlight::Create {
                chunk,
                rows,
                request,
            } => match request.check(status, body).map(|_| answer::tree(body)) {
                Ok(Some(answer)) => {
                    self.ledger.ended(chunk, now);
                    self.created(chunk, &rows, &answer::created(&answer), request.secret())
                }
                Err(Error::Api(e)) => {
                    self.ledger.ended(chunk, now);
                    self.refused(now, chunk, &rows, &e)
                }
                Ok(None) | Err(_) => {
                    self.ledger.ended(chunk, now);
                    self.lost(now, chunk, rows, DoubtReason::Unreadable { status })
                }
            },
            InFlight::Lookup {
                row,
                by_email,
                request,
            } => match request
                .check(status, body)
                .map(|_| answer::found(body, request.secret()))
            {
                Ok(Some(user)) => {
                    self.lookup_failures = 0;
                    let slot = &self.slots[row];
                    let key = RowKey {
                        email_key: &slot.email_key,
                        username: &slot.username,
                    };
                    let windows = self.ledger.doubt_windows(row);
                    let result = judge::whose(key, user, &windows, self.offset);
                    self.ledger.record(Event::LookupResult { row, result });
                }
                Ok(None) => {
                    self.lookup_failed(now, "the look-up's answer could not be read".to_owned())
                }
                Err(Error::Api(e)) if e.category == Category::NotFound => {
                    self.lookup_failures = 0;
                    if by_email {
                        self.plan_lookup(row, false);
                    } else {
                        self.ledger.record(Event::LookupResult {
                            row,
                            result: LookupOutcome::NotFound,
                        });
                    }
                }
                // A refusal that cannot pass (the token expired or refused, no permission) stops
                // the run at once with its category, as a create's does.
                Err(Error::Api(e)) if !e.retryable => {
                    self.ledger.halted = Some(e.message());
                    self.ledger.halted_by = Some(e.category);
                }
                Err(e) => self.lookup_failed(now, e.message()),
            },
        }
        self.push_progress(now);
        Ok(())
    }

    /// Hands back a request that got no answer.
    pub fn handle_failure(&mut self, now: u64, failure: Failure) -> Result<(), BulkError> {
        match self.in_flight.take().ok_or(BulkError::NothingInFlight)? {
            InFlight::Create { chunk, rows, .. } => {
                self.ledger.ended(chunk, now);
                self.lost(now, chunk, rows, DoubtReason::Transport { failure })
            }
            InFlight::Lookup { .. } => {
                self.lookup_failed(now, ["the look-up failed: ", failure.describe()].concat())
            }
        }
        self.push_progress(now);
        Ok(())
    }

    /// The outcomes of a create's items; every text of the server's `kept` (`secret` redacted).
    fn created(
        &mut self,
        chunk: u32,
        rows: &[usize],
        items: &[answer::Created],
        secret: Option<&str>,
    ) {
        self.ledger.failures = 0;
        let mut doubts: Vec<(DoubtReason, Vec<usize>)> = Vec::new();
        let (mut done, mut outcomes) = (Vec::new(), Vec::new());
        let matched = self.match_items(rows, items);
        for (&row, item) in rows.iter().zip(matched) {
            let doubt = match item {
                None => Some(DoubtReason::NoMatchingItem),
                Some(it) if it.success => match it.user_id.filter(|id| !id.is_empty()) {
                    Some(id) => {
                        done.push(row);
                        outcomes.push(Outcome::Created {
                            user_id: answer::kept(id, secret),
                        });
                        None
                    }
                    None => Some(DoubtReason::NoUserId),
                },
                Some(it) => {
                    let in_use = matches!(
                        CreateStatus::from(it.status),
                        CreateStatus::EmailInUse | CreateStatus::UsernameInUse
                    );
                    let status = answer::kept(it.status, secret);
                    // (Its look-up finding nothing reports the status: no loop.)
                    // A row the journal never sent in doubt is never the job's: "already in use"
                    // is the platform's answer, as a plain run reports it.
                    let may_be_ours = self.ledger.doubted.contains(&row);
                    if in_use && may_be_ours {
                        Some(DoubtReason::AlreadyInUse { status })
                    } else {
                        done.push(row);
                        outcomes.push(Outcome::Failed { status });
                        None
                    }
                }
            };
            if let Some(reason) = doubt {
                match doubts.iter_mut().find(|(r, _)| *r == reason) {
                    Some((_, rows)) => rows.push(row),
                    None => doubts.push((reason, vec![row])),
                }
            }
        }
        if !done.is_empty() {
            self.ledger.record(Event::ChunkOutcomes {
                chunk,
                rows: done,
                outcomes,
            });
        }
        for (reason, rows) in doubts {
            self.ledger.record(Event::RowsInDoubt {
                chunk,
                rows,
                reason,
            });
        }
    }

    /// Each row's item of a create's answer, matched by the item's e-mail and username echo
    /// (the platform does not promise its items' order): an item echoing a row's e-mail (folded)
    /// or username (trimmed), and nothing of another row, is that row's; both are unique across
    /// the rows sent (repeats are set aside). A row no item can be proven to be (no echo, or two
    /// items claiming it) gets none: in doubt, looked up. A chunk of one row takes its one item.
    fn match_items<'i, 'v>(
        &self,
        rows: &[usize],
        items: &'i [answer::Created<'v>],
    ) -> Vec<Option<&'i answer::Created<'v>>> {
        let is_row = |it: &answer::Created<'_>, row: usize| {
            let slot = &self.slots[row];
            (it.email.is_some() || it.username.is_some())
                && it.email.is_none_or(|e| fold(e.trim()) == slot.email_key)
                && it.username.is_none_or(|u| u.trim() == slot.username)
        };
        if let ([_], [item]) = (rows, items) {
            let echoes_other =
                (item.email.is_some() || item.username.is_some()) && !is_row(item, rows[0]);
            return vec![(!echoes_other).then_some(item)];
        }
        let mut out: Vec<Option<&answer::Created<'v>>> = vec![None; rows.len()];
        let mut claimed = vec![false; rows.len()];
        for (i, item) in items.iter().enumerate() {
            // The item at its row's place first: answers usually keep the order sent.
            let at = match rows.get(i) {
                Some(&row) if is_row(item, row) => Some(i),
                _ => rows.iter().position(|&row| is_row(item, row)),
            };
            if let Some(k) = at {
                if claimed[k] {
                    // Two items for one row: neither is proven.
                    out[k] = None;
                } else {
                    claimed[k] = true;
                    out[k] = Some(item);
                }
            }
        }
        out
    }

    fn refused(&mut self, now: u64, chunk: u32, rows: &[usize], e: &ApiError) {
        self.ledger.record(Event::ChunkRefused {
            chunk,
            code: e.code.clone(),
            msg: e.msg.clone(),
        });
        let slots = e.available_slots.map(|n| n as usize);
        if e.reason == Reason::NotEnoughSlots && slots.is_some_and(|n| n > 0 && n < rows.len()) {
            // Decision: the platform says how many accounts it still takes; send that many.
            self.slot_cap = slots;
        } else if e.retryable {
            let (attempts, delay) = (self.opts.attempts, self.opts.retry_delay_ms);
            self.ledger.failed_once(now, attempts, delay, e.message());
        } else {
            self.ledger.halted = Some(e.message());
            self.ledger.halted_by = Some(e.category);
        }
    }

    fn lost(&mut self, now: u64, chunk: u32, rows: Vec<usize>, reason: DoubtReason) {
        self.ledger.record(Event::RowsInDoubt {
            chunk,
            rows,
            reason,
        });
        // Let the server finish what it may still be doing before looking.
        self.lookup_not_before = now.saturating_add(self.opts.retry_delay_ms);
        let (attempts, delay) = (self.opts.attempts, self.opts.retry_delay_ms);
        let reason = "create calls got no readable answer".to_owned();
        self.ledger.failed_once(now, attempts, delay, reason);
    }

    fn lookup_failed(&mut self, now: u64, reason: String) {
        self.lookup_failures += 1;
        self.lookup_error = Some(reason.clone());
        if self.lookup_failures >= self.opts.attempts {
            let n = super::num(self.lookup_failures as usize);
            let line = [&n, " look-ups in a row failed; the last: ", &reason].concat();
            self.ledger.halted = Some(line);
        } else {
            self.lookup_not_before = now.saturating_add(self.opts.retry_delay_ms);
        }
    }

    /// The next progress event, if any (one is queued after every change).
    pub fn poll_event(&mut self) -> Option<Progress> {
        self.ledger.progress.pop_front()
    }

    /// Where the job stands at `now`.
    pub fn progress(&self, now: u64) -> Progress {
        let mut p = self.ledger.progress_at(now, self.chunk_size());
        let lookup = match (&self.in_flight, &self.ready) {
            (Some(InFlight::Lookup { row, .. }), _) | (_, Some(InFlight::Lookup { row, .. })) => {
                Some(*row)
            }
            _ => None,
        };
        if let Some(row) = lookup {
            p.looking_up = Some(row);
            // The send follows the look-ups: nothing waits.
            p.next_send_at = None;
        }
        if self.lookup_failures > 0 {
            p.retries = p.retries.max(self.lookup_failures);
            p.last_error = self.lookup_error.clone();
        }
        p
    }

    /// Every row with issues or warnings, in input order, as the job judged them when it started
    /// (a row with `issues` is set aside, whatever the journal holds).
    pub fn row_issues(&self) -> Vec<RowIssues> {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.issues.is_empty() || !s.warnings.is_empty())
            .map(|(row, s)| RowIssues {
                row,
                issues: s.issues.clone(),
                warnings: s.warnings.clone(),
            })
            .collect()
    }

    /// The report as things stand (what [`Action::Done`] carries at the end).
    pub fn report(&self) -> ImportReport {
        let (results, counts) = self.ledger.results(|r| &self.slots[r].issues);
        let rows = results
            .into_iter()
            .zip(&self.slots)
            .enumerate()
            .map(|(row, (result, s))| RowReport {
                row,
                email: s.email.clone(),
                username: s.username.clone(),
                warnings: if matches!(result, RowResult::SetAside { .. }) {
                    Vec::new()
                } else {
                    s.warnings.clone()
                },
                result,
            })
            .collect();
        ImportReport {
            rows,
            counts,
            halted: self.ledger.halted.clone(),
            halted_by: self.ledger.halted_by,
        }
    }
}

impl ImportJob {
    /// [`ImportJob::report`] as JSON text (its serde shape), written from the job's state: a
    /// created row's entry by hand, any other through serde. What the wasm hands JS (building
    /// the report and serializing it is slow for a large import); `tests/bulk.rs`
    /// holds it to `json::ser::to_string(&report())` at the end of every driven job.
    pub fn report_json(&self) -> String {
        let ledger = &self.ledger;
        let stop = ledger.stop();
        let mut c = Counts {
            total: self.slots.len(),
            ..Counts::default()
        };
        let mut out = String::with_capacity(self.slots.len() * 96);
        out.push_str("{\"rows\":[");
        for (row, (s, state)) in self.slots.iter().zip(&ledger.states).enumerate() {
            if row > 0 {
                out.push(',');
            }
            out.push_str("{\"row\":");
            json::push_uint(&mut out, row as u64);
            out.push_str(",\"email\":");
            json::push_str(&mut out, &s.email);
            out.push_str(",\"username\":");
            json::push_str(&mut out, &s.username);
            out.push_str(",\"result\":");
            let aside = matches!(state, State::SetAside);
            if let State::Done(Outcome::Created { user_id }) = state {
                c.created += 1;
                push_created(&mut out, user_id);
            } else {
                result(state, &stop, &s.issues, &mut c).append_json(&mut out);
            }
            if !aside && !s.warnings.is_empty() {
                out.push_str(",\"warnings\":");
                out.push_str(&ser::value_json(&s.warnings));
            }
            out.push('}');
        }
        out.push_str("],\"counts\":");
        c.append_json(&mut out);
        if let Some(halted) = &ledger.halted {
            out.push_str(",\"halted\":");
            json::push_str(&mut out, halted);
        }
        if let Some(by) = ledger.halted_by {
            out.push_str(",\"haltedBy\":");
            json::push_str(&mut out, by.as_str());
        }
        out.push('}');
        out
    }
}

/// Typed rows as JSON (serializing these plain structs cannot fail).
fn to_value(row: &NewUser) -> serde_json::Value {
    serde_json::to_value(row).unwrap_or(serde_json::Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn rows(values: Vec<Value>) -> Vec<Slot> {
        let (_, json) = row_texts(&values);
        check_rows(&values, &json, &ImportOptions::default())
    }

    fn row(email: &str, username: &str) -> Value {
        json!({"name": "Some One", "username": username, "email": email, "password": "secret-1"})
    }

    #[test]
    fn repeats_across_the_input_are_set_aside_and_the_first_is_kept() {
        let slots = rows(vec![
            row("a@x.io", "anh"),
            json!({"name": "No Password", "username": "bad", "email": "b@x.io"}),
            row(" A@X.IO", "other"),
            row("c@x.io", "anh"),
            row("d@x.io", "ANH"),
            row("b@x.io", "bad"),
        ]);
        let codes: Vec<Vec<&str>> = slots
            .iter()
            .map(|s| s.issues.iter().map(|i| i.code.as_str()).collect())
            .collect();
        assert_eq!(codes[0], Vec::<&str>::new());
        assert_eq!(codes[1], ["required"]);
        assert_eq!(codes[2], ["duplicate_email"]);
        assert_eq!(codes[3], ["duplicate_username"]);
        // Another case is only a platform finding; and a set-aside row blocks no later one.
        assert!(codes[4].is_empty());
        assert_eq!(slots[4].warnings[0].code, "duplicate_username");
        assert_eq!(slots[4].warnings[0].level, Level::Platform);
        assert!(codes[5].is_empty());
        assert_eq!(slots[2].issues[0].message, "Email already used in row 1");
    }
}
