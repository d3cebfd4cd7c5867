//! The sync engine driven against an in-memory platform with enrolments and a virtual clock:
//! a sheet of existing, new, conflicting and bad rows made to match; a second sync sends
//! nothing; a kill at every step and any kills with lost answers end with every account created
//! once and holding its courses; a refused token stops the look-ups with its category.
// A test may unwrap: its panic is its failure, said where it happens.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{BTreeSet, HashMap};

use lpm_client::bulk::{
    BulkError, Event, Failure, JournalError, RowResult, SyncAction, SyncJob, SyncOptions,
    SyncReport,
};
use lpm_client::codes::Category;
use lpm_client::Request;
use proptest::prelude::*;
use serde_json::{json, Value};

use common::{api, http_date, iso, percent_decode, url_parts};

const START: u64 = 1_700_000_000_000;
const INTERVAL: u64 = 60_000;
/// When the accounts a test puts on the platform before a sync were made.
const LONG_BEFORE: u64 = START - 400 * 86_400_000;

struct Account {
    id: String,
    email: String,
    username: String,
    courses: BTreeSet<String>,
    /// When it was made (ms), as search-user's `createdAt` says.
    made: u64,
}

/// What happens to the next request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    None,
    /// The server does the work, the answer is lost.
    Lost,
    /// The server refuses the token.
    Expired,
}

#[derive(Default)]
struct Platform {
    accounts: Vec<Account>,
    /// Each account's index by its e-mail and by its username (trimmed, lower case), and by its
    /// id: a look-up is one step, so a sheet of many rows is served in time.
    by_email: HashMap<String, usize>,
    by_username: HashMap<String, usize>,
    by_id: HashMap<String, usize>,
    creates: Vec<u64>,
    grants: usize,
    /// Each account's grants of each course (a course granted twice counts twice).
    granted: Vec<(String, String)>,
}

fn reply(status: u16, v: Value) -> (u16, Vec<u8>) {
    (status, v.to_string().into_bytes())
}

impl Platform {
    fn add(&mut self, email: &str, username: &str, courses: &[&str]) -> String {
        let at = self.accounts.len();
        let id = format!("acc{at:04}");
        self.by_email.insert(email.trim().to_lowercase(), at);
        self.by_username.insert(username.trim().to_lowercase(), at);
        self.by_id.insert(id.clone(), at);
        self.accounts.push(Account {
            id: id.clone(),
            email: email.into(),
            username: username.into(),
            courses: courses.iter().map(|c| (*c).to_owned()).collect(),
            made: LONG_BEFORE,
        });
        id
    }

    fn find(&self, key: &str, by_email: bool) -> Option<&Account> {
        let index = if by_email {
            &self.by_email
        } else {
            &self.by_username
        };
        let at = index.get(&key.trim().to_lowercase())?;
        self.accounts.get(*at)
    }

