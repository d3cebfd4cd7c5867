//! The control API: reset, capacity, faults, create-call log, state; CORS; static files.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::*;
use lpm_emulator::Config;

#[tokio::test]
async fn reset_restores_seed_and_clears_faults_and_log() {
    let emu = start().await;
    let s = emu.state().await;
    assert_eq!(s["accounts"], 220);
    assert_eq!(s["courses"], 32);
    assert_eq!(s["capacity"], 10000);
    emu.post_json(
        &format!("/manage/api/users/create-multi-user?token={ADMIN}"),
        &json!({"users": [{"name": "Tạm Thời", "username": "tamthoi", "email": "t@example.vn", "password": "secret123"}]}),
    )
    .await
    .expect(200, "00", "1 success, 0 error");
    emu.post_json("/_emulator/capacity", &json!({"capacity": 5}))
        .await;
    emu.fault(json!({"endpoint": "get-me", "kind": "html500", "count": 3}))
        .await;
    let s = emu.state().await;
    assert_eq!(
        (
            s["accounts"].as_u64(),
            s["faults"].as_u64(),
            s["createCalls"].as_u64()
        ),
        (Some(221), Some(1), Some(1))
    );

    let r = emu.post_empty("/_emulator/reset").await;
    assert_eq!(r.status, 200);
    let s = emu.state().await;
    assert_eq!(s["accounts"], 220);
    assert_eq!(s["capacity"], 10000);
    assert_eq!(s["faults"], 0);
    assert_eq!(s["createCalls"], 0);
    emu.get(&me()).await.expect(200, "00", "Success");

    let s = emu
        .post_json("/_emulator/reset", &json!({"seed": "empty"}))
        .await
        .json();
    assert_eq!(
        (s["accounts"].as_u64(), s["courses"].as_u64()),
        (Some(2), Some(0))
    );
    // The tokens still work on an empty seed.
    emu.get(&me()).await.expect(200, "00", "Success");
    let r = emu
        .post_json("/_emulator/reset", &json!({"seed": "bogus"}))
        .await;
    assert_eq!(r.status, 400);
    let s = emu
        .post_json("/_emulator/reset", &json!({"seed": "demo"}))
        .await
        .json();
    assert_eq!(s["courses"], 32);
}

#[tokio::test]
async fn fault_delay_and_count() {
    let emu = start().await;
    emu.fault(json!({"endpoint": "get-me", "kind": "delay", "delayMs": 300, "count": 2}))
        .await;
    for _ in 0..2 {
        let t = Instant::now();
        emu.get(&me()).await.expect(200, "00", "Success");
        assert!(t.elapsed() >= Duration::from_millis(290));
    }
    let t = Instant::now();
    emu.get(&me()).await.expect(200, "00", "Success");
    assert!(t.elapsed() < Duration::from_millis(250));
}

#[tokio::test]
async fn fault_html500_truncated_close() {
    let emu = start().await;
    emu.fault(json!({"endpoint": "get-me", "kind": "html500"}))
        .await;
    let r = emu.get(&me()).await;
    assert_eq!(r.status, 500);
    assert!(r.header("content-type").unwrap().starts_with("text/html"));
    assert!(serde_json::from_slice::<serde_json::Value>(&r.body).is_err());
    assert!(String::from_utf8_lossy(&r.body).contains("<html>"));

    emu.fault(json!({"endpoint": "get-me", "kind": "truncated"}))
        .await;
    let r = emu.get(&me()).await;
    assert_eq!(r.status, 200);
    assert!(r.complete, "the HTTP message is complete, the JSON is not");
    assert!(!r.body.is_empty());
    assert!(r.body.starts_with(b"{"));
    assert!(serde_json::from_slice::<serde_json::Value>(&r.body).is_err());

    emu.fault(json!({"endpoint": "get-me", "kind": "close"}))
        .await;
    let r = emu.get(&me()).await;
    assert_eq!(r.status, 200);
    assert!(!r.complete, "connection closed before Content-Length bytes");
    let announced: usize = r.header("content-length").unwrap().parse().unwrap();
    assert!(r.body.len() < announced);

    // Back to normal.
    emu.get(&me()).await.expect(200, "00", "Success");
}

