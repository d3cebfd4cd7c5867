//! Granting courses to more than 100 accounts: chunked add-courses with a journal and resume.
//!
//! Decision: granting the same course twice is harmless on the platform (an existing enrolment
//! is kept), so a grant chunk in doubt is simply sent again; no look-ups.

use serde::{Deserialize, Serialize};

use super::answer;
use super::journal::{DoubtReason, Event, Outcome, PlannedRow};
use super::ledger::Ledger;
use super::{
    check_chunk_size, repeat_issue, Action, BulkError, Counts, Failure, GrantAction, Progress,
    RowResult, DEFAULT_ATTEMPTS, DEFAULT_RETRY_DELAY_MS, GRANT_JOB, MAX_CHUNK,
};
use crate::endpoint::AddCoursesReply;
use crate::error::Error;
use crate::json::{JsonView, Kind};
use crate::plan::{Planner, Request};
use crate::validate::collect::FirstSeen;
use crate::validate::{self, Issue, IssueCode, Lang, Level, PathSegment, ValidateOptions};

/// Options of a grant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", default)]
pub struct GrantOptions {
    /// Accounts per call, 1..=100 (default 100).
    #[cfg_attr(feature = "wasm", tsify(type = "number | undefined"))]
    pub chunk_size: usize,
    /// Milliseconds between two calls (default 0: the contract sets no interval for add-courses).
    #[cfg_attr(feature = "wasm", tsify(type = "number | undefined"))]
    pub interval_ms: u64,
    /// Language of the issues' messages.
    #[cfg_attr(feature = "wasm", tsify(type = "Lang | undefined"))]
    pub lang: Lang,
    /// Wait after a lost answer or a refusal that may pass.
    #[cfg_attr(feature = "wasm", tsify(type = "number | undefined"))]
    pub retry_delay_ms: u64,
    /// Such failures in a row before the run stops; the journal resumes it.
    #[cfg_attr(feature = "wasm", tsify(type = "number | undefined"))]
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

/// One account in the grant report.
#[derive(Clone, Debug, PartialEq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct GrantRowReport {
    /// 0-based index in the input.
    pub row: usize,
    /// The account id as given (empty when it is not a string).
    pub user_id: String,
    /// What happened.
    pub result: RowResult,
}

/// The final report of a grant.
#[derive(Clone, Debug, PartialEq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct GrantReport {
    /// One entry per input account.
    pub rows: Vec<GrantRowReport>,
    /// Counts.
    pub counts: Counts,
    /// Why the run stopped early, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub halted: Option<String>,
    /// The category of the platform's refusal that stopped the run, when one did (as an import's
    /// `haltedBy`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub halted_by: Option<crate::codes::Category>,
}

struct InFlight {
    chunk: u32,
    rows: Vec<usize>,
    request: Request<AddCoursesReply>,
}

/// A resumable grant of courses to any number of accounts.
pub struct GrantJob {
    api: Planner,
    opts: GrantOptions,
    courses: Vec<String>,
    ids: Vec<String>,
    issues: Vec<Vec<Issue>>,
    ledger: Ledger,
    ready: Option<InFlight>,
    in_flight: Option<InFlight>,
    /// Whether this run has polled (its first poll settles a call the journal left open).
    polled: bool,
}

/// The one call into validation for a grant: the contract-level findings of the account list
/// and the course list.
fn validate_grant<J: JsonView>(users: &J, courses: &J, lang: Lang) -> Vec<Issue> {
    let opts = ValidateOptions {
        lang,
        platform_rules: true,
    };
    validate::validate_add_courses(users, courses, opts)
        .issues
        .into_iter()
        .filter(|i| i.level == Level::Contract)
        // The job chunks any number of accounts, none included (an empty report).
        .filter(|i| {
            !(i.path.len() == 1
                && matches!(i.code, IssueCode::TooMany | IssueCode::Empty)
                && matches!(i.path.first(), Some(PathSegment::Key(k)) if k == "users"))
        })
        .collect()
}

/// The issues under the list `name` that make the job unusable (for the account list, those of
/// the list itself; for the course list, any), or the list's absence as `not_array`.
fn list_issues(issues: &[Issue], name: &str, present: bool, lang: Lang) -> Vec<Issue> {
    if !present {
        return vec![Issue {
            path: vec![PathSegment::Key(name.to_owned())],
            code: IssueCode::NotArray,
            level: Level::Contract,
            message: validate::message(IssueCode::NotArray, name, 0, lang),
        }];
    }
    issues
        .iter()
        .filter(|i| matches!(i.path.first(), Some(PathSegment::Key(k)) if k == name))
        .filter(|i| i.path.len() == 1 || name == "courses")
        .cloned()
        .collect()
}

impl GrantJob {
    /// A new grant of `courses` to `users` (account ids).
    pub fn new(
        api: Planner,
        users: Vec<String>,
        courses: Vec<String>,
        options: GrantOptions,
    ) -> Result<GrantJob, BulkError> {
        Self::resume(api, users, courses, options, &[])
    }

