//! Fault knobs beyond the basic ones (control.rs): a create committed and then the connection
//! dropped before the answer (issue 9's resume tests), a TCP reset, and the server and network
//! faults of issue 12's table, each checked at the HTTP level.

use serde_json::{json, Value};

use crate::common::*;

const CREATE: &str = "/manage/api/users/create-multi-user";

fn create_body(tag: &str) -> Value {
    json!({"users": [
        {"name": "Mất Kết Nối", "username": format!("{tag}1"), "email": format!("{tag}1@example.vn"), "password": "secret123"},
        {"name": "Mất Kết Nối", "username": format!("{tag}2"), "email": format!("{tag}2@example.vn"), "password": "secret123"},
    ]})
}

#[tokio::test]
async fn drop_commits_the_create_then_closes_without_an_answer() {
    let emu = start().await;
    let before = emu.state().await["accounts"].as_u64().unwrap();
    emu.fault(json!({"endpoint": "create-multi-user", "kind": "drop"}))
        .await;
    let body = create_body("dropped").to_string();
    let path = format!("{CREATE}?token={ADMIN}");
    let w = exchange(emu.addr, "POST", &path, Some(&body), &[]).await;
    assert!(
        w.bytes.is_empty(),
        "no byte of the answer is sent: {:?}",
        String::from_utf8_lossy(&w.bytes)
    );
    // Committed: the accounts exist and the call is logged.
    let s = emu.state().await;
    assert_eq!(s["accounts"].as_u64().unwrap(), before + 2);
    assert_eq!(s["createCalls"], 1);
    let again = emu
        .post(&path, &body)
        .await
        .expect(400, "13", "0 success, 2 error");
    assert_eq!(again["users"][0]["status"], "Email already in use");
}

#[tokio::test]
async fn reset_sends_rst_before_anything_runs() {
    let emu = start().await;
    let before = emu.state().await["accounts"].as_u64().unwrap();
    emu.fault(json!({"endpoint": "create-multi-user", "kind": "reset"}))
        .await;
    let body = create_body("reset").to_string();
    let path = format!("{CREATE}?token={ADMIN}");
    let w = exchange(emu.addr, "POST", &path, Some(&body), &[]).await;
    assert!(w.bytes.is_empty());
    assert_eq!(w.error, Some(std::io::ErrorKind::ConnectionReset));
    let s = emu.state().await;
    assert_eq!(s["accounts"].as_u64().unwrap(), before);
    assert_eq!(s["createCalls"], 0);
    // The fault was one call's; the next one is answered.
    emu.post(&path, &body)
        .await
        .expect(200, "00", "2 success, 0 error");
}

/// `GET /_emulator/state?records=1` adds every account and course record as the API serves them,
/// in list order, so tests can compare exports field by field.
#[tokio::test]
async fn state_with_records_lists_every_account_and_course() {
    let emu = start().await;
    let plain = emu.state().await;
    assert!(plain.get("records").is_none());
    let s = emu.get("/_emulator/state?records=1").await.json();
    let users = s["records"]["users"].as_array().unwrap();
    let courses = s["records"]["courses"].as_array().unwrap();
    assert_eq!(users.len() as u64, s["accounts"].as_u64().unwrap());
    assert_eq!(courses.len() as u64, s["courses"].as_u64().unwrap());
    let mut served = Vec::new();
    for start in (0..users.len()).step_by(100) {
        let page = emu
            .get(&format!(
                "/manage/api/users/get-multi-user?token={ADMIN}&start={start}&limit=100"
            ))
            .await
            .json();
        served.extend(page["users"].as_array().unwrap().iter().cloned());
    }
    assert_eq!(&served, users);
    let page = emu
        .get(&format!(
            "/manage/api/courses/get-multi-course?token={ADMIN}&start=0&limit=100"
        ))
        .await
        .json();
    assert_eq!(page["courses"].as_array().unwrap(), courses);
}