#[tokio::test]
async fn fault_status_respcode_and_scoping() {
    let emu = start().await;
    emu.fault(json!({"endpoint": "get-me", "kind": "status", "status": 429, "retryAfter": 7}))
        .await;
    let r = emu.get(&me()).await;
    assert_eq!(r.status, 429);
    assert_eq!(r.header("retry-after"), Some("7"));
    assert_eq!(r.json()["respCode"], "00", "normal body");
    emu.fault(json!({"endpoint": "get-me", "kind": "status", "status": 503}))
        .await;
    assert_eq!(emu.get(&me()).await.status, 503);

    emu.fault(json!({"endpoint": "get-multi-user", "kind": "respcode", "respCode": "42", "msg": "Something new"}))
        .await;
    // Other endpoints are not affected.
    emu.get(&me()).await.expect(200, "00", "Success");
    let r = emu
        .get(&format!(
            "/manage/api/users/get-multi-user?token={ADMIN}&start=0&limit=1"
        ))
        .await;
    let v = r.expect(200, "42", "Something new");
    assert_eq!(v.as_object().unwrap().len(), 2);

    // Faults on get-single-user apply to both spellings.
    emu.fault(json!({"endpoint": "get-single-user", "kind": "html500", "count": 2}))
        .await;
    assert_eq!(
        emu.get("/manage/api/user/get-single-user/x").await.status,
        500
    );
    assert_eq!(
        emu.get("/manage/api/users/get-single-user/x").await.status,
        500
    );

    // DELETE clears pending faults.
    emu.fault(json!({"endpoint": "get-me", "kind": "html500", "count": 5}))
        .await;
    let r = emu.delete("/_emulator/faults").await;
    assert_eq!(r.status, 200);
    emu.get(&me()).await.expect(200, "00", "Success");

    // Bad fault specs are refused.
    let r = emu
        .post_json(
            "/_emulator/faults",
            &json!({"endpoint": "get-me", "kind": "nope"}),
        )
        .await;
    assert_eq!(r.status, 400);
    let r = emu
        .post_json(
            "/_emulator/faults",
            &json!({"endpoint": "get-me", "kind": "status"}),
        )
        .await;
    assert_eq!(r.status, 400);
}

#[tokio::test]
async fn create_call_log_reports_interval_violations() {
    let emu = start().await;
    let p = format!("/manage/api/users/create-multi-user?token={ADMIN}");
    let body = |n: u32| json!({"users": [{"name": "Nhật Ký", "username": format!("nhatky{n}"), "email": format!("nk{n}@example.vn"), "password": "secret123"}]});
    emu.post_json(&p, &body(1))
        .await
        .expect(200, "00", "1 success, 0 error");
    // Calls that fail before authentication are not logged.
    emu.post_json("/manage/api/users/create-multi-user", &body(9))
        .await
        .expect(401, "06", "No token");
    emu.post_json(&p, &body(2))
        .await
        .expect(200, "00", "1 success, 0 error");
    let log = emu.get("/_emulator/create-calls").await.json();
    assert_eq!(log["intervalSecs"], 600);
    let calls = log["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0]["items"], 1);
    assert_eq!(calls[0]["token"], "demo…");
    assert!(is_iso(calls[0]["at"].as_str().unwrap()));
    let v = log["violations"].as_array().unwrap();
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["previous"], calls[0]["at"]);
    assert_eq!(v[0]["at"], calls[1]["at"]);
    assert!(v[0]["gapMs"].as_i64().unwrap() < 600_000);

    // With a 1 s interval, calls 1.1 s apart are fine.
    let emu = start_with(Config {
        create_interval_secs: 1,
        ..Config::default()
    })
    .await;
    emu.post_json(&p, &body(1))
        .await
        .expect(200, "00", "1 success, 0 error");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    emu.post_json(&p, &body(2))
        .await
        .expect(200, "00", "1 success, 0 error");
    let log = emu.get("/_emulator/create-calls").await.json();
    assert_eq!(log["intervalSecs"], 1);
    assert_eq!(log["calls"].as_array().unwrap().len(), 2);
    assert_eq!(log["violations"], json!([]));
}

#[tokio::test]
async fn cors_headers_and_preflight() {
    let emu = start().await;
    let r = raw(
        emu.addr,
        "GET",
        &me(),
        None,
        &[("Origin", "http://127.0.0.1:5173")],
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    let r = raw(
        emu.addr,
        "OPTIONS",
        "/manage/api/users/create-multi-user?token=x",
        None,
        &[
            ("Origin", "http://127.0.0.1:5173"),
            ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "content-type"),
        ],
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    let methods = r.header("access-control-allow-methods").unwrap();
    for m in ["GET", "POST", "DELETE", "OPTIONS"] {
        assert!(methods.contains(m), "{methods}");
    }
    assert!(r
        .header("access-control-allow-headers")
        .unwrap()
        .contains("content-type"));
    // Error responses carry the header too.
    let r = raw(
        emu.addr,
        "GET",
        ME,
        None,
        &[("Origin", "http://localhost:1")],
    )
    .await;
    assert_eq!(r.status, 401);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
}

#[tokio::test]
async fn static_folder_and_unknown_paths() {
    let dir = std::env::temp_dir().join(format!("lpm-emu-static-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<h1>dashboard</h1>").unwrap();
    let emu = start_with(Config {
        static_dir: Some(dir.clone()),
        ..Config::default()
    })
    .await;
    let r = emu.get("/index.html").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body, b"<h1>dashboard</h1>");
    let r = emu.get("/").await;
    assert_eq!(r.status, 200);
    // The API still answers on the same origin.
    emu.get(&me()).await.expect(200, "00", "Success");
    emu.get("/manage/api/users/nothing-here")
        .await
        .expect(404, "99", "Endpoint not found");
    let _ = std::fs::remove_dir_all(&dir);

    let emu = start().await;
    emu.get("/elsewhere")
        .await
        .expect(404, "99", "Endpoint not found");
}
