//! `BulkJob`: the resumable import and grant engines (`lpm_client::bulk`) as the package's JS drives
//! them. The JS persists the events, waits, and sends each request through the `Pending` the
//! core builds for it (`Core.bulkRequest`), so a bulk request gets the client's timeouts,
//! hooks, logging and redaction like any other call; every decision stays in the engine.

use lpm_client::bulk::{
    read, Action, BulkError, Event, Failure as Lost, GrantJob, ImportJob, JournalRefusal,
    SyncAction, SyncJob,
};
use lpm_client::error::{ConfigError, Error, ValidationError};
use lpm_client::json::{self, ser, JsonView, Kind};
use lpm_client::options::GuardMode;
use lpm_client::plan::Request;
use lpm_client::validate::{Issue, IssueCode, Lang, Level, Report};
use lpm_client::Endpoint;
use lpm_client::{AddCoursesReply, CreateUsersReply, UserReply};

use wasm_bindgen::prelude::*;

use super::client::{Core, HostFailure, Pending, PerCall};
use super::errors::Failure;

enum Job {
    Import(ImportJob),
    Grant(GrantJob),
    Sync(Box<SyncJob>),
}

/// The request the last poll handed out, until `Core.bulkRequest` takes it.
enum Ready {
    Create(Request<CreateUsersReply>),
    Lookup(Request<UserReply>),
    Grant(Request<AddCoursesReply>),
}

/// A bulk job (import or grant) driven by the package's JS.
#[wasm_bindgen]
pub struct BulkJob {
    job: Job,
    ready: Option<Ready>,
    events: Vec<Event>,
    /// The final report the engine handed out with its end, as JSON (not built again).
    report: Option<String>,
    /// The last poll's time to poll again at (`JobStep::Wait`).
    until: f64,
}

/// What a job does next (`BulkJob.poll`): send its request (a create or a grant) or a look-up,
/// both through `Core.bulkRequest`; persist `events()` then poll again; nothing while a request
/// is out; poll again at `until`; or it is done (`report()`).
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum JobStep {
    Request = "request",
    Lookup = "lookup",
    /// A sync's rows to create are known (`planned()`): `fill` passwords, then poll again.
    Plan = "plan",
    Persist = "persist",
    Busy = "busy",
    Wait = "wait",
    Done = "done",
}

/// A time from JS as the engine's whole milliseconds (NaN and negatives: 0).
fn ms(t: f64) -> u64 {
    if t > 0.0 {
        t as u64
    } else {
        0
    }
}

fn thrown(e: Error) -> String {
    Failure::Core(e).into_json()
}

/// `handleResponse`/`handleFailure` while no request is out ([`BulkError::NothingInFlight`],
/// the only error they give): the driver's misuse whatever the job's kind, thrown as the error
/// data `errors.ts`'s `fromThrown` makes an `LpmError` of kind `internal` (written out: no
/// serializer for one constant).
fn misuse(_: BulkError) -> String {
    concat!(
        r#"{"lpmKind":"internal","message":"the bulk job's driver handed back an answer while no request was out (a defect of the driver)","#,
        r#""data":{"reason":"nothingInFlight"}}"#
    )
    .into()
}

/// A bulk job's setup error as the package's errors: input issues are a `ValidationError` of the
/// endpoint, a journal of another input a `ConfigError`.
fn setup_error(endpoint: Endpoint, e: BulkError) -> String {
    thrown(match e {
        BulkError::Courses(issues) | BulkError::Input(issues) => {
            Error::Validation(ValidationError {
                endpoint,
                report: Report { issues },
            })
        }
        BulkError::ChunkSize(_) => Error::Config(ConfigError::Option {
            option: "chunkSize",
            expected: "an integer from 1 to 100",
        }),
        BulkError::NoToken => Error::Config(ConfigError::NoToken { endpoint }),
        // The reason without the "journal was refused" the error's own message starts with.
        BulkError::Journal(e) => return journal_refused(e.message(), e.refusal()),
        // Not a setup error: no job gives it there.
        BulkError::NothingInFlight => return misuse(e),
    })
}

