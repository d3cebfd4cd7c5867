//! Figures behind the choice of how records keep keys the contract does not list: a flattened
//! `extra` map in each model, against keeping the raw JSON alongside the typed record.
//! Run: `cargo run --release --example bench_decode`. Prints figures only.
// A profiling aid run by hand: a panic (a file not found) is its failure, said where it is.
#![allow(clippy::unwrap_used)]

use std::time::Instant;

use lpm_client::{Course, Planner};
use serde_json::Value;

/// A 100-course page built from the fixture's course records, with fresh ids and titles, and
/// `extras` unlisted keys added to each record.
fn page(extras: usize) -> Vec<u8> {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/get-multi-course/success.json"
    );
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(dir).unwrap()).unwrap();
    let records = fixture["courses"].as_array().unwrap();
    let courses: Vec<Value> = (0..100)
        .map(|i| {
            let mut c = records[i % records.len()].clone();
            c["_id"] = Value::from(format!("course{i:012}"));
            c["title"] = Value::from(format!("Khoá học số {i}"));
            for k in 0..extras {
                c[format!("unlisted{k}")] = Value::from(format!("value {k}"));
            }
            c
        })
        .collect();
    serde_json::to_vec(&serde_json::json!({"respCode":"00","msg":"Success","courses":courses}))
        .unwrap()
}

/// Median nanoseconds of `f` over `rounds` rounds of `iters` calls.
fn median_ns(rounds: usize, iters: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..iters {
                f();
            }
            t.elapsed().as_nanos() as f64 / iters as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[rounds / 2]
}

fn main() {
    let api = Planner::new("https://x.example")
        .unwrap()
        .with_token("bench-token")
        .unwrap();
    let req = api.get_courses(0, 100).unwrap();
    println!("decoding a 100-course page (0 / 5 extra keys per record)");
    for extras in [0, 5] {
        let body = page(extras);
        // What the library does: typed records, unknown keys into `extra`.
        let typed = median_ns(15, 20, || {
            let r = req.decode(200, &body).unwrap();
            assert_eq!(r.courses.len(), 100);
        });
        // The alternative: typed records without extras, plus the whole body kept as a Value.
        let raw = median_ns(15, 20, || {
            let v: Value = serde_json::from_slice(&body).unwrap();
            let cs: Vec<Course> = serde_json::from_value(v["courses"].clone()).unwrap();
            assert_eq!(cs.len(), 100);
        });
        let gate = median_ns(15, 20, || {
            req.check(200, &body).unwrap();
        });
        println!("  gate (check only): {:.0} us", gate / 1e3);
        let value_only = median_ns(15, 20, || {
            let v: Value = serde_json::from_slice(&body).unwrap();
            assert!(v.is_object());
        });
        println!(
            "  {extras} extras, {} KB: typed+extra map {:.0} us | raw Value alongside (+typed) {:.0} us ({:.2}x) | Value parse alone {:.0} us",
            body.len() / 1024,
            typed / 1e3,
            raw / 1e3,
            raw / typed,
            value_only / 1e3,
        );
    }
}
