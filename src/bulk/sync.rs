//! Making the platform match a sheet: each row looked up, the missing accounts created through
//! the import engine, the courses each account lacks granted through the grant engine, and the
//! accounts holding courses outside the list reported (the API cannot revoke: report, never
//! guess). Sans-IO like the engines it drives, and journaled in one journal: the sync's own
//! events (`started`, then a `rowLooked` a row), then each engine's events as that engine hands
//! them out, each engine's beginning with its own `started`. A resume replays the look-ups and
//! hands each engine its own part of the journal.
//!
//! Phases, in order: look-ups (one at a time, one call a row: search-user tries the e-mail, then
//! the username);
//! the plan ([`SyncAction::Plan`]: the rows to create, so the caller can give passwords to rows
//! without one); the import of those rows; one grant per set of lacking courses (accounts that
//! lack the same courses share calls); done.
//!
//! Whose account a look-up found is the one judge's ([`super::judge::whose`]). A sync's own
//! look-ups go before it sends anything, so their window is all time ([`Window::ALWAYS`]): an
//! account with the row's e-mail and username is the row's (`exists`), another's is a conflict;
//! never "made by this job". The rows its import sends are the import's to judge, by the import's
//! windows, when their answers are lost.

use core::ops::Range;

use serde::Serialize;

use super::answer::{self, Found};
use super::journal::{Event, Existing, FoundAccount, LookupOutcome};
use super::judge::{self, RowKey, Window};
use super::{
    Action, BulkError, Failure, GrantJob, GrantOptions, GrantReport, ImportJob, ImportOptions,
    ImportReport, JournalError, Progress, RowResult,
};
use crate::codes::Category;
use crate::endpoint::{AddCoursesReply, CreateUsersReply};
use crate::error::Error;
use crate::json::{self, JsonView};
use crate::plan::{Planner, Request};
use crate::reply::UserReply;
use crate::text::fold;
use crate::validate::{Issue, PathSegment};

/// The `started` event's job name of a sync.
const SYNC_JOB: &str = "sync";

/// Options of a sync: an import's (chunks, interval, language, failures in a row); its grants
/// take the same chunk size, language and failure rules, without an interval.
pub type SyncOptions = ImportOptions;

/// What the caller does next.
#[derive(Debug)]
#[must_use]
pub enum SyncAction {
    /// Append these journal events to durable storage (flushed), then poll again.
    Persist(Vec<Event>),
    /// Send this create call (the create interval is kept: [`SyncJob::may_plan`]).
    Create(Request<CreateUsersReply>),
    /// Send this add-courses call.
    Grant(Request<AddCoursesReply>),
    /// Send this look-up (a GET).
    Lookup(Request<UserReply>),
    /// The look-ups are done and these rows (0-based) are to be created: give the ones without a
    /// password one ([`SyncJob::fill`]) before polling again. Handed out once a run, before
    /// anything is created or granted (a dry run stops here).
    Plan(Vec<usize>),
    /// Nothing to do before `until` (ms); poll again then.
    Wait {
        /// When to poll again.
        until: u64,
    },
    /// A request is out: hand its answer back before polling again.
    Busy,
    /// The sync is over.
    Done(SyncReport),
}

/// One input row in a sync's report.
#[derive(Clone, Debug, PartialEq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SyncRowReport {
    /// 0-based index in the input.
    pub row: usize,
    /// Its e-mail (trimmed).
    pub email: String,
    /// Its username (trimmed).
    pub username: String,
    /// Its account: `exists`, `created`, or why there is none (`conflict`, `setAside`, `failed`,
    /// `inDoubt`, `notSent`).
    pub result: RowResult,
    /// The listed courses the account lacked (what the sync grants it).
    pub lacked: Vec<String>,
    /// What became of the grant of `lacked` (`granted`, `failed`, `noResult`, `notSent`), when
    /// it lacked any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grant: Option<RowResult>,
    /// Courses the account holds outside its list: reported, never revoked (the API cannot).
    pub other: Vec<String>,
}

/// Counts of a sync's report (rows).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SyncCounts {
    /// Input rows.
    pub total: usize,
    /// Accounts that existed.
    pub exists: usize,
    /// Accounts created.
    pub created: usize,
    /// Accounts granted the courses they lacked.
    pub granted: usize,
    /// Accounts holding courses outside their list.
    pub other: usize,
    /// Rows whose e-mail or username belongs to another person's account.
    pub conflicts: usize,
    /// Rows set aside before anything was sent.
    pub set_aside: usize,
    /// Creates or grants the platform refused.
    pub failed: usize,
    /// Creates whose outcome is unknown.
    pub in_doubt: usize,
    /// Rows not done because the run stopped.
    pub not_sent: usize,
}