/// Headers and half the body, then a stall of `delayMs`, then the rest.
#[tokio::test]
async fn stallbody_sends_half_the_body_then_stalls() {
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let emu = start().await;
    let normal = emu.get(&me()).await;
    // A long stall: the head and half the body come at once, the rest does not.
    emu.fault(json!({"endpoint": "get-me", "kind": "stallbody", "delayMs": 60_000}))
        .await;
    let mut s = tokio::net::TcpStream::connect(emu.addr).await.unwrap();
    let req = format!(
        "GET {} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        me()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let head_and_half = normal.body.len() / 2;
    let first = async {
        while got
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .is_none_or(|p| got.len() < p + 4 + head_and_half)
        {
            let n = s.read(&mut buf).await.unwrap();
            assert!(n > 0, "closed early");
            got.extend_from_slice(&buf[..n]);
        }
    };
    tokio::time::timeout(Duration::from_secs(10), first)
        .await
        .expect("the head and the first half arrive without delay");
    let r = parse_response(&got);
    assert_eq!(r.status, 200);
    assert!(!r.complete, "the body is announced in full");
    assert_eq!(r.body, normal.body[..head_and_half]);
    let more = tokio::time::timeout(Duration::from_millis(500), s.read(&mut buf)).await;
    assert!(more.is_err(), "the rest is held back");
    drop(s);
    // A short stall ends in the whole, valid body.
    emu.fault(json!({"endpoint": "get-me", "kind": "stallbody", "delayMs": 200}))
        .await;
    let r = emu.get(&me()).await;
    assert!(r.complete);
    assert_eq!(r.body, normal.body);
}

/// A valid answer padded to exactly `bytes` bytes in its `msg`; `chunked` hides the length.
#[tokio::test]
async fn huge_pads_the_answer_to_n_bytes() {
    let emu = start().await;
    let normal = emu.get(&me()).await.json();
    for chunked in [false, true] {
        emu.fault(
            json!({"endpoint": "get-me", "kind": "huge", "bytes": 5_000_000, "chunked": chunked}),
        )
        .await;
        let r = emu.get(&me()).await;
        assert_eq!(r.status, 200);
        assert_eq!(r.body.len(), 5_000_000);
        assert_eq!(
            r.header("content-length").is_none(),
            chunked,
            "{:?}",
            r.headers
        );
        let v = r.json();
        assert_eq!(v["respCode"], "00");
        assert_eq!(v["user"], normal["user"]);
        let msg = v["msg"].as_str().unwrap();
        assert!(msg.len() > 4_999_000 && msg.bytes().all(|b| b == b'x'));
    }
    // An error answer keeps its code and data key.
    emu.fault(json!({"endpoint": "get-me", "kind": "huge", "bytes": 100_000}))
        .await;
    let r = emu.get(ME).await;
    assert_eq!((r.status, r.body.len()), (401, 100_000));
    let v = r.json();
    assert_eq!(v["respCode"], "02");
    assert!(v["user"].is_null());
}

/// `respcode` takes any JSON value: a number gives the numeric-respCode case.
#[tokio::test]
async fn respcode_can_be_a_number() {
    let emu = start().await;
    emu.fault(json!({"endpoint": "get-me", "kind": "respcode", "respCode": 0, "msg": "Success"}))
        .await;
    let r = emu.get(&me()).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json(), json!({"respCode": 0, "msg": "Success"}));
}

/// The answer with two bytes that are not UTF-8 at the start of its `msg`.
#[tokio::test]
async fn badutf8_breaks_the_encoding_only() {
    let emu = start().await;
    let normal = emu.get(&me()).await;
    emu.fault(json!({"endpoint": "get-me", "kind": "badutf8"}))
        .await;
    let r = emu.get(&me()).await;
    assert_eq!(r.status, 200);
    assert!(r.complete);
    assert!(std::str::from_utf8(&r.body).is_err());
    assert_eq!(r.body.len(), normal.body.len() + 2);
    let cleaned: Vec<u8> = r
        .body
        .iter()
        .copied()
        .filter(|b| *b != 0xFF && *b != 0xFE)
        .collect();
    assert_eq!(cleaned, normal.body);
}

/// A redirect to `/_emulator/redirect-loop` (keeping the query), which redirects to itself.
#[tokio::test]
async fn redirect_loops_for_ever() {
    let emu = start().await;
    emu.fault(json!({"endpoint": "get-me", "kind": "redirect"}))
        .await;
    let r = emu.get(&me()).await;
    assert_eq!(r.status, 302);
    let loc = r.header("location").unwrap().to_string();
    assert_eq!(loc, format!("/_emulator/redirect-loop?token={ADMIN}"));
    for _ in 0..25 {
        let hop = emu.get(&loc).await;
        assert_eq!(hop.status, 302);
        assert_eq!(hop.header("location"), Some(loc.as_str()));
    }
    emu.fault(json!({"endpoint": "create-multi-user", "kind": "redirect", "status": 307}))
        .await;
    let r = emu.post(&format!("{CREATE}?token={ADMIN}"), "{}").await;
    assert_eq!(r.status, 307);
    let bad = emu
        .post_json(
            "/_emulator/faults",
            &json!({"endpoint": "get-me", "kind": "redirect", "status": 200}),
        )
        .await;
    assert_eq!(bad.status, 400);
}

/// `status` 204 or 304: the handler runs, the answer has no body at all.
#[tokio::test]
async fn status_204_and_304_have_no_body() {
    let emu = start().await;
    for status in [204u16, 304] {
        emu.fault(json!({"endpoint": "get-me", "kind": "status", "status": status}))
            .await;
        let w = exchange(emu.addr, "GET", &me(), None, &[]).await;
        let r = parse_response(&w.bytes);
        assert_eq!(r.status, status);
        assert!(r.body.is_empty(), "{:?}", String::from_utf8_lossy(&r.body));
        assert!(r.header("content-type").is_none());
        assert!(r.header("transfer-encoding").is_none());
    }
    emu.get(&me()).await.expect(200, "00", "Success");
}