    fn serve(&mut self, now: u64, url: &str, body: Option<&str>, fault: Fault) -> (u16, Vec<u8>) {
        if fault == Fault::Expired {
            return reply(
                401,
                json!({"respCode": "08", "msg": "Invalid token or Token has expired"}),
            );
        }
        let (segs, query) = url_parts(url);
        let body: Value = body.map_or(Value::Null, |b| serde_json::from_str(b).unwrap());
        match segs.last().map(String::as_str) {
            Some("search-user") => {
                let q: Vec<(String, String)> = query
                    .unwrap_or_default()
                    .split('&')
                    .filter_map(|kv| kv.split_once('='))
                    .map(|(k, v)| (k.to_owned(), percent_decode(v).unwrap()))
                    .collect();
                let found = q.iter().find_map(|(k, v)| self.find(v, k == "email"));
                match found {
                    Some(a) => reply(
                        200,
                        json!({"respCode": "00", "msg": "Success", "user": {
                            "_id": a.id,
                            "createdAt": iso(a.made),
                            "username": a.username,
                            "emails": [{"address": a.email, "verified": false}],
                            "myCourses": a.courses.iter().map(|c| json!({"courseId": c,
                                "activatedDate": "2023-01-01T00:00:00.000Z",
                                "expiredAt": "2123-01-01T00:00:00.000Z"})).collect::<Vec<_>>(),
                            "profile": {"name": "x"}}}),
                    ),
                    None => reply(
                        400,
                        json!({"respCode": "07", "user": null, "msg": "User not found"}),
                    ),
                }
            }
            Some("create-multi-user") => {
                self.creates.push(now);
                let mut items = Vec::new();
                for item in body["users"].as_array().unwrap() {
                    let s = |k: &str| item[k].as_str().unwrap_or_default().trim().to_owned();
                    let (email, username) = (s("email"), s("username"));
                    let status = if self.find(&email, true).is_some() {
                        "Email already in use"
                    } else if self.find(&username, false).is_some() {
                        "Username already in use"
                    } else {
                        "Success created"
                    };
                    let id = (status == "Success created").then(|| {
                        let id = self.add(&email, &username, &[]);
                        self.accounts.last_mut().unwrap().made = now;
                        id
                    });
                    items.push(json!({"email": item["email"], "username": item["username"],
                        "userId": id, "success": id.is_some(), "status": status}));
                }
                reply(
                    200,
                    json!({"respCode": "00", "users": items, "msg": "done"}),
                )
            }
            Some("add-multi-course-to-multi-user") => {
                self.grants += 1;
                let courses: Vec<String> = body["courses"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().to_owned())
                    .collect();
                let mut result = Vec::new();
                for u in body["users"].as_array().unwrap() {
                    let id = u.as_str().unwrap();
                    let account = self.by_id.get(id).map(|&at| &mut self.accounts[at]);
                    let ok = account.is_some();
                    if let Some(a) = account {
                        for c in &courses {
                            a.courses.insert(c.clone());
                            self.granted.push((id.to_owned(), c.clone()));
                        }
                    }
                    result.push(json!({"userId": id, "success": ok,
                        "status": if ok { "Success" } else { "User not found" }}));
                }
                let valid: Vec<Value> = courses
                    .iter()
                    .map(|c| json!({"_id": c, "title": c}))
                    .collect();
                reply(
                    200,
                    json!({"respCode": "00", "validCourses": valid, "result": result, "msg": "ok"}),
                )
            }
            other => panic!("unexpected endpoint {other:?}"),
        }
    }
}

struct World {
    platform: Platform,
    clock: u64,
    journal: Vec<String>,
    faults: Vec<Fault>,
}

impl World {
    fn new() -> World {
        World {
            platform: Platform::default(),
            clock: START,
            journal: Vec::new(),
            faults: Vec::new(),
        }
    }