/// The report of a sync.
#[derive(Clone, Debug, PartialEq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SyncReport {
    /// One entry per input row.
    pub rows: Vec<SyncRowReport>,
    /// Counts.
    pub counts: SyncCounts,
    /// The sync ended having created and granted nothing: the platform already matched (but
    /// for rows set aside or in conflict).
    pub nothing_to_send: bool,
    /// Why the run stopped before the end, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub halted: Option<String>,
    /// The category of the platform's refusal that stopped the run, when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub halted_by: Option<Category>,
}

/// One input row as the sync keeps it.
struct Slot {
    /// Its JSON text (what an import of it sends).
    json: String,
    /// Trimmed as given (what is searched).
    email: String,
    /// Trimmed, lower case (what is journaled).
    email_key: String,
    /// Trimmed.
    username: String,
    /// What sets it aside before any look-up (a password is only needed to create: its issues
    /// are the import's to find).
    issues: Vec<Issue>,
    /// The courses it should hold.
    wanted: Vec<String>,
    /// The password given to it to create ([`SyncJob::fill`]).
    password: Option<String>,
    /// Its index in the rows to create, once the look-ups are done.
    create_at: Option<usize>,
    /// Its grant and its index in that grant's rows, once the import is done.
    grant_at: Option<(usize, usize)>,
}

/// What the look-up of a row found, judged.
#[derive(Clone, Debug, PartialEq)]
enum Looked {
    /// No account: to create.
    Missing,
    /// The row's account (the same person), with the courses it holds.
    Exists { user_id: String, held: Vec<String> },
    /// Another person's account holds the row's e-mail or username.
    Conflict(Existing),
}

enum Phase {
    Lookup,
    /// Look-ups done; the plan is handed out at the next poll.
    Plan,
    /// The plan was handed out; the import starts at the next poll.
    Planned,
    Import(Box<ImportJob>),
    Grant(usize, Box<GrantJob>),
    Done,
}

/// A look-up out (or ready to go).
struct LookupOut {
    row: usize,
    request: Request<UserReply>,
}

/// A resumable sync of a sheet with the platform. See the module docs.
pub struct SyncJob {
    api: Planner,
    opts: SyncOptions,
    slots: Vec<Slot>,
    looked: Vec<Option<Looked>>,
    /// Rows without issues, and how many of them are looked up (kept as rows are looked up,
    /// never counted again).
    usable: usize,
    done: usize,
    /// Every row before it is looked up or set aside: where the next look-up's search starts.
    lookup_from: usize,
    phase: Phase,
    /// Events to persist (the sync's own; an engine's are handed out as it gives them).
    unpersisted: Vec<Event>,
    /// The engines' parts of the journal given to resume, in order (import, then grants).
    parts: Vec<Vec<Event>>,
    /// The next part an engine takes.
    next_part: usize,
    ready: Option<LookupOut>,
    in_flight: Option<LookupOut>,
    lookup_not_before: u64,
    lookup_failures: u32,
    /// The last look-up failure, in words, while failures are in a row.
    lookup_error: Option<String>,
    /// The rows to create, once the look-ups are done (in input order).
    create: Vec<usize>,
    import_report: Option<ImportReport>,
    /// Each grant's courses and rows, once the import is done.
    groups: Vec<(Vec<String>, Vec<usize>)>,
    grant_reports: Vec<GrantReport>,
    /// The next create waits until then at least (a create this job does not know of).
    hold: u64,
    halted: Option<String>,
    halted_by: Option<Category>,
    progress: Vec<Progress>,
}

