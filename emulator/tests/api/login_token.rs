//! `POST users/create-user-login-token` (platform notes; issue 11): a one-time login token for an
//! account. Codes other than 00 are the emulator's choices (ASSUMPTIONS.md).

use std::time::Duration;

use serde_json::{json, Value};

use crate::common::*;
use lpm_emulator::{CheckOrder, Config};

const P: &str = "/manage/api/users/create-user-login-token";

fn path(token: &str) -> String {
    format!("{P}?token={token}")
}

#[tokio::test]
async fn success_and_every_error_code() {
    let emu = start().await;
    let id = emu.some_user_ids(1).await.remove(0);
    let body = json!({ "userid": id });

    let v =
        emu.post_json(&path(ADMIN), &body)
            .await
            .expect(200, "00", "create login token success");
    let token = v["token"].as_str().unwrap().to_string();
    assert_eq!(token.len(), 43);
    assert!(token
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    assert!(is_iso(v["tokenExpires"].as_str().unwrap()));
    assert_eq!(v.as_object().unwrap().len(), 4, "{v}");
    // One-time tokens: a second call gives another.
    let again = emu.post_json(&path(ADMIN), &body).await.json();
    assert_ne!(again["token"], json!(token));

    emu.get(&path(ADMIN))
        .await
        .expect(405, "01", "Request method should be POST");
    emu.post(&path(ADMIN), "")
        .await
        .expect(400, "02", "No request body");
    emu.post(&path(ADMIN), "{oops")
        .await
        .expect(400, "02", "No request body");
    for bad in [
        json!({}),
        json!({"userId": id}),
        json!({"userid": ""}),
        json!({"userid": "  "}),
        json!({"userid": 5}),
        json!({"userid": {"$ne": null}}),
        json!({"userid": [id]}),
        json!({"userid": null}),
    ] {
        emu.post_json(&path(ADMIN), &bad)
            .await
            .expect(400, "03", "No userid in request body");
    }
    emu.post_json(P, &body).await.expect(401, "04", "No token");
    emu.fault(json!({"endpoint": "create-user-login-token", "kind": "authfail"}))
        .await;
    emu.post_json(&path(ADMIN), &body).await.expect(
        401,
        "05",
        "Server not able to authenticate your account",
    );
    emu.post_json(&path(EXPIRED), &body).await.expect(
        401,
        "06",
        "Invalid token or Token has expired",
    );
    emu.post_json(&path(USER), &body).await.expect(
        401,
        "07",
        "Your account does not have permission",
    );
    emu.post_json(&path(ADMIN), &json!({"userid": "NoSuchAccount0001"}))
        .await
        .expect(400, "08", "User not found");
    // Errors carry no token members.
    let e = emu.post_json(P, &body).await.json();
    assert_eq!(e.as_object().unwrap().len(), 2, "{e}");

    // Documented order: the body before the token; auth-first: the token first.
    emu.post(P, "").await.expect(400, "02", "No request body");
    let first = start_with(Config {
        check_order: CheckOrder::AuthFirst,
        ..Config::default()
    })
    .await;
    first.post(P, "").await.expect(401, "04", "No token");
}

/// A login token is for the site (`?login_token=`), which the emulator does not serve: it is no
/// API token, and `login_token` is not read anywhere.
#[tokio::test]
async fn login_token_is_not_an_api_token() {
    let emu = start().await;
    let id = emu.some_user_ids(1).await.remove(0);
    let v = emu
        .post_json(&path(ADMIN), &json!({ "userid": id }))
        .await
        .json();
    let token = v["token"].as_str().unwrap();
    emu.get(&format!("/manage/api/users/get-me?token={token}"))
        .await
        .expect(401, "04", "Invalid token or Token has expired");
    emu.get(&format!("/manage/api/users/get-me?login_token={token}"))
        .await
        .expect(401, "02", "No token");
}

/// Calls are logged (after the token and permission checks) with the spacing the platform
/// advises (5 s by default); closer calls are violations, recorded, never refused.
#[tokio::test]
async fn call_log_reports_spacing_violations() {
    let emu = start().await;
    let ids = emu.some_user_ids(2).await;
    for id in &ids {
        emu.post_json(&path(ADMIN), &json!({ "userid": id }))
            .await
            .expect(200, "00", "create login token success");
    }
    // Not logged: refused before the token checks passed.
    emu.post_json(&path(USER), &json!({"userid": ids[0]}))
        .await
        .expect(401, "07", "Your account does not have permission");
    // Logged: passed them, then the account was not found.
    emu.post_json(&path(ADMIN), &json!({"userid": "NoSuchAccount0001"}))
        .await
        .expect(400, "08", "User not found");
    let log = emu.get("/_emulator/login-token-calls").await.json();
    assert_eq!(log["intervalMs"], 5000);
    let calls = log["calls"].as_array().unwrap();
    let users: Vec<&Value> = calls.iter().map(|c| &c["userId"]).collect();
    assert_eq!(
        users,
        [&json!(ids[0]), &json!(ids[1]), &json!("NoSuchAccount0001")]
    );
    assert_eq!(calls[0]["token"], "demo…");
    assert!(is_iso(calls[0]["at"].as_str().unwrap()));
    let v = log["violations"].as_array().unwrap();
    assert_eq!(v.len(), 2);
    assert_eq!(v[0]["previous"], calls[0]["at"]);
    assert_eq!(v[1]["at"], calls[2]["at"]);
    assert!(v[0]["gapMs"].as_i64().unwrap() < 5000);
    assert_eq!(emu.state().await["loginTokenCalls"], 3);
    // Not a create: the create-call log stays empty; reset clears this log.
    let creates = emu.get("/_emulator/create-calls").await.json();
    assert_eq!(creates["calls"], json!([]));
    emu.post_empty("/_emulator/reset").await;
    let log = emu.get("/_emulator/login-token-calls").await.json();
    assert_eq!(log["calls"], json!([]));

    // A shorter spacing (flag) and calls further apart: no violation.
    let emu = start_with(Config {
        login_token_interval_ms: 200,
        ..Config::default()
    })
    .await;
    for id in &ids {
        emu.post_json(&path(ADMIN), &json!({ "userid": id }))
            .await
            .expect(200, "00", "create login token success");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let log = emu.get("/_emulator/login-token-calls").await.json();
    assert_eq!(log["intervalMs"], 200);
    assert_eq!(log["calls"].as_array().unwrap().len(), 2);
    assert_eq!(log["violations"], json!([]));
}

#[tokio::test]
async fn the_demo_learner_page_signs_in_once_with_an_issued_token() {
    let emu = start().await;
    let id = emu.some_user_ids(1).await.remove(0);
    let v = emu
        .post_json(&path(ADMIN), &json!({ "userid": id }))
        .await
        .json();
    let token = v["token"].as_str().unwrap().to_string();
    let page = |r: &Resp| String::from_utf8_lossy(&r.body).into_owned();

    let first = emu.get(&format!("/learner?login_token={token}")).await;
    assert_eq!(first.status, 200);
    assert!(
        page(&first).contains("id=\"signed-in\""),
        "{}",
        page(&first)
    );
    // Its icon is inline: a browser does not ask for /favicon.ico (a 404).
    assert!(
        page(&first).contains("<link rel=\"icon\" href=\"data:image/svg+xml,"),
        "{}",
        page(&first)
    );
    // One use: the same link again is refused, as is a token never issued, or none.
    for query in [
        format!("login_token={token}"),
        "login_token=made-up".into(),
        String::new(),
    ] {
        let r = emu.get(&format!("/learner?{query}")).await;
        assert_eq!(r.status, 401, "{query}");
        assert!(page(&r).contains("id=\"refused\""));
    }
}

#[tokio::test]
async fn static_files_carry_the_csp_given_and_none_without() {
    let dir = std::env::temp_dir().join(format!("lpm-emu-csp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><title>x</title>").unwrap();
    let csp = |r: &Resp| {
        r.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-security-policy"))
            .map(|(_, v)| v.clone())
    };
    let policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
    let with = start_with(Config {
        static_dir: Some(dir.clone()),
        static_csp: Some(policy.into()),
        ..Config::default()
    })
    .await;
    let r = with.get("/index.html").await;
    assert_eq!(r.status, 200);
    assert_eq!(csp(&r).as_deref(), Some(policy));
    let without = start_with(Config {
        static_dir: Some(dir.clone()),
        ..Config::default()
    })
    .await;
    assert_eq!(csp(&without.get("/index.html").await), None);
    std::fs::remove_dir_all(&dir).ok();
}