/// A journal refused: a `ConfigError`'s data with what kind of refusal it is (`refusal`, a member
/// only lpm-client-bulk's errors have: lpm-client's error writer carries no such member).
fn journal_refused(reason: String, refusal: JournalRefusal) -> String {
    let e = Error::Config(ConfigError::Journal { reason });
    let data = e.to_json();
    let head = data.strip_suffix('}').unwrap_or(&data);
    let data = [head, r#","refusal":""#, refusal.as_str(), r#""}"#].concat();
    super::errors::thrown(e.error_kind(), &e.message(), &data)
}

fn option_error(option: &'static str, expected: &'static str) -> String {
    thrown(Error::Config(ConfigError::Option { option, expected }))
}

/// The rows of an import as a JSON array, or the issue of what was given instead.
fn rows_issue(lang: Lang) -> Issue {
    Issue {
        path: Vec::new(),
        code: IssueCode::NotArray,
        level: Level::Contract,
        message: lpm_client::validate::message(IssueCode::NotArray, "users", 0, lang),
    }
}

/// The options of a job that creates (an import, a sync), checked against the client's.
fn import_options(
    s: &super::client::Settings,
    options: &json::Value<'_>,
) -> Result<lpm_client::bulk::ImportOptions, String> {
    // Decision: the client's create interval is the job's unless the job sets its own.
    let base = lpm_client::bulk::ImportOptions {
        interval_ms: ms(s.interval_ms),
        ..Default::default()
    };
    let opts = read::import_options(options, base)
        .map_err(|key| option_error(key, "a value of its documented type"))?;
    // Decision: a job's own interval shorter than the client's guarded one is refused: the
    // client's guard holds every create of its key, so the job would stall unseen while
    // its progress promised the shorter interval. One setting holds: the client's.
    if s.guard != GuardMode::Off && opts.interval_ms < ms(s.interval_ms) {
        return Err(option_error(
            "intervalMs",
            "at least the client's createInterval.intervalMs, which holds these creates too (set createInterval on the client to change both)",
        ));
    }
    Ok(opts)
}

#[wasm_bindgen]
impl Core {
    /// A bulk job of this client: `kind` `import` (input: the rows, a JSON array), `grant`
    /// (input: `{users, courses}`) or `sync` (input: `{rows, courses}`, `courses[i]` the course
    /// ids row `i` should hold), its engine options and its journal so far (JSON arrays;
    /// an empty journal starts afresh). Throws `ValidationError` data for input that cannot be
    /// used at all, `ConfigError` data for unusable options or a journal of another input.
    #[wasm_bindgen(js_name = bulkJob)]
    pub fn bulk_job(
        &self,
        kind: &str,
        input: Vec<u8>,
        options: &str,
        journal: &str,
    ) -> Result<BulkJob, String> {
        let s = &self.inner;
        let journal = json::parse(journal)
            .map_err(|_| 0)
            .and_then(|v| read::journal(&v))
            .map_err(|i| {
                let n = lpm_client::bulk::num(i + 1);
                let reason = [
                    "event ",
                    &n,
                    " cannot be read (another version, or damaged)",
                ];
                journal_refused(reason.concat(), JournalRefusal::Damaged)
            })?;
        let options = json::parse(options).unwrap_or(json::Value::Null);
        if !options.is_object() {
            return Err(option_error("options", "an object"));
        }
        // (Bytes, as a validator's value: `validators::utf8`.)
        let text = utf8(Some(&input)).unwrap_or("");
        let input = json::parse(text);
        let job = if kind == "sync" {
            let endpoint = Endpoint::CreateUsers;
            let opts = import_options(s, &options)?;
            let lang = opts.lang;
            // `{rows, courses}`: the rows, and each row's course ids.
            let input = input.unwrap_or(json::Value::Null);
            let Some(Kind::Arr(rows)) = input.get("rows").map(JsonView::kind) else {
                return Err(setup_error(
                    endpoint,
                    BulkError::Input(vec![rows_issue(lang)]),
                ));
            };
            let courses = match input.get("courses").map(JsonView::kind) {
                Some(Kind::Arr(lists)) => lists
                    .iter()
                    .map(|l| match l.kind() {
                        Kind::Arr(ids) => ids
                            .iter()
                            .filter_map(|c| c.as_str().map(str::to_owned))
                            .collect(),
                        _ => Vec::new(),
                    })
                    .collect(),
                _ => Vec::new(),
            };
            Job::Sync(Box::new(
                SyncJob::resume_rows(s.api.clone(), rows, courses, opts, journal)
                    .map_err(|e| setup_error(endpoint, e))?,
            ))
        } else if kind == "grant" {
            let endpoint = Endpoint::AddCoursesToUsers;
            let opts = read::grant_options(&options, Default::default())
                .map_err(|key| option_error(key, "a value of its documented type"))?;
            let input = input.unwrap_or(json::Value::Null);
            Job::Grant(
                GrantJob::resume_input(s.api.clone(), &input, opts, &journal)
                    .map_err(|e| setup_error(endpoint, e))?,
            )
        } else {
            let endpoint = Endpoint::CreateUsers;
            let opts = import_options(s, &options)?;
            let lang = opts.lang;
            // Each row's text as given (`read::items` of the text the parser read as this array:
            // the same items).
            let (rows, ranges) = match (input.as_ref().map(JsonView::kind), read::items(text)) {
                (Ok(Kind::Arr(rows)), Some(ranges)) if ranges.len() == rows.len() => (rows, ranges),
                _ => {
                    return Err(setup_error(
                        endpoint,
                        BulkError::Input(vec![rows_issue(lang)]),
                    ))
                }
            };
            Job::Import(
                ImportJob::resume_texts(
                    s.api.clone(),
                    rows,
                    text.to_owned(),
                    ranges,
                    opts,
                    &journal,
                )
                .map_err(|e| setup_error(endpoint, e))?,
            )
        };
        Ok(BulkJob {
            job,
            ready: None,
            events: Vec::new(),
            report: None,
            until: 0.0,
        })
    }

    /// The call of the request the job's last poll handed out (`undefined` when none is ready),
    /// with this client's timeout and retry policy (look-ups are retried like any GET; a create
    /// or a grant never is). Not guarded: the job keeps the interval (`BulkJob.holdUntil`).
    #[wasm_bindgen(js_name = bulkRequest)]
    pub fn bulk_request(&self, job: &mut BulkJob) -> Option<Pending> {
        let per = PerCall {
            timeout_ms: self.inner.timeout_ms,
            max_retries: self.inner.max_retries,
            wait: false,
            guard: lpm_client::endpoint::Guard::None,
        };
        Some(match job.ready.take()? {
            Ready::Create(r) => self.pending(r, &per),
            Ready::Lookup(r) => self.pending(r, &per),
            Ready::Grant(r) => self.pending(r, &per),
        })
    }
}

/// An engine's action without its reply and report types.
enum Step {
    Ready(Ready),
    Lookup(Ready),
    Persist(Vec<Event>),
    Wait(u64),
    Busy,
    Done(String),
}

fn step<L, R>(
    action: Action<L, R>,
    send: fn(Request<L>) -> Ready,
    report: impl FnOnce(R) -> String,
) -> Step {
    match action {
        Action::Send(r) => Step::Ready(send(r)),
        Action::Lookup(r) => Step::Lookup(Ready::Lookup(r)),
        Action::Persist(events) => Step::Persist(events),
        Action::Wait { until } => Step::Wait(until),
        Action::Busy => Step::Busy,
        Action::Done(r) => Step::Done(report(r)),
    }
}

#[wasm_bindgen]
impl BulkJob {
    /// What to do at `now` (`JobStep`; its wait: `until`).
    pub fn poll(&mut self, now: f64) -> JobStep {
        let step = match &mut self.job {
            // (The import's report written from its state: `report_json`.)
            Job::Import(j) => step(j.next(ms(now)), Ready::Create, |()| j.report_json()),
            Job::Grant(j) => step(j.poll(ms(now)), Ready::Grant, |r| ser::value_json(&r)),
            Job::Sync(j) => match j.poll(ms(now)) {
                SyncAction::Persist(events) => Step::Persist(events),
                SyncAction::Create(r) => Step::Ready(Ready::Create(r)),
                SyncAction::Grant(r) => Step::Ready(Ready::Grant(r)),
                SyncAction::Lookup(r) => Step::Lookup(Ready::Lookup(r)),
                SyncAction::Plan(_) => return JobStep::Plan,
                SyncAction::Wait { until } => Step::Wait(until),
                SyncAction::Busy => Step::Busy,
                SyncAction::Done(r) => Step::Done(ser::value_json(&r)),
            },
        };
        match step {
            Step::Ready(ready) => {
                self.ready = Some(ready);
                JobStep::Request
            }
            Step::Lookup(ready) => {
                self.ready = Some(ready);
                JobStep::Lookup
            }
            Step::Persist(events) => {
                self.events = events;
                JobStep::Persist
            }
            Step::Wait(until) => {
                self.until = until as f64;
                JobStep::Wait
            }
            Step::Busy => JobStep::Busy,
            Step::Done(report) => {
                self.report = Some(report);
                JobStep::Done
            }
        }
    }

    /// When to poll again after `JobStep.Wait` (ms since the epoch).
    #[wasm_bindgen(getter)]
    pub fn until(&self) -> f64 {
        self.until
    }

    /// The events to persist as JSON lines (each event's JSON text and a newline), handed out
    /// once: a store that keeps text (`fileJournal`) writes them as they are.
    pub fn events(&mut self) -> String {
        let mut lines = String::new();
        for e in core::mem::take(&mut self.events) {
            e.write_json(&mut lines);
            lines.push('\n');
        }
        lines
    }

    /// The report as things stand (the final one once `poll` said done), as JSON.
    pub fn report(&mut self) -> String {
        if let Some(report) = self.report.take() {
            return report;
        }
        match &self.job {
            Job::Import(j) => j.report_json(),
            Job::Grant(j) => ser::value_json(&j.report()),
            Job::Sync(j) => ser::value_json(&j.report()),
        }
    }

    /// A sync's rows to create, once its look-ups are done (a JSON array of 0-based rows).
    pub fn planned(&self) -> String {
        let rows = match &self.job {
            Job::Sync(j) => j.to_create(),
            _ => &[],
        };
        let mut out = String::from("[");
        for (k, row) in rows.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            json::push_uint(&mut out, *row as u64);
        }
        out.push(']');
        out
    }

    /// Gives a sync's row to create its password (after `JobStep.Plan`; never journaled).
    pub fn fill(&mut self, row: u32, password: &str) {
        if let Job::Sync(j) = &mut self.job {
            j.fill(row as usize, password);
        }
    }

    /// A sync's phase: `lookup`, `create`, `grant` or `done` (an import's or a grant's: its kind).
    #[wasm_bindgen(getter)]
    pub fn phase(&self) -> String {
        match &self.job {
            Job::Import(_) => "create",
            Job::Grant(_) => "grant",
            Job::Sync(j) => j.phase(),
        }
        .to_owned()
    }

    /// Whether the request the last poll handed out is a create (the shared interval records it).
    #[wasm_bindgen(getter)]
    pub fn creates(&self) -> bool {
        matches!(self.ready, Some(Ready::Create(_)))
    }

    /// The rows of an import with issues or warnings as the job judged them at its start
    /// (`RowIssues[]` as JSON; a grant: `[]`).
    pub fn issues(&self) -> String {
        match &self.job {
            Job::Import(j) => ser::value_json(&j.row_issues()),
            Job::Grant(_) | Job::Sync(_) => String::from("[]"),
        }
    }

    /// The next progress event as JSON, if one is queued.
    pub fn progress(&mut self) -> Option<String> {
        let p = match &mut self.job {
            Job::Import(j) => j.poll_event(),
            Job::Grant(j) => j.poll_event(),
            Job::Sync(j) => j.poll_event(),
        };
        p.map(|p| ser::value_json(&p))
    }

    /// Whether a poll at `now` may plan the next create ([`ImportJob::may_plan`]): only then
    /// does the driver read the client's interval store for `holdUntil`. Never for a grant.
    #[wasm_bindgen(js_name = mayPlan)]
    pub fn may_plan(&self, now: f64) -> bool {
        match &self.job {
            Job::Import(j) => j.may_plan(ms(now)),
            Job::Sync(j) => j.may_plan(ms(now)),
            Job::Grant(_) => false,
        }
    }

    /// When the import's last create call ended (ms; NaN: none yet, or a grant): what the driver
    /// writes to the client's interval store once the call's answer is handed back.
    #[wasm_bindgen(getter, js_name = lastCallAt)]
    pub fn last_call_at(&self) -> f64 {
        match &self.job {
            Job::Import(j) => j.last_call_at().map_or(f64::NAN, |at| at as f64),
            Job::Sync(j) => j.last_call_at().map_or(f64::NAN, |at| at as f64),
            Job::Grant(_) => f64::NAN,
        }
    }

    /// The next create is held until `at` (ms) at least: a create this job does not know of
    /// (the client's interval store) counts too.
    #[wasm_bindgen(js_name = holdUntil)]
    pub fn hold_until(&mut self, at: f64) {
        match &mut self.job {
            Job::Import(j) => j.hold_until(ms(at)),
            Job::Sync(j) => j.hold_until(ms(at)),
            Job::Grant(_) => {}
        }
    }

    /// The answer of the request handed out, with its `Date` header in ms since the epoch (the
    /// host's `Date.parse`; NaN or absent: none, or hidden from the page by CORS): the
    /// platform's clock, against which the job reads when a found account was made.
    #[wasm_bindgen(js_name = handleResponse)]
    pub fn handle_response(
        &mut self,
        now: f64,
        status: u16,
        body: &[u8],
        date: Option<f64>,
    ) -> Result<(), String> {
        let date = date.filter(|d| *d > 0.0).map(|d| d as u64);
        let r = match &mut self.job {
            Job::Import(j) => j.handle_response(ms(now), status, body, date),
            Job::Grant(j) => j.handle_response(ms(now), status, body, date),
            Job::Sync(j) => j.handle_response(ms(now), status, body, date),
        };
        r.map_err(misuse)
    }

    /// The request handed out got no answer (a too-large answer cannot reach a job: it reads
    /// its answers whole).
    #[wasm_bindgen(js_name = handleFailure)]
    pub fn handle_failure(&mut self, now: f64, kind: HostFailure) -> Result<(), String> {
        let lost = match kind {
            HostFailure::Timeout => Lost::Timeout,
            HostFailure::Abort => Lost::Aborted,
            _ => Lost::Network,
        };
        let r = match &mut self.job {
            Job::Import(j) => j.handle_failure(ms(now), lost),
            Job::Grant(j) => j.handle_failure(ms(now), lost),
            Job::Sync(j) => j.handle_failure(ms(now), lost),
        };
        r.map_err(misuse)
    }
}

