//! Profiling aid: runs the decoder's gate over a 100-record page N times, the way the wasm does
//! (the body already known to be UTF-8): `cargo run --release --example gate_profile -- 50
//! [courses|users] [body.json]`, for `valgrind --tool=callgrind` (instruction counts) or `perf`.
// A profiling aid run by hand: a panic (a file not found) is its failure, said where it is.
#![allow(clippy::unwrap_used)]
use lpm_client::decode::check_reply;
use lpm_client::Planner;
use serde_json::Value;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let users = args.next().as_deref() == Some("users");
    let (fixture, key) = match users {
        true => ("get-multi-user", "users"),
        false => ("get-multi-course", "courses"),
    };
    let path = format!(
        "{}/tests/fixtures/{fixture}/success.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let records = fixture[key].as_array().unwrap();
    let page: Vec<Value> = (0..100)
        .map(|i| records[i % records.len()].clone())
        .collect();
    // A third argument: a body file to check instead (e.g. a page saved from the emulator).
    let body = match args.next() {
        Some(file) => std::fs::read(file).unwrap(),
        None => serde_json::to_vec(&serde_json::json!({"respCode":"00","msg":"Success",key:page}))
            .unwrap(),
    };
    let api = Planner::new("https://x.example")
        .unwrap()
        .with_token("bench-token")
        .unwrap();
    let (courses, users_req) = (
        api.get_courses(0, 100).unwrap(),
        api.get_users(0, 100).unwrap(),
    );
    let plan = match users {
        true => users_req.plan(),
        false => courses.plan(),
    };
    let t = std::time::Instant::now();
    for _ in 0..n {
        check_reply(&plan, 200, &body, lpm_client::check::Utf8::Valid).unwrap();
    }
    println!(
        "{} KB, {:.0} us per check",
        body.len() / 1024,
        t.elapsed().as_micros() as f64 / n as f64
    );
}
