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
