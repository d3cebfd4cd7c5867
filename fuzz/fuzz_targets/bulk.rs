//! The bulk engines resumed from an arbitrary journal, then driven against a server whose answers
//! come from the same input: a journal file is read back from disk, where a crash, a disk or a
//! hand can damage it.
//!
//! Input: a line of JSON (the journal: `[event, ...]`, the fixtures' and the seeds' events,
//! mutated), then bytes that pick each answer (status, body, or a lost answer).
//!
//! Checks: no panic; a journal the reader refuses, or the engine refuses, is an error, never a
//! crash; a resumed job ends (within a bound of steps) with exactly one report row per input row,
//! and the counts add up; the report never holds a password.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lpm_client::bulk::{read, Action, Failure, GrantJob, ImportJob, ImportOptions, GrantOptions};
use lpm_client::json::{self, JsonView, Kind};
use lpm_client::Planner;

const ROWS: &str = r#"[
 {"name":"Lan Anh","username":"lananh","email":"lan@example.com","password":"pw-secret-1"},
 {"name":"Bảo","username":"bao","email":"bao@example.com","password":"pw-secret-2"},
 {"name":"Bad","username":"","email":"x","password":"pw-secret-3"},
 {"name":"Lan again","username":"lananh2","email":"LAN@example.com","password":"pw-secret-4"},
 {"name":"Chi","username":"chi","email":"chi@example.com","password":"pw-secret-5"}
]"#;
const GRANT: &str = r#"{"users":["u1","u2","u1","","u3"],"courses":["c1"]}"#;

/// Answers the fake server may give, picked by a byte.
const BODIES: [&[u8]; 6] = [
    br#"{"respCode":"00","msg":"2 success, 0 error","users":[{"email":"lan@example.com","username":"lananh","userId":"U1","success":true,"status":"Success created"},{"email":"bao@example.com","username":"bao","userId":"U2","success":true,"status":"Success created"}]}"#,
    br#"{"respCode":"00","msg":"Success","user":{"_id":"U1","createdAt":"2024-09-05T08:10:31.207Z","username":"lananh","emails":[{"address":"lan@example.com","verified":false}],"profile":{"name":"x"}}}"#,
    br#"{"respCode":"02","msg":"User not found"}"#,
    br#"{"respCode":"00","msg":"ok","validCourses":[{"_id":"c1","title":"t"}],"result":[{"userId":"u1","success":true,"status":"Success"}]}"#,
    br#"{"respCode":"19","msg":"token invalid"}"#,
    b"<html>502</html>",
];

fn api() -> Planner {
    Planner::new("https://school.example.com").unwrap().with_token("Zq7Xw2Kp").unwrap()
}

/// Drives an engine through its actions with answers picked by `picks`; the report at the end.
macro_rules! drive {
    ($job:expr, $picks:expr) => {{
        let mut now = 1_700_000_000_000u64;
        let mut picks = $picks.iter().copied().cycle();
        let mut report = None;
        for _ in 0..400 {
            match $job.poll(now) {
                Action::Persist(events) => {
                    for e in &events {
                        // Every event the engine writes reads back as itself.
                        let text = json::ser::to_string(e);
                        assert_eq!(read::event(&json::parse(&text).unwrap()).as_ref(), Some(e));
                    }
                }
                Action::Send(_) | Action::Lookup(_) => {
                    let pick = picks.next().unwrap_or(0);
                    let _ = match pick % 8 {
                        6 => $job.handle_failure(now, Failure::Network),
                        7 => $job.handle_failure(now, Failure::Timeout),
                        i => $job.handle_response(now, if i == 5 { 502 } else { 200 }, BODIES[usize::from(i) % BODIES.len()], None),
                    };
                }
                Action::Wait { until } => now = until.max(now + 1),
                Action::Busy => panic!("busy without a request out"),
                Action::Done(r) => {
                    report = Some(r);
                    break;
                }
            }
        }
        report
    }};
}

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == b'\n').unwrap_or(data.len());
    let (head, picks) = data.split_at(split);
    let Ok(text) = std::str::from_utf8(head) else { return };
    let Ok(value) = json::parse(text) else { return };
    let Ok(journal) = read::journal(&value) else { return };
    let rows = json::parse(ROWS).unwrap();
    let Kind::Arr(rows) = rows.kind() else { unreachable!() };
    let opts = ImportOptions { interval_ms: 1000, retry_delay_ms: 10, ..ImportOptions::default() };
    if let Ok(mut job) = ImportJob::resume_rows(api(), rows, opts, &journal) {
        if let Some(report) = drive!(job, picks) {
            assert_eq!(report.rows.len(), rows.len());
            let c = report.counts;
            assert_eq!(c.created + c.failed + c.set_aside + c.conflicts + c.in_doubt + c.not_sent, c.total);
            let text = json::ser::to_string(&report);
            assert!(!text.contains("pw-secret"), "a password in the report: {text}");
        }
    }
    let grant = json::parse(GRANT).unwrap();
    let gopts = GrantOptions { chunk_size: 2, retry_delay_ms: 10, ..GrantOptions::default() };
    if let Ok(mut job) = GrantJob::resume_input(api(), &grant, gopts, &journal) {
        if let Some(report) = drive!(job, picks) {
            assert_eq!(report.rows.len(), 5);
            let c = report.counts;
            assert_eq!(c.granted + c.failed + c.set_aside + c.not_sent + c.in_doubt, c.total);
        }
    }
});