/// A list without repeats, first seen first.
fn dedup(items: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// The items of `a` that `b` lacks, in `a`'s order.
fn minus(a: &[String], b: &[String]) -> Vec<String> {
    a.iter().filter(|x| !b.contains(x)).cloned().collect()
}

/// A row's JSON text with `password` set (an object's other members as they were).
fn with_password(row: &str, password: &str) -> String {
    let Ok(value) = json::parse(row) else {
        return row.to_owned();
    };
    if !value.is_object() {
        return row.to_owned();
    }
    let mut out = String::from("{");
    value.each_member(&mut |key, v| {
        if key != "password" {
            json::push_str(&mut out, key);
            out.push(':');
            out.push_str(&v.to_json());
            out.push(',');
        }
    });
    json::push_str(&mut out, "password");
    out.push(':');
    json::push_str(&mut out, password);
    out.push('}');
    out
}

fn is_password(issue: &Issue) -> bool {
    matches!(issue.path.first(), Some(PathSegment::Key(k)) if k == "password")
}

impl SyncJob {
    /// A sync of `rows` (account objects, as an import's) where row `i` should hold
    /// `courses[i]`, resumed from `journal` (empty: a new sync). Rows with contract-level issues
    /// (other than the password's, needed only to create) and repeats are set aside.
    // Out of line, as `replay`, `start_import`, `poll` and `handle_response`: inlined into their
    // one caller each (in the end the wasm's exports), they made lpm-client-bulk larger.
    #[inline(never)]
    pub fn resume_rows<J: JsonView>(
        api: Planner,
        rows: &[J],
        courses: Vec<Vec<String>>,
        opts: SyncOptions,
        journal: Vec<Event>,
    ) -> Result<SyncJob, BulkError> {
        // The import's own judgement of the rows (validation, repeats), with nothing sent: one
        // rule for what sets a row aside.
        let check = ImportJob::resume_rows(api.clone(), rows, opts.clone(), &[])?;
        let mut issues: Vec<Vec<Issue>> = vec![Vec::new(); rows.len()];
        for r in check.row_issues() {
            if let Some(slot) = issues.get_mut(r.row) {
                *slot = r.issues.into_iter().filter(|i| !is_password(i)).collect();
            }
        }
        drop(check);
        let text = |v: &J, key: &str| {
            v.get(key)
                .and_then(JsonView::as_str)
                .map(str::trim)
                .unwrap_or_default()
                .to_owned()
        };
        let mut courses = courses.into_iter();
        let slots: Vec<Slot> = rows
            .iter()
            .zip(issues)
            .map(|(row, issues)| {
                let email = text(row, "email");
                Slot {
                    json: row.to_json(),
                    email_key: fold(&email).into_owned(),
                    email,
                    username: text(row, "username"),
                    issues,
                    wanted: dedup(courses.next().unwrap_or_default()),
                    password: None,
                    create_at: None,
                    grant_at: None,
                }
            })
            .collect();
        let all_courses = dedup(slots.iter().flat_map(|s| s.wanted.iter().cloned()));
        let mut job = SyncJob {
            api,
            looked: vec![None; slots.len()],
            usable: slots.iter().filter(|s| s.issues.is_empty()).count(),
            done: 0,
            lookup_from: 0,
            slots,
            phase: Phase::Lookup,
            unpersisted: Vec::new(),
            parts: Vec::new(),
            next_part: 0,
            ready: None,
            in_flight: None,
            lookup_not_before: 0,
            lookup_failures: 0,
            lookup_error: None,
            create: Vec::new(),
            import_report: None,
            groups: Vec::new(),
            grant_reports: Vec::new(),
            hold: 0,
            halted: None,
            halted_by: None,
            progress: Vec::new(),
            opts,
        };
        job.replay(journal, all_courses)?;
        job.push_progress();
        Ok(job)
    }

    /// Reads the sync's own events and splits off the engines' parts.
    /// (The journal is taken, not borrowed: its events move into the engines' parts, where
    /// copies of each would cost the wasm a clone of every event kind.)
    #[inline(never)]
    fn replay(&mut self, journal: Vec<Event>, courses: Vec<String>) -> Result<(), JournalError> {
        let mut events = journal.into_iter().enumerate();
        let Some((_, first)) = events.next() else {
            self.unpersisted.push(Event::Started {
                job: SYNC_JOB.to_owned(),
                rows: self.slots.len(),
                courses,
            });
            return Ok(());
        };
        match first {
            Event::Started {
                job,
                rows,
                courses: c,
            } if job == SYNC_JOB => {
                if rows != self.slots.len() {
                    return Err(JournalError::RowCount {
                        journal: rows,
                        input: self.slots.len(),
                    });
                }
                if c != courses {
                    return Err(JournalError::Courses);
                }
            }
            Event::Started { job, .. } => return Err(JournalError::WrongJob { journal: job }),
            _ => return Err(JournalError::NoStart),
        }
        for (index, event) in events {
            match event {
                Event::Started { .. } => self.parts.push(vec![event]),
                Event::RowLooked { .. } if !self.parts.is_empty() => {
                    return Err(out_of_order(index, "a look-up after the plan"))
                }
                Event::RowLooked {
                    row,
                    email,
                    username,
                    account,
                } => {
                    let slot = self
                        .slots
                        .get(row)
                        .filter(|s| s.issues.is_empty())
                        .ok_or_else(|| out_of_order(index, "a look-up of a row not looked up"))?;
                    if slot.email_key != email || slot.username != username {
                        return Err(JournalError::RowMismatch { row });
                    }
                    let looked = judged(slot, account);
                    self.set_looked(row, looked);
                }
                _ => match self.parts.last_mut() {
                    Some(part) => part.push(event),
                    None => return Err(out_of_order(index, "an engine's event before its start")),
                },
            }
        }
        Ok(())
    }

    /// The phase in words, for a caller's headings: `lookup`, `create`, `grant` or `done`.
    pub fn phase(&self) -> &'static str {
        match self.phase {
            Phase::Lookup | Phase::Plan | Phase::Planned => "lookup",
            Phase::Import(_) => "create",
            Phase::Grant(..) => "grant",
            Phase::Done => "done",
        }
    }

    /// The rows to create, once the look-ups are done.
    pub fn to_create(&self) -> &[usize] {
        &self.create
    }

    /// Gives row `row` (to create, without a password) the password `password`, after
    /// [`SyncAction::Plan`] and before the next poll. (Never journaled.)
    pub fn fill(&mut self, row: usize, password: &str) {
        if let Some(slot) = self.slots.get_mut(row) {
            slot.password = Some(password.to_owned());
        }
    }

    /// Whether a poll at `now` may plan a create (ask the shared interval first and pass its
    /// time to [`SyncJob::hold_until`]): only while the import runs, as it says.
    pub fn may_plan(&self, now: u64) -> bool {
        match &self.phase {
            Phase::Import(job) => self.unpersisted.is_empty() && job.may_plan(now),
            // (The import's first chunk goes at the poll that starts it.)
            Phase::Planned => !self.create.is_empty(),
            _ => false,
        }
    }

    /// When the import's last create call ended (ms), while the import runs: what the caller
    /// writes to the shared interval store once the call's answer is handed back.
    pub fn last_call_at(&self) -> Option<u64> {
        match &self.phase {
            Phase::Import(job) => job.last_call_at(),
            _ => None,
        }
    }

    /// Holds the next create until `at` (ms) at least.
    pub fn hold_until(&mut self, at: u64) {
        self.hold = self.hold.max(at);
        if let Phase::Import(job) = &mut self.phase {
            job.hold_until(at);
        }
    }

    /// The next progress event, if any: the look-ups', then each engine's.
    pub fn poll_event(&mut self) -> Option<Progress> {
        if !self.progress.is_empty() {
            return Some(self.progress.remove(0));
        }
        match &mut self.phase {
            Phase::Import(job) => job.poll_event(),
            Phase::Grant(_, job) => job.poll_event(),
            _ => None,
        }
    }

    fn push_progress(&mut self) {
        if !matches!(self.phase, Phase::Lookup) {
            return;
        }
        let (usable, done) = (self.usable, self.done);
        let failing = self.lookup_failures > 0 && self.halted.is_none();
        self.progress.push(Progress {
            done,
            set_aside: self.slots.len() - usable,
            remaining: usable - done,
            looking_up: self
                .ready
                .as_ref()
                .or(self.in_flight.as_ref())
                .map(|o| o.row),
            retries: self.lookup_failures,
            last_error: self
                .lookup_error
                .clone()
                .filter(|_| self.lookup_failures > 0),
            // The look-up tried again after a failure waits for the retry delay.
            next_send_at: failing.then_some(self.lookup_not_before),
            ..Progress::default()
        });
    }

    /// What to do next at `now` (ms).
    #[inline(never)]
    pub fn poll(&mut self, now: u64) -> SyncAction {
        loop {
            if !self.unpersisted.is_empty() {
                return SyncAction::Persist(core::mem::take(&mut self.unpersisted));
            }
            if let Some(out) = self.ready.take() {
                let request = out.request.clone();
                self.in_flight = Some(out);
                // (A screen shows which row is being looked up while its answer is awaited.)
                self.push_progress();
                return SyncAction::Lookup(request);
            }
            if self.in_flight.is_some() {
                return SyncAction::Busy;
            }
            if self.halted.is_some() {
                self.phase = Phase::Done;
            }
            match &mut self.phase {
                Phase::Lookup => {
                    // Rows are only ever looked up, never un-looked: the search resumes where
                    // the last one stopped.
                    while self.lookup_from < self.slots.len()
                        && (!self.slots[self.lookup_from].issues.is_empty()
                            || self.looked[self.lookup_from].is_some())
                    {
                        self.lookup_from += 1;
                    }
                    let next = (self.lookup_from < self.slots.len()).then_some(self.lookup_from);
                    match next {
                        Some(_) if now < self.lookup_not_before => {
                            return SyncAction::Wait {
                                until: self.lookup_not_before,
                            }
                        }
                        Some(row) => self.plan_lookup(row),
                        None => self.planned(),
                    }
                }
                Phase::Plan => {
                    self.phase = Phase::Planned;
                    return SyncAction::Plan(self.create.clone());
                }
                Phase::Planned if self.create.is_empty() => self.start_grants(),
                Phase::Planned => self.start_import(),
                Phase::Import(job) => match job.poll(now) {
                    Action::Done(report) => self.imported(report),
                    other => return engine_action(other, SyncAction::Create),
                },
                Phase::Grant(k, job) => match job.poll(now) {
                    Action::Done(report) => {
                        let k = *k;
                        self.granted(k, report);
                    }
                    other => return engine_action(other, SyncAction::Grant),
                },
                Phase::Done => return SyncAction::Done(self.report()),
            }
        }
    }

    /// One look-up a row: search-user tries the e-mail, then the username, in one call.
    fn plan_lookup(&mut self, row: usize) {
        let slot = &self.slots[row];
        let email = json::Value::Str(slot.email.as_str().into());
        let username = json::Value::Str(slot.username.as_str().into());
        match self.api.search_user_value(&email, &username) {
            Ok(request) => self.ready = Some(LookupOut { row, request }),
            Err(e) => {
                self.halted = Some(["the look-up could not be planned: ", &e.message()].concat())
            }
        }
    }

    /// Records what a look-up found for `row`.
    fn looked_up(&mut self, row: usize, account: Option<FoundAccount>) {
        let looked = judged(&self.slots[row], account.clone());
        self.set_looked(row, looked);
        let slot = &self.slots[row];
        self.unpersisted.push(Event::RowLooked {
            row,
            email: slot.email_key.clone(),
            username: slot.username.clone(),
            account,
        });
        self.lookup_failures = 0;
        self.lookup_error = None;
    }

    /// Row `row` is looked up (again, when a journal says so twice).
    fn set_looked(&mut self, row: usize, looked: Looked) {
        if self.looked[row].replace(looked).is_none() {
            self.done += 1;
        }
    }

    /// Every row is looked up: the rows to create are known.
    fn planned(&mut self) {
        self.create = (0..self.slots.len())
            .filter(|&r| matches!(self.looked[r], Some(Looked::Missing)))
            .collect();
        for (k, &row) in self.create.iter().enumerate() {
            self.slots[row].create_at = Some(k);
        }
        self.phase = Phase::Plan;
    }

    /// Starts the import of the rows to create (its part of the journal, if any).
    #[inline(never)]
    fn start_import(&mut self) {
        let mut texts = String::new();
        let mut ranges: Vec<Range<usize>> = Vec::with_capacity(self.create.len());
        for &row in &self.create {
            let slot = &self.slots[row];
            let from = texts.len();
            match &slot.password {
                Some(password) => texts.push_str(&with_password(&slot.json, password)),
                None => texts.push_str(&slot.json),
            }
            ranges.push(from..texts.len());
        }
        let values: Vec<json::Value<'_>> = ranges
            .iter()
            .map(|r| json::parse(&texts[r.clone()]).unwrap_or(json::Value::Null))
            .collect();
        let part = self.take_part("import");
        let started = part.and_then(|part| {
            ImportJob::resume_texts(
                self.api.clone(),
                &values,
                texts.clone(),
                ranges.clone(),
                self.opts.clone(),
                &part,
            )
            .map_err(|e| e.message())
        });
        drop(values);
        match started {
            Ok(mut job) => {
                job.hold_until(self.hold);
                self.phase = Phase::Import(Box::new(job));
            }
            Err(why) => self.halted = Some(why),
        }
    }

    /// The next engine's part of the journal (empty: it starts afresh), which must be `job`'s.
    fn take_part(&mut self, job: &str) -> Result<Vec<Event>, String> {
        let Some(part) = self.parts.get_mut(self.next_part) else {
            return Ok(Vec::new());
        };
        self.next_part += 1;
        match part.first() {
            Some(Event::Started { job: j, .. }) if j == job => Ok(core::mem::take(part)),
            _ => Err(refused(JournalError::WrongJob {
                journal: job.to_owned(),
            })),
        }
    }

    fn imported(&mut self, report: ImportReport) {
        let c = report.counts;
        if report.halted.is_some() {
            self.halted.clone_from(&report.halted);
            self.halted_by = report.halted_by;
        } else if c.in_doubt + c.not_sent > 0 {
            self.halted = Some("rows in doubt: resume to look them up".to_owned());
        }
        self.import_report = Some(report);
        if self.halted.is_none() {
            self.start_grants();
        } else {
            self.phase = Phase::Done;
        }
    }

    /// Row `row`'s account, once the import is done: its id and the courses it holds.
    fn account(&self, row: usize) -> Option<(&str, &[String])> {
        match self.looked.get(row)? {
            Some(Looked::Exists { user_id, held }) => Some((user_id, held)),
            Some(Looked::Missing) => match self.created(row)? {
                RowResult::Created { user_id } => Some((user_id, &[])),
                _ => None,
            },
            _ => None,
        }
    }

    /// The import's result of a row it created or tried to.
    fn created(&self, row: usize) -> Option<&RowResult> {
        let k = self.slots.get(row)?.create_at?;
        Some(&self.import_report.as_ref()?.rows.get(k)?.result)
    }

    fn start_grants(&mut self) {
        let mut groups: Vec<(Vec<String>, Vec<usize>)> = Vec::new();
        for (row, slot) in self.slots.iter().enumerate() {
            let Some((_, held)) = self.account(row) else {
                continue;
            };
            let lack = minus(&slot.wanted, held);
            if lack.is_empty() {
                continue;
            }
            match groups.iter_mut().find(|(c, _)| *c == lack) {
                Some((_, rows)) => rows.push(row),
                None => groups.push((lack, vec![row])),
            }
        }
        for (k, (_, rows)) in groups.iter().enumerate() {
            for (at, &row) in rows.iter().enumerate() {
                self.slots[row].grant_at = Some((k, at));
            }
        }
        self.groups = groups;
        self.next_grant(0);
    }

    /// Starts grant `k`, or ends the sync after the last.
    fn next_grant(&mut self, k: usize) {
        let Some((courses, rows)) = self.groups.get(k) else {
            self.phase = Phase::Done;
            return;
        };
        let users: Vec<&str> = rows
            .iter()
            .map(|&r| self.account(r).map_or("", |(id, _)| id))
            .collect();
        let opts = GrantOptions {
            chunk_size: self.opts.chunk_size,
            interval_ms: 0,
            lang: self.opts.lang,
            retry_delay_ms: self.opts.retry_delay_ms,
            attempts: self.opts.attempts,
        };
        // The grant's input as JSON text read by the core's own reader (serde_json's values would
        // add kilobytes to the wasm).
        let list = |out: &mut String, items: &mut dyn Iterator<Item = &str>| {
            out.push('[');
            for (k, item) in items.enumerate() {
                if k > 0 {
                    out.push(',');
                }
                json::push_str(out, item);
            }
            out.push(']');
        };
        let mut text = String::from("{\"users\":");
        list(&mut text, &mut users.into_iter());
        text.push_str(",\"courses\":");
        list(&mut text, &mut courses.iter().map(String::as_str));
        text.push('}');
        let input = json::parse(&text).unwrap_or(json::Value::Null);
        let started = self.take_part("grant").and_then(|part| {
            GrantJob::resume_input(self.api.clone(), &input, opts, &part).map_err(|e| e.message())
        });
        match started {
            Ok(job) => self.phase = Phase::Grant(k, Box::new(job)),
            Err(why) => self.halted = Some(why),
        }
    }

    fn granted(&mut self, k: usize, report: GrantReport) {
        let stop = report.halted.is_some() || report.counts.not_sent > 0;
        if stop {
            self.halted = Some(
                report
                    .halted
                    .clone()
                    .unwrap_or_else(|| "grants not sent".to_owned()),
            );
            self.halted_by = report.halted_by;
        }
        self.grant_reports.push(report);
        if stop {
            self.phase = Phase::Done;
        } else {
            self.next_grant(k + 1);
        }
    }

    /// Hands back the HTTP answer of the request the last action handed out.
    /// `date`: its `Date` header in ms since the epoch (the platform's clock), handed on to the
    /// engine whose request it was (a sync's own look-ups need no clock: the judge reads them
    /// with `Window::ALWAYS`).
    #[inline(never)]
    pub fn handle_response(
        &mut self,
        now: u64,
        status: u16,
        body: &[u8],
        date: Option<u64>,
    ) -> Result<(), BulkError> {
        if let Some(out) = self.in_flight.take() {
            let LookupOut { row, request } = out;
            match request.check(status, body) {
                Ok(_) => match answer::found(body, request.secret()) {
                    Some(user) => {
                        let courses = answer::held(body, request.secret());
                        self.looked_up(row, Some(account(user, courses)));
                    }
                    None => {
                        self.lookup_failed(now, "the look-up's answer could not be read".to_owned())
                    }
                },
                Err(Error::Api(e)) if e.category == Category::NotFound => self.looked_up(row, None),
                // Decision: a refusal that cannot pass (a token expired or refused, no
                // permission) stops the run at once with its category, as a create's does.
                Err(Error::Api(e)) if !e.retryable => {
                    self.halted = Some(e.message());
                    self.halted_by = Some(e.category);
                }
                Err(e) => self.lookup_failed(now, e.message()),
            }
            self.push_progress();
            return Ok(());
        }
        match &mut self.phase {
            Phase::Import(job) => job.handle_response(now, status, body, date),
            Phase::Grant(_, job) => job.handle_response(now, status, body, date),
            _ => Err(BulkError::NothingInFlight),
        }
    }

    /// Hands back a request that got no answer.
    pub fn handle_failure(&mut self, now: u64, failure: Failure) -> Result<(), BulkError> {
        if self.in_flight.take().is_some() {
            self.lookup_failed(now, ["the look-up failed: ", failure.describe()].concat());
            self.push_progress();
            return Ok(());
        }
        match &mut self.phase {
            Phase::Import(job) => job.handle_failure(now, failure),
            Phase::Grant(_, job) => job.handle_failure(now, failure),
            _ => Err(BulkError::NothingInFlight),
        }
    }

    fn lookup_failed(&mut self, now: u64, reason: String) {
        self.lookup_failures += 1;
        self.lookup_error = Some(reason.clone());
        if self.lookup_failures >= self.opts.attempts {
            let n = super::num(self.lookup_failures as usize);
            self.halted = Some([&n, " look-ups in a row failed; the last: ", &reason].concat());
        } else {
            self.lookup_not_before = now.saturating_add(self.opts.retry_delay_ms);
        }
    }

    /// The report as things stand.
    pub fn report(&self) -> SyncReport {
        let stop = self
            .halted
            .clone()
            .unwrap_or_else(|| "the run stopped before it".to_owned());
        let not_sent = || RowResult::NotSent {
            reason: stop.clone(),
        };
        let mut c = SyncCounts {
            total: self.slots.len(),
            ..SyncCounts::default()
        };
        // The running grant's report, built once (not once a row).
        let running = match &self.phase {
            Phase::Grant(k, job) => Some((*k, job.report())),
            _ => None,
        };
        let rows = self
            .slots
            .iter()
            .enumerate()
            .map(|(row, slot)| {
                let result = if !slot.issues.is_empty() {
                    RowResult::SetAside {
                        issues: slot.issues.clone(),
                    }
                } else {
                    match &self.looked[row] {
                        None => not_sent(),
                        Some(Looked::Conflict(existing)) => RowResult::Conflict {
                            existing: existing.clone(),
                        },
                        Some(Looked::Exists { user_id, .. }) => RowResult::Exists {
                            user_id: user_id.clone(),
                        },
                        Some(Looked::Missing) => {
                            self.created(row).cloned().unwrap_or_else(not_sent)
                        }
                    }
                };
                match &result {
                    RowResult::Exists { .. } => c.exists += 1,
                    RowResult::Created { .. } => c.created += 1,
                    RowResult::Conflict { .. } => c.conflicts += 1,
                    RowResult::SetAside { .. } => c.set_aside += 1,
                    RowResult::InDoubt { .. } => c.in_doubt += 1,
                    RowResult::NotSent { .. } => c.not_sent += 1,
                    _ => c.failed += 1,
                }
                let (lacked, other, grant) = match self.account(row) {
                    Some((_, held)) => {
                        let lacked = minus(&slot.wanted, held);
                        let other = minus(held, &slot.wanted);
                        let grant = (!lacked.is_empty())
                            .then(|| self.grant_of(row, &running).unwrap_or_else(not_sent));
                        (lacked, other, grant)
                    }
                    None => (Vec::new(), Vec::new(), None),
                };
                if !other.is_empty() {
                    c.other += 1;
                }
                match &grant {
                    Some(RowResult::Granted) => c.granted += 1,
                    Some(RowResult::NotSent { .. }) => c.not_sent += 1,
                    Some(_) => c.failed += 1,
                    None => {}
                }
                SyncRowReport {
                    row,
                    email: slot.email.clone(),
                    username: slot.username.clone(),
                    result,
                    lacked,
                    grant,
                    other,
                }
            })
            .collect();
        // Nothing was created when every row to create was set aside (no password, say).
        let created_none = self
            .import_report
            .as_ref()
            .map_or(self.create.is_empty(), |r| {
                r.rows
                    .iter()
                    .all(|r| matches!(r.result, RowResult::SetAside { .. }))
            });
        SyncReport {
            rows,
            counts: c,
            nothing_to_send: matches!(self.phase, Phase::Done)
                && created_none
                && self.groups.is_empty()
                && self.halted.is_none(),
            halted: self.halted.clone(),
            halted_by: self.halted_by,
        }
    }

    /// The grant's result of an account `row`, once its grant ran (`running`: the grant that
    /// runs now, and its report).
    fn grant_of(&self, row: usize, running: &Option<(usize, GrantReport)>) -> Option<RowResult> {
        let (k, at) = self.slots.get(row)?.grant_at?;
        let report = match (self.grant_reports.get(k), running) {
            (Some(report), _) => report,
            (None, Some((now, report))) if *now == k => report,
            _ => return None,
        };
        Some(report.rows.get(at)?.result.clone())
    }
}

