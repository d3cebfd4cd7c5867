//! Profiling aid: runs the decoder's gate over a 100-course page N times (`cargo run --release
//! --example gate_profile -- 50`), for `valgrind --tool=callgrind` or `perf`.
use lpm_client::Planner;
use serde_json::Value;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/get-multi-course/success.json"
    );
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(dir).unwrap()).unwrap();
    let records = fixture["courses"].as_array().unwrap();
    let courses: Vec<Value> = (0..100)
        .map(|i| records[i % records.len()].clone())
        .collect();
    let body =
        serde_json::to_vec(&serde_json::json!({"respCode":"00","msg":"Success","courses":courses}))
            .unwrap();
    let req = Planner::new("https://x.example")
        .unwrap()
        .with_token("bench-token")
        .unwrap()
        .get_courses(0, 100)
        .unwrap();
    let t = std::time::Instant::now();
    for _ in 0..n {
        req.check(200, &body).unwrap();
    }
    println!(
        "{} KB, {:.0} us per check",
        body.len() / 1024,
        t.elapsed().as_micros() as f64 / n as f64
    );
}