    fn events(&self) -> Vec<Event> {
        self.journal
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    fn request<R>(&mut self, job: &mut SyncJob, req: &Request<R>) {
        let fault = if self.faults.is_empty() {
            Fault::None
        } else {
            self.faults.remove(0)
        };
        let (status, body) = self
            .platform
            .serve(self.clock, req.url(), req.body(), fault);
        if fault == Fault::Lost {
            job.handle_failure(self.clock, Failure::Timeout).unwrap();
        } else {
            // The platform's clock is this machine's: its Date header, read as the engine reads it.
            let date = lpm_client::bulk::http_date(&http_date(self.clock));
            job.handle_response(self.clock, status, &body, date)
                .unwrap();
        }
    }
}

/// Drives a sync to its end (`Some`) or until it dies at action `kill` (`None`; a request it
/// dies at reaches the platform, its answer is lost with the process). Rows to create without
/// a password get one.
fn drive(job: &mut SyncJob, w: &mut World, kill: Option<usize>) -> Option<SyncReport> {
    for step in 0.. {
        let dies = kill == Some(step);
        if job.may_plan(w.clock) {
            // The shared interval store: the platform's last create.
            if let Some(&last) = w.platform.creates.last() {
                job.hold_until(last + INTERVAL);
            }
        }
        match job.poll(w.clock) {
            SyncAction::Persist(events) => {
                for e in &events {
                    let mut line = String::new();
                    e.write_json(&mut line);
                    assert_eq!(line, serde_json::to_string(e).unwrap());
                    w.journal.push(line);
                }
                if dies {
                    return None;
                }
            }
            SyncAction::Plan(rows) => {
                if dies {
                    return None;
                }
                for row in rows {
                    job.fill(row, "generated-pass-1");
                }
            }
            SyncAction::Create(req) => {
                if dies {
                    w.platform
                        .serve(w.clock, req.url(), req.body(), Fault::None);
                    return None;
                }
                w.request(job, &req);
            }
            SyncAction::Grant(req) => {
                if dies {
                    w.platform
                        .serve(w.clock, req.url(), req.body(), Fault::None);
                    return None;
                }
                w.request(job, &req);
            }
            SyncAction::Lookup(req) => {
                if dies {
                    return None;
                }
                w.request(job, &req);
            }
            SyncAction::Wait { until } => {
                if dies {
                    return None;
                }
                assert!(until > w.clock);
                w.clock = until;
            }
            SyncAction::Busy => panic!("the driver always answers"),
            SyncAction::Done(report) => return Some(report),
        }
        while job.poll_event().is_some() {}
        w.clock += 1;
    }
    unreachable!()
}

fn opts() -> SyncOptions {
    SyncOptions {
        chunk_size: 2,
        interval_ms: INTERVAL,
        retry_delay_ms: 1_000,
        ..SyncOptions::default()
    }
}

fn row(i: usize) -> Value {
    json!({"name": format!("Học Viên {i}"), "username": format!("hv{i}"),
           "email": format!("hv{i}@school.test"), "password": "mat-khau-1"})
}

/// Rows 0..n; the platform holds rows 0 (with course A and X) and 1, and someone else holds
/// row 2's username; row 3 is bad; row 4 has no password.
fn sheet(n: usize, w: &mut World) -> (Vec<Value>, Vec<Vec<String>>) {
    let mut rows: Vec<Value> = (0..n).map(row).collect();
    w.platform.add("hv0@school.test", "hv0", &["A", "X"]);
    w.platform.add("HV1@school.test", "hv1", &[]);
    w.platform.add("someone@else.test", "hv2", &[]);
    rows[3] = json!({"name": "", "username": "hv3", "email": "not an e-mail", "password": "p"});
    rows[4]["password"] = json!("");
    let courses = (0..n)
        .map(|_| vec!["A".to_owned(), "B".to_owned()])
        .collect();
    (rows, courses)
}

fn start(rows: &[Value], courses: &[Vec<String>], journal: &[Event]) -> Result<SyncJob, BulkError> {
    SyncJob::resume_rows(api(), rows, courses.to_vec(), opts(), journal.to_vec())
}

fn kinds(report: &SyncReport) -> Vec<&'static str> {
    report
        .rows
        .iter()
        .map(|r| match r.result {
            RowResult::Exists { .. } => "exists",
            RowResult::Created { .. } => "created",
            RowResult::Conflict { .. } => "conflict",
            RowResult::SetAside { .. } => "setAside",
            RowResult::Failed { .. } => "failed",
            RowResult::InDoubt { .. } => "inDoubt",
            RowResult::NotSent { .. } => "notSent",
            _ => "other",
        })
        .collect()
}

/// Every good row's account exists once and holds A and B, each granted at most once but
/// for lost answers.
fn assert_matched(w: &World, n: usize) {
    for i in (0..n).filter(|&i| i != 2 && i != 3) {
        let email = format!("hv{i}@school.test");
        let mine: Vec<&Account> = w
            .platform
            .accounts
            .iter()
            .filter(|a| a.email.to_lowercase() == email)
            .collect();
        assert_eq!(mine.len(), 1, "{email} exists once");
        for c in ["A", "B"] {
            assert!(mine[0].courses.contains(c), "{email} holds {c}");
        }
    }
    // The conflicting row's account is someone else's: never granted.
    assert!(w.platform.accounts[2].courses.is_empty());
}

#[test]
fn a_sheet_is_made_to_match_and_a_second_sync_sends_nothing() {
    let mut w = World::new();
    let (rows, courses) = sheet(9, &mut w);
    let mut job = start(&rows, &courses, &[]).unwrap();
    let report = drive(&mut job, &mut w, None).unwrap();
    assert_eq!(
        kinds(&report),
        [
            "exists", "exists", "conflict", "setAside", "created", "created", "created", "created",
            "created"
        ]
    );
    let c = report.counts;
    assert_eq!(
        (c.exists, c.created, c.conflicts, c.set_aside, c.failed),
        (2, 5, 1, 1, 0)
    );
    // Row 0 lacked B only and holds X too; the rest lacked both.
    assert_eq!(report.rows[0].lacked, ["B"]);
    assert_eq!(report.rows[0].other, ["X"]);
    assert_eq!(report.rows[0].grant, Some(RowResult::Granted));
    assert_eq!(report.rows[1].lacked, ["A", "B"]);
    assert_eq!((c.granted, c.other), (7, 1));
    assert!(!report.nothing_to_send);
    assert!(
        report.rows[2].grant.is_none(),
        "a conflict is never granted"
    );
    assert_matched(&w, 9);
    // Creates kept the interval: 5 rows in chunks of 2.
    let creates = &w.platform.creates;
    assert_eq!(creates.len(), 3);
    assert!(creates.windows(2).all(|p| p[1] - p[0] >= INTERVAL));
    // Accounts that lacked the same courses share calls: {B} for one, {A, B} for six.
    assert_eq!(w.platform.grants, 1 + 3);

    // A second sync (a new journal): nothing to send, the conflict still a conflict.
    let (creates, grants) = (w.platform.creates.len(), w.platform.grants);
    w.journal.clear();
    let mut again = start(&rows, &courses, &[]).unwrap();
    let second = drive(&mut again, &mut w, None).unwrap();
    assert!(second.nothing_to_send);
    assert_eq!(
        (
            second.counts.exists,
            second.counts.conflicts,
            second.counts.failed
        ),
        (7, 1, 0)
    );
    assert_eq!(
        (w.platform.creates.len(), w.platform.grants),
        (creates, grants)
    );
}

