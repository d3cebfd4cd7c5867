//! Profiling aid: validates a 100-account batch from JSON text N times, the way the wasm does
//! (`cargo run --release --example validate_profile -- 200`), for `valgrind --tool=callgrind`.
// A profiling aid run by hand: a panic (a file not found) is its failure, said where it is.
#![allow(clippy::unwrap_used)]
use lpm_client::json::{self, JsonView};
use lpm_client::validate::{validate_create_users, ValidateOptions};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let items: Vec<String> = (0..100)
        .map(|i| {
            format!(
                r#"{{"name":"Nguyễn Văn An {i}","username":"hocvien{i:04}","email":"hocvien{i}@truong.edu.vn","password":"matkhau-{i:04}","phone":"09{i:08}","city":"Hà Nội"}}"#
            )
        })
        .collect();
    let text = format!("[{}]", items.join(","));
    let t = std::time::Instant::now();
    let mut issues = 0;
    for _ in 0..n {
        let v = json::parse(&text).unwrap();
        issues += validate_create_users(&v, ValidateOptions::default())
            .issues
            .len();
        assert!(v.is_object() || !v.is_null());
    }
    println!(
        "{} bytes, {:.1} us per validation, {issues} issues",
        text.len(),
        t.elapsed().as_micros() as f64 / n as f64
    );
}