/// `validateCreateUsersInSlices` (pkg-templates/bulk.ts): a create-users list validated a slice
/// at a time, so the wasm never holds a whole sheet's rows (the core's `UsersCheck`: each slice's
/// issues as one call over the whole list gives them, repeats across slices found).
#[wasm_bindgen]
pub struct SliceCheck {
    check: lpm_client::validate::UsersCheck,
    opts: lpm_client::validate::ValidateOptions,
}

#[wasm_bindgen]
impl SliceCheck {
    /// A check of a new list of about `rows` items (0: not known); `options` as the validators'
    /// (JSON text).
    #[wasm_bindgen(constructor)]
    pub fn new(options: &str, rows: u32) -> SliceCheck {
        let opts = super::validators::options_of(options);
        SliceCheck {
            // A hint, not a promise: past a spreadsheet's most rows the tables grow as rows come.
            check: lpm_client::validate::UsersCheck::with_room(rows.min(1 << 20) as usize, opts),
            opts,
        }
    }

    /// The issues of the list's next slice (a JSON array's text as bytes; `None`: the caller's
    /// value cannot be written as JSON, which counts no item), as JSON text.
    pub fn check(&mut self, slice: Option<Vec<u8>>) -> String {
        let report = match utf8(slice.as_deref()).map(json::parse) {
            Some(Ok(v)) => self.check.check(&v),
            _ => lpm_client::endpoint::check_params(
                Endpoint::CreateUsers,
                lpm_client::endpoint::Args::One,
                None,
                self.opts,
            ),
        };
        ser::value_json(&report.issues)
    }
}

/// A long value's JSON text as the JS hands it over (a bulk job's rows, a slice of them): its
/// UTF-8 bytes, `TextEncoder.encode`'s exact length, where wasm-bindgen's string passing reserves
/// three bytes a character once one is beyond ASCII (a sheet of Vietnamese names: a wasm memory,
/// which never shrinks, three times the rows'). Bytes that are not UTF-8, which `TextEncoder`
/// never writes, read as no value.
fn utf8(bytes: Option<&[u8]>) -> Option<&str> {
    bytes.and_then(|b| core::str::from_utf8(b).ok())
}