/// An engine's action as the sync's (its report is taken at `Done`, never passed here).
fn engine_action<L, R>(action: Action<L, R>, send: fn(Request<L>) -> SyncAction) -> SyncAction {
    match action {
        Action::Persist(events) => SyncAction::Persist(events),
        Action::Send(request) => send(request),
        Action::Lookup(request) => SyncAction::Lookup(request),
        Action::Wait { until } => SyncAction::Wait { until },
        Action::Busy | Action::Done(_) => SyncAction::Busy,
    }
}

/// A part of the journal an engine cannot take, as a report's `halted` says it.
fn refused(e: JournalError) -> String {
    ["the journal was refused: ", &e.message()].concat()
}

fn out_of_order(index: usize, detail: &str) -> JournalError {
    JournalError::OutOfOrder {
        index,
        detail: detail.to_owned(),
    }
}

/// A search-user answer's account and the courses it holds, as the journal keeps them.
fn account(user: Found, courses: Vec<String>) -> FoundAccount {
    FoundAccount {
        user_id: user.id,
        username: user.username,
        emails: user.emails,
        courses,
    }
}

/// Whose account a look-up found: the row's, another person's, or none (the one judge, over
/// all time: see the module docs).
fn judged(slot: &Slot, account: Option<FoundAccount>) -> Looked {
    let Some(a) = account else {
        return Looked::Missing;
    };
    let found = Found {
        id: a.user_id,
        username: a.username,
        emails: a.emails,
        created_at: None,
    };
    let row = RowKey {
        email_key: &slot.email_key,
        username: &slot.username,
    };
    // Decision: an existing account with the row's e-mail and username is the row's person
    // however old: a sync is for accounts that may exist already.
    match judge::whose(row, found, &[Window::ALWAYS], None) {
        LookupOutcome::Created { user_id } => Looked::Exists {
            user_id,
            held: a.courses,
        },
        LookupOutcome::Conflict { existing } | LookupOutcome::InDoubt { existing } => {
            Looked::Conflict(existing)
        }
        LookupOutcome::NotFound => Looked::Missing,
    }
}