#[test]
fn a_kill_at_every_step_resumes_to_the_same_platform() {
    let whole = {
        let mut w = World::new();
        let (rows, courses) = sheet(9, &mut w);
        let mut job = start(&rows, &courses, &[]).unwrap();
        drive(&mut job, &mut w, None).unwrap();
        w.platform.accounts.len()
    };
    for kill in 0.. {
        let mut w = World::new();
        let (rows, courses) = sheet(9, &mut w);
        let mut job = start(&rows, &courses, &[]).unwrap();
        let mut report = drive(&mut job, &mut w, Some(kill));
        if report.is_some() {
            // Past the last step: every step was a kill point.
            assert!(kill > 30, "{kill} steps");
            break;
        }
        while report.is_none() {
            let mut job = start(&rows, &courses, &w.events()).unwrap();
            report = drive(&mut job, &mut w, None);
        }
        let report = report.unwrap();
        assert_eq!(w.platform.accounts.len(), whole, "kill at {kill}");
        assert_matched(&w, 9);
        assert_eq!(
            report.counts.created + report.counts.exists,
            7,
            "kill at {kill}"
        );
        assert!(w
            .platform
            .creates
            .windows(2)
            .all(|p| p[1] - p[0] >= INTERVAL));
    }
}

#[test]
fn a_refused_token_stops_the_look_ups_with_its_category() {
    let mut w = World::new();
    let (rows, courses) = sheet(6, &mut w);
    w.faults = vec![Fault::None, Fault::Expired];
    let mut job = start(&rows, &courses, &[]).unwrap();
    let report = drive(&mut job, &mut w, None).unwrap();
    assert_eq!(report.halted_by, Some(Category::Authentication));
    assert!(
        w.platform.creates.is_empty(),
        "nothing created after the refusal"
    );
    // Rows not looked up, and row 0's grant.
    assert_eq!(report.counts.not_sent, 5);
}

#[test]
fn the_look_ups_progress_says_the_row_out_and_the_failures_in_a_row() {
    let mut w = World::new();
    let (rows, courses) = sheet(5, &mut w);
    let mut job = start(&rows, &courses, &[]).unwrap();
    assert!(matches!(job.poll(w.clock), SyncAction::Persist(_)));
    while job.poll_event().is_some() {}
    // A look-up out: its row is told.
    assert!(matches!(job.poll(w.clock), SyncAction::Lookup(_)));
    let out = job
        .poll_event()
        .expect("a progress event for the look-up out");
    assert_eq!(out.looking_up, Some(0));
    assert_eq!(out.retries, 0);
    // It fails: the failure in a row, its words, and when the look-up goes again.
    job.handle_failure(w.clock, Failure::Timeout).unwrap();
    let failed = job.poll_event().expect("a progress event for the failure");
    assert_eq!(failed.looking_up, None);
    assert_eq!(failed.retries, 1);
    assert_eq!(
        failed.last_error.as_deref(),
        Some("the look-up failed: no answer in time")
    );
    assert_eq!(failed.next_send_at, Some(w.clock + opts().retry_delay_ms));
    // Answered on the next try: the failures are over.
    let SyncAction::Wait { until } = job.poll(w.clock) else {
        panic!("the retry waits for its delay")
    };
    w.clock = until;
    let SyncAction::Lookup(req) = job.poll(w.clock) else {
        panic!("the look-up again")
    };
    while job.poll_event().is_some() {}
    w.request(&mut job, &req);
    let answered = job.poll_event().expect("a progress event for the answer");
    assert_eq!((answered.done, answered.retries), (1, 0));
    assert_eq!((answered.last_error, answered.next_send_at), (None, None));
}