    /// Rebuilds a grant from the same input and its journal (an empty journal starts afresh).
    /// Refused when the journal is of another input: other accounts at the rows it names, other
    /// courses, another size, another job.
    pub fn resume(
        api: Planner,
        users: Vec<String>,
        courses: Vec<String>,
        options: GrantOptions,
        journal: &[Event],
    ) -> Result<GrantJob, BulkError> {
        let users = users.into_iter().map(serde_json::Value::from).collect();
        Self::resume_values(api, users, courses, options, journal)
    }

    /// [`GrantJob::resume`] with raw JSON account ids (non-strings are set aside with their
    /// issues).
    pub fn resume_values(
        api: Planner,
        users: Vec<serde_json::Value>,
        courses: Vec<String>,
        opts: GrantOptions,
        journal: &[Event],
    ) -> Result<GrantJob, BulkError> {
        let input = serde_json::json!({ "users": users, "courses": courses });
        Self::resume_input(api, &input, opts, journal)
    }

    /// [`GrantJob::resume`] with the input `{users, courses}` in any JSON representation
    /// ([`JsonView`]). Accounts with issues are set aside; a course list or an account list
    /// that cannot be used at all refuses the job ([`BulkError::Input`]).
    pub fn resume_input<J: JsonView>(
        api: Planner,
        input: &J,
        opts: GrantOptions,
        journal: &[Event],
    ) -> Result<GrantJob, BulkError> {
        check_chunk_size(opts.chunk_size)?;
        if api.token().is_none() {
            return Err(BulkError::NoToken);
        }
        let (users, courses) = (input.get("users"), input.get("courses"));
        let found = match (users, courses) {
            (Some(u), Some(c)) => validate_grant(u, c, opts.lang),
            _ => Vec::new(),
        };
        let course_issues = list_issues(&found, "courses", courses.is_some(), opts.lang);
        if !course_issues.is_empty() {
            return Err(BulkError::Courses(course_issues));
        }
        let user_issues = list_issues(&found, "users", users.is_some(), opts.lang);
        if !user_issues.is_empty() {
            return Err(BulkError::Input(user_issues));
        }
        let (Some(Kind::Arr(users)), Some(Kind::Arr(course_list))) =
            (users.map(JsonView::kind), courses.map(JsonView::kind))
        else {
            // Both lists were found to be arrays above.
            return Err(BulkError::Input(Vec::new()));
        };
        let courses: Vec<String> = course_list
            .iter()
            .map(|c| c.as_str().unwrap_or_default().to_owned())
            .collect();
        // Each account's findings, by its index, with the `users[i]` prefix dropped.
        let mut issues: Vec<Vec<Issue>> = vec![Vec::new(); users.len()];
        for mut issue in found {
            if let [PathSegment::Key(k), PathSegment::Index(i), ..] = issue.path.as_slice() {
                if k == "users" && *i < issues.len() {
                    let i = *i;
                    issue.path.drain(..2);
                    issues[i].push(issue);
                }
            }
        }
        let ids: Vec<String> = users
            .iter()
            .map(|u| u.as_str().unwrap_or_default().to_owned())
            .collect();
        // An id repeating an earlier usable one is set aside.
        let firsts =
            FirstSeen::new((0..ids.len()).map(|i| issues[i].is_empty().then_some(ids[i].as_str())));
        for (i, id) in ids.iter().enumerate() {
            if let Some(first) = firsts.before(id, i).filter(|_| issues[i].is_empty()) {
                let repeat = repeat_issue(
                    IssueCode::DuplicateId,
                    "",
                    first,
                    Level::Contract,
                    opts.lang,
                );
                issues[i].push(repeat);
            }
        }
        let keys = ids
            .iter()
            .enumerate()
            .map(|(row, id)| PlannedRow {
                row,
                email: None,
                username: None,
                user_id: Some(id.clone()),
            })
            .collect();
        let aside: Vec<bool> = issues.iter().map(|i| !i.is_empty()).collect();
        let mut ledger = Ledger::new(
            GRANT_JOB,
            courses.clone(),
            keys,
            &aside,
            opts.interval_ms,
            true,
        );
        ledger.start(journal)?;
        let job = GrantJob {
            api,
            opts,
            courses,
            ids,
            issues,
            ledger,
            ready: None,
            in_flight: None,
            polled: false,
        };
        Ok(job)
    }

    fn push_progress(&mut self, now: u64) {
        self.ledger.push_progress(now, self.opts.chunk_size);
    }

    /// What to do next at `now` (ms). Persist what [`Action::Persist`] hands out first.
    pub fn poll(&mut self, now: u64) -> GrantAction {
        if self.ledger.start_poll(&mut self.polled, now) {
            self.push_progress(now);
        }
        loop {
            if let Some(events) = self.ledger.take_journal() {
                return Action::Persist(events);
            }
            if let Some(ready) = self.ready.take() {
                let request = ready.request.clone();
                self.in_flight = Some(ready);
                return Action::Send(request);
            }
            if self.in_flight.is_some() {
                return Action::Busy;
            }
            if self.ledger.halted.is_some() || self.ledger.pending.is_empty() {
                return Action::Done(self.report());
            }
            let at = self.ledger.pacer.next_send_at();
            if now < at {
                return Action::Wait { until: at };
            }
            let rows: Vec<usize> = self
                .ledger
                .pending
                .iter()
                .take(self.opts.chunk_size)
                .collect();
            let users: Vec<&str> = rows.iter().map(|&r| self.ids[r].as_str()).collect();
            // The ids were checked one by one and across the input when the job was set up.
            match self.api.add_courses_checked(&users, &self.courses) {
                Ok(request) => {
                    let chunk = self.ledger.plan(&rows, now);
                    self.ready = Some(InFlight {
                        chunk,
                        rows,
                        request,
                    });
                    self.push_progress(now);
                }
                Err(e) => {
                    let line = ["the chunk could not be planned: ", &e.message()].concat();
                    self.ledger.halted = Some(line);
                }
            }
        }
    }

    /// Hands back the HTTP answer of the request the last action handed out, with its `Date`
    /// header as every engine takes it (a grant judges no account: unused).
    pub fn handle_response(
        &mut self,
        now: u64,
        status: u16,
        body: &[u8],
        _date: Option<u64>,
    ) -> Result<(), BulkError> {
        let f = self.in_flight.take().ok_or(BulkError::NothingInFlight)?;
        self.ledger.ended(f.chunk, now);
        match f.request.check(status, body).map(|_| answer::tree(body)) {
            Ok(Some(answer)) => {
                self.ledger.failures = 0;
                let result = answer::granted(&answer);
                // Results are matched by account id, not by position (the first for an id).
                let by_id = FirstSeen::new(result.iter().map(|o| Some(o.user_id)));
                let mut outcomes = Vec::with_capacity(f.rows.len());
                for &row in &f.rows {
                    let found = by_id.before(&self.ids[row], usize::MAX);
                    outcomes.push(match found.and_then(|i| result.get(i)) {
                        Some(o) if o.success => Outcome::Granted,
                        Some(o) => Outcome::Failed {
                            status: answer::kept(o.status, f.request.secret()),
                        },
                        None => Outcome::NoResult,
                    });
                }
                self.ledger.record(Event::ChunkOutcomes {
                    chunk: f.chunk,
                    rows: f.rows,
                    outcomes,
                });
            }
            Err(Error::Api(e)) => {
                self.ledger.record(Event::ChunkRefused {
                    chunk: f.chunk,
                    code: e.code.clone(),
                    msg: e.msg.clone(),
                });
                if e.retryable {
                    self.failed_once(now, e.message());
                } else {
                    self.ledger.halted = Some(e.message());
                    self.ledger.halted_by = Some(e.category);
                }
            }
            Ok(None) | Err(_) => self.lost(now, f, DoubtReason::Unreadable { status }),
        }
        self.push_progress(now);
        Ok(())
    }

    /// Hands back a request that got no answer.
    pub fn handle_failure(&mut self, now: u64, failure: Failure) -> Result<(), BulkError> {
        let f = self.in_flight.take().ok_or(BulkError::NothingInFlight)?;
        self.ledger.ended(f.chunk, now);
        self.lost(now, f, DoubtReason::Transport { failure });
        self.push_progress(now);
        Ok(())
    }

    /// The answer is lost: the rows go back to be sent (granting twice is harmless).
    fn lost(&mut self, now: u64, f: InFlight, reason: DoubtReason) {
        self.ledger.record(Event::RowsInDoubt {
            chunk: f.chunk,
            rows: f.rows,
            reason,
        });
        self.failed_once(now, "add-courses calls got no readable answer".to_owned());
    }

    fn failed_once(&mut self, now: u64, reason: String) {
        let (attempts, delay) = (self.opts.attempts, self.opts.retry_delay_ms);
        self.ledger.failed_once(now, attempts, delay, reason);
    }

    /// The next progress event, if any.
    pub fn poll_event(&mut self) -> Option<Progress> {
        self.ledger.progress.pop_front()
    }

    /// Where the grant stands at `now`.
    pub fn progress(&self, now: u64) -> Progress {
        self.ledger.progress_at(now, self.opts.chunk_size)
    }

    /// The report as things stand.
    pub fn report(&self) -> GrantReport {
        let (results, counts) = self.ledger.results(|r| &self.issues[r]);
        let rows = results
            .into_iter()
            .enumerate()
            .map(|(row, result)| GrantRowReport {
                row,
                user_id: self.ids[row].clone(),
                result,
            })
            .collect();
        GrantReport {
            rows,
            counts,
            halted: self.ledger.halted.clone(),
            halted_by: self.ledger.halted_by,
        }
    }
}