#[test]
fn a_journal_of_other_courses_or_another_sheet_is_refused() {
    let mut w = World::new();
    let (rows, courses) = sheet(6, &mut w);
    let mut job = start(&rows, &courses, &[]).unwrap();
    assert!(drive(&mut job, &mut w, Some(5)).is_none());
    let events = w.events();
    let other: Vec<Vec<String>> = courses.iter().map(|_| vec!["C".to_owned()]).collect();
    assert!(matches!(
        start(&rows, &other, &events),
        Err(BulkError::Journal(JournalError::Courses))
    ));
    let mut swapped = rows.clone();
    swapped.swap(0, 1);
    assert!(matches!(
        start(&swapped, &courses, &events),
        Err(BulkError::Journal(JournalError::RowMismatch { .. }))
    ));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Any kills (a request a run dies at reaches the platform) and lost answers: every good
    /// row's account exists once and holds its courses.
    #[test]
    fn any_kills_and_lost_answers_end_with_the_platform_matching(
        n in 6usize..12,
        kills in prop::collection::vec(0..30usize, 0..4),
        lost in prop::collection::vec(any::<bool>(), 0..12),
    ) {
        let mut w = World::new();
        let (rows, courses) = sheet(n, &mut w);
        w.faults = lost.into_iter().map(|l| if l { Fault::Lost } else { Fault::None }).collect();
        let mut kills = kills.into_iter();
        let mut report = None;
        for _ in 0..20 {
            let mut job = start(&rows, &courses, &w.events()).unwrap();
            report = drive(&mut job, &mut w, kills.next());
            if report.as_ref().is_some_and(|r| r.halted.is_none()) {
                break;
            }
        }
        let report = report.expect("the sync ends");
        prop_assert!(report.halted.is_none(), "{:?}", report.halted);
        assert_matched(&w, n);
        prop_assert_eq!(report.counts.total, n);
        prop_assert!(w.platform.creates.windows(2).all(|p| p[1] - p[0] >= INTERVAL));
    }
}

/// A sheet of many new rows, driven as the JS driver drives it (a `fill` a row, every progress
/// event taken): each row is created once and granted. Its time is printed, never asserted.
#[test]
fn a_large_sheet_of_new_rows_is_created_and_granted() {
    let n = 20_000;
    let rows: Vec<Value> = (0..n).map(row).collect();
    let courses: Vec<Vec<String>> = (0..n).map(|_| vec!["A".to_owned()]).collect();
    let opts = SyncOptions {
        interval_ms: INTERVAL,
        ..SyncOptions::default()
    };
    let began = std::time::Instant::now();
    let mut job = SyncJob::resume_rows(api(), &rows, courses, opts, Vec::new()).unwrap();
    let mut platform = Platform::default();
    let mut clock = START;
    let report = loop {
        let answer = match job.poll(clock) {
            SyncAction::Persist(_) => None,
            SyncAction::Plan(plan) => {
                assert_eq!(plan.len(), n);
                for r in plan {
                    job.fill(r, "generated-pass-1");
                }
                None
            }
            SyncAction::Lookup(req) => {
                Some(platform.serve(clock, req.url(), req.body(), Fault::None))
            }
            SyncAction::Create(req) => {
                Some(platform.serve(clock, req.url(), req.body(), Fault::None))
            }
            SyncAction::Grant(req) => {
                Some(platform.serve(clock, req.url(), req.body(), Fault::None))
            }
            SyncAction::Wait { until } => {
                clock = until;
                None
            }
            SyncAction::Busy => panic!("the driver always answers"),
            SyncAction::Done(report) => break report,
        };
        if let Some((status, body)) = answer {
            job.handle_response(clock, status, &body, None).unwrap();
        }
        while job.poll_event().is_some() {}
        clock += 1;
    };
    println!("sync of {n} new rows: {:?}", began.elapsed());
    assert_eq!(report.halted, None);
    assert_eq!((report.counts.created, report.counts.granted), (n, n));
    // The platform refuses an e-mail or username it holds: n accounts, n usernames, each once.
    assert_eq!(platform.accounts.len(), n);
    assert_eq!(platform.by_username.len(), n, "each row created once");
    assert!(platform.accounts.iter().all(|a| a.courses.contains("A")));
}
