//! create-multi-user (every row of the contract's table) and create-single-user.

use serde_json::{json, Value};

use crate::common::*;
use lpm_emulator::{CheckOrder, Config, StatusMode};

const P: &str = "/manage/api/users/create-multi-user";

fn path(token: &str) -> String {
    format!("{P}?token={token}")
}

fn item(n: &str) -> Value {
    json!({"name": format!("Người Dùng {n}"), "username": format!("newuser{n}"), "email": format!("new{n}@example.vn"), "password": "secret123"})
}

#[tokio::test]
async fn code_01_wrong_method() {
    let emu = start().await;
    let r = emu.get(&path(ADMIN)).await;
    let v = r.expect(405, "01", "Request method should be POST");
    assert_eq!(v["users"], Value::Null);
    assert!(v.as_object().unwrap().contains_key("users"));
}

#[tokio::test]
async fn code_02_no_body_and_malformed_body() {
    let emu = start().await;
    let v = emu
        .post_empty(&path(ADMIN))
        .await
        .expect(400, "02", "No request body");
    assert!(v.as_object().unwrap().contains_key("users") && v["users"].is_null());
    emu.post(&path(ADMIN), "{not json")
        .await
        .expect(400, "02", "No request body");
}

#[tokio::test]
async fn codes_03_04_05_users_parameter() {
    let emu = start().await;
    emu.post(&path(ADMIN), "{}")
        .await
        .expect(400, "03", "No users array in request body");
    emu.post(&path(ADMIN), r#"{"users":"abc"}"#).await.expect(
        400,
        "04",
        "Users parammeter in body is not array format",
    );
    emu.post(&path(ADMIN), r#"{"users":{"name":"x"}}"#)
        .await
        .expect(400, "04", "Users parammeter in body is not array format");
    emu.post(&path(ADMIN), r#"{"users":[]}"#).await.expect(
        400,
        "05",
        "User parammeter is an empty array",
    );
}

#[tokio::test]
async fn codes_06_07_08_10_token_and_permission() {
    let emu = start().await;
    let body = json!({"users": [item("a")]});
    emu.post_json(P, &body).await.expect(401, "06", "No token");
    emu.post_json(&format!("{P}?token="), &body)
        .await
        .expect(401, "06", "No token");
    emu.post_json(&path("not-a-real-token"), &body)
        .await
        .expect(401, "08", "Invalid token or Token has expired");
    emu.post_json(&path(EXPIRED), &body).await.expect(
        401,
        "08",
        "Invalid token or Token has expired",
    );
    emu.post_json(&path(USER), &body).await.expect(
        401,
        "10",
        "Your account does not have permission",
    );
    emu.fault(json!({"endpoint": "create-multi-user", "kind": "authfail"}))
        .await;
    emu.post_json(&path(ADMIN), &body).await.expect(
        401,
        "07",
        "Server not able to authenticate your account",
    );
    emu.fault(json!({"endpoint": "create-multi-user", "kind": "resourcefail"}))
        .await;
    emu.post_json(&path(ADMIN), &body).await.expect(
        500,
        "10",
        "Server is not able to check your website resources",
    );
    // Nothing was created by the failed calls.
    assert_eq!(emu.state().await["accounts"], 220);
}

#[tokio::test]
async fn codes_11_12_capacity() {
    let emu = start().await;
    let accounts = emu.state().await["accounts"].as_u64().unwrap();
    let cap = emu
        .post_json("/_emulator/capacity", &json!({"capacity": accounts + 2}))
        .await;
    assert_eq!(cap.json()["capacity"], accounts + 2);
    let three = json!({"users": [item("1"), item("2"), item("3")]});
    emu.post_json(&path(ADMIN), &three).await.expect(
        400,
        "12",
        "There are only 2 available accounts",
    );
    let two = json!({"users": [item("1"), item("2")]});
    emu.post_json(&path(ADMIN), &two)
        .await
        .expect(200, "00", "2 success, 0 error");
    emu.post_json(&path(ADMIN), &json!({"users": [item("4")]}))
        .await
        .expect(400, "11", "The number of accounts has run out");
}

#[tokio::test]
async fn code_13_all_items_failed_carries_items() {
    let emu = start().await;
    let body = json!({"users": [
        {"name": "Lê Văn A", "username": "admin", "email": "other@example.vn", "password": "secret123"},
        {"username": "nobody1", "email": "n1@example.vn", "password": "secret123"},
    ]});
    let v = emu
        .post_json(&path(ADMIN), &body)
        .await
        .expect(400, "13", "0 success, 2 error");
    let users = v["users"].as_array().unwrap();
    assert_eq!(users.len(), 2);
    assert_eq!(users[0]["status"], "Username already in use");
    assert_eq!(
        users[1]["status"],
        "Not enough required infomation to create new user"
    );
    for u in users {
        assert_eq!(u["success"], false);
        assert!(u["userId"].is_null());
    }
}

#[tokio::test]
async fn per_item_outcomes_and_echo() {
    let emu = start().await;
    let body = json!({"users": [
        item("ok1"),
        {"username": "noname1", "email": "noname1@example.vn", "password": "secret123"},
        {"name": "Không Tên Đăng Nhập", "email": "nouser@example.vn", "password": "secret123"},
        {"name": "Không Mật Khẩu", "username": "nopass1", "email": "nopass@example.vn"},
        {"name": "Trùng Email", "username": "dupmail1", "email": "ADMIN@demo.lpm.test", "password": "secret123"},
        {"name": "Trùng Tên", "username": "demouser", "email": "dupname@example.vn", "password": "secret123"},
        {"name": "Trùng Trong Lô", "username": "newuserok1", "email": "other-ok1@example.vn", "password": "secret123"},
        {"name": "Trùng Email Lô", "username": "emaildup2", "email": "NEWok1@example.vn", "password": "secret123"},
        item("ok2"),
        "not an object",
    ]});
    let v = emu
        .post_json(&path(ADMIN), &body)
        .await
        .expect(200, "00", "2 success, 8 error");
    let u = v["users"].as_array().unwrap();
    assert_eq!(u.len(), 10);
    let statuses: Vec<&str> = u.iter().map(|x| x["status"].as_str().unwrap()).collect();
    assert_eq!(
        statuses,
        [
            "Success created",
            "Not enough required infomation to create new user",
            "Not enough required infomation to create new user",
            "Not enough required infomation to create new user",
            "Email already in use",
            "Username already in use",
            "Username already in use",
            "Email already in use",
            "Success created",
            "Not enough required infomation to create new user",
        ]
    );
    // Success: id, echo of the four fields.
    assert!(is_meteor_id(u[0]["userId"].as_str().unwrap()));
    assert_eq!(u[0]["success"], true);
    assert_eq!(u[0]["name"], "Người Dùng ok1");
    assert_eq!(u[0]["username"], "newuserok1");
    assert_eq!(u[0]["email"], "newok1@example.vn");
    assert_eq!(u[0]["password"], "secret123");
    // Absent fields stay absent; failures have userId null.
    let missing_name = u[1].as_object().unwrap();
    assert!(!missing_name.contains_key("name"));
    assert!(missing_name["userId"].is_null());
    assert!(!u[3].as_object().unwrap().contains_key("password"));
    assert!(!u[9].as_object().unwrap().contains_key("name"));
    for x in u.iter().filter(|x| x["success"] == false) {
        assert!(x["userId"].is_null());
    }
    // The created accounts are readable, newest first.
    let id = u[8]["userId"].as_str().unwrap();
    let one = emu
        .get(&format!(
            "/manage/api/user/get-single-user/{id}?token={ADMIN}"
        ))
        .await
        .expect(200, "00", "Success");
    assert_eq!(one["user"]["username"], "newuserok2");
    assert_eq!(one["user"]["profile"]["name"], "Người Dùng ok2");
    assert_eq!(one["user"]["emails"][0]["address"], "newok2@example.vn");
    assert!(is_iso(one["user"]["createdAt"].as_str().unwrap()));
    let list = emu
        .get(&format!(
            "/manage/api/users/get-multi-user?token={ADMIN}&start=0&limit=2"
        ))
        .await
        .json();
    assert_eq!(list["users"][0]["_id"], id);
    assert_eq!(list["users"][1]["_id"], u[0]["userId"]);
}

#[tokio::test]
async fn server_error_item_status() {
    let emu = start().await;
    emu.fault(json!({"endpoint": "create-multi-user", "kind": "itemerror"}))
        .await;
    let v = emu
        .post_json(&path(ADMIN), &json!({"users": [item("s1")]}))
        .await
        .expect(400, "13", "0 success, 1 error");
    assert_eq!(v["users"][0]["status"], "Server error in create new use");
    // The fault was for one call only.
    emu.post_json(&path(ADMIN), &json!({"users": [item("s1")]}))
        .await
        .expect(200, "00", "1 success, 0 error");
}

#[tokio::test]
async fn at_most_100_items() {
    let emu = start().await;
    let items: Vec<Value> = (0..101).map(|i| item(&format!("m{i}"))).collect();
    emu.post_json(&path(ADMIN), &json!({ "users": items }))
        .await
        .expect(400, "09", "Maximum 100 users per request");
    let items: Vec<Value> = (0..100).map(|i| item(&format!("m{i}"))).collect();
    emu.post_json(&path(ADMIN), &json!({ "users": items }))
        .await
        .expect(200, "00", "100 success, 0 error");
}

#[tokio::test]
async fn status_mode_always200_and_auth_first_order() {
    let emu = start_with(Config {
        status_mode: StatusMode::Always200,
        ..Config::default()
    })
    .await;
    emu.get(&path(ADMIN))
        .await
        .expect(200, "01", "Request method should be POST");
    emu.post(P, "").await.expect(200, "02", "No request body");

    // Documented order: body checks before the token.
    let emu = start().await;
    emu.post(P, "").await.expect(400, "02", "No request body");
    let emu = start_with(Config {
        check_order: CheckOrder::AuthFirst,
        ..Config::default()
    })
    .await;
    emu.post(P, "").await.expect(401, "06", "No token");
    emu.post(&path(ADMIN), "")
        .await
        .expect(400, "02", "No request body");
}

#[tokio::test]
async fn missing_email_policy_is_switchable() {
    let no_email = json!({"users": [{"name": "Không Email", "username": "noemail1", "password": "secret123"}]});
    let emu = start().await;
    let v = emu
        .post_json(&path(ADMIN), &no_email)
        .await
        .expect(200, "00", "1 success, 0 error");
    assert!(!v["users"][0].as_object().unwrap().contains_key("email"));
    let emu = start_with(Config {
        require_email: true,
        ..Config::default()
    })
    .await;
    emu.post_json(&path(ADMIN), &no_email)
        .await
        .expect(400, "13", "0 success, 1 error");
}

#[tokio::test]
async fn create_single_user() {
    let emu = start().await;
    let p = "/manage/api/users/create-single-user";
    let ok = json!({"name": "Đơn Lẻ", "username": "single1", "email": "single1@example.vn", "password": "secret123", "phone": "0912345678"});
    emu.get(&format!("{p}?token={ADMIN}"))
        .await
        .expect(405, "01", "Request method should be POST");
    emu.post(&format!("{p}?token={ADMIN}"), "")
        .await
        .expect(400, "02", "No request body");
    emu.post_json(&format!("{p}?token={ADMIN}"), &json!({"name": "x"}))
        .await
        .expect(
            400,
            "03",
            "Not enough required infomation to create new user",
        );
    emu.post_json(p, &ok).await.expect(401, "04", "No token");
    emu.post_json(&format!("{p}?token=bad"), &ok).await.expect(
        401,
        "06",
        "Invalid token or Token has expired",
    );
    emu.post_json(&format!("{p}?token={USER}"), &ok)
        .await
        .expect(401, "07", "Your account does not have permission");
    let v = emu
        .post_json(&format!("{p}?token={ADMIN}"), &ok)
        .await
        .expect(200, "00", "Success created");
    assert_eq!(v["user"]["success"], true);
    assert_eq!(v["user"]["status"], "Success created");
    assert!(is_meteor_id(v["user"]["userId"].as_str().unwrap()));
    let mut dup_mail = ok.clone();
    dup_mail["username"] = json!("single2");
    emu.post_json(&format!("{p}?token={ADMIN}"), &dup_mail)
        .await
        .expect(400, "08", "Email already in use");
    let mut dup_name = ok.clone();
    dup_name["email"] = json!("single2@example.vn");
    emu.post_json(&format!("{p}?token={ADMIN}"), &dup_name)
        .await
        .expect(400, "09", "Username already in use");
    // Not a bulk call: the create-call log stays empty.
    let calls = emu.get("/_emulator/create-calls").await.json();
    assert_eq!(calls["calls"].as_array().unwrap().len(), 0);
}

/// Single creates are logged once they pass the token and permission checks (also when the
/// account then fails), with the spacing the platform advises (5 s by default); closer calls are
/// violations, recorded, never refused.
#[tokio::test]
async fn single_create_log_reports_spacing_violations() {
    let p = "/manage/api/users/create-single-user";
    let emu = start().await;
    let ok = json!({"name": "Đơn Lẻ", "username": "single1", "email": "single1@example.vn", "password": "secret123"});
    // Not logged: refused before the token checks passed.
    emu.post_json(&format!("{p}?token={USER}"), &ok)
        .await
        .expect(401, "07", "Your account does not have permission");
    emu.post_json(&format!("{p}?token={ADMIN}"), &ok)
        .await
        .expect(200, "00", "Success created");
    // Logged: passed them, then the e-mail was in use.
    emu.post_json(&format!("{p}?token={ADMIN}"), &ok)
        .await
        .expect(400, "08", "Email already in use");
    let log = emu.get("/_emulator/single-create-calls").await.json();
    assert_eq!(log["intervalMs"], 5000);
    let calls = log["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0]["username"], "single1");
    assert_eq!(calls[0]["token"], "demo…");
    let v = log["violations"].as_array().unwrap();
    assert_eq!(v.len(), 1);
    assert!(v[0]["gapMs"].as_i64().unwrap() < 5000);
    assert_eq!(emu.state().await["singleCreateCalls"], 2);
    emu.post_empty("/_emulator/reset").await;
    let log = emu.get("/_emulator/single-create-calls").await.json();
    assert_eq!(log["calls"], json!([]));

    // A shorter spacing (flag) and calls further apart: no violation.
    let emu = start_with(Config {
        single_create_interval_ms: 200,
        ..Config::default()
    })
    .await;
    for n in ["a1", "a2"] {
        emu.post_json(&format!("{p}?token={ADMIN}"), &item(n))
            .await
            .expect(200, "00", "Success created");
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }
    let log = emu.get("/_emulator/single-create-calls").await.json();
    assert_eq!(log["intervalMs"], 200);
    assert_eq!(log["calls"].as_array().unwrap().len(), 2);
    assert_eq!(log["violations"], json!([]));
}

/// The check order switch applies to every endpoint, not only create: with an expired token
/// and a parameter problem, the documented order answers the parameter code, auth-first the
/// token code.
#[tokio::test]
async fn check_order_switch_applies_to_reads_and_add_courses() {
    let cases = [
        // (path, method POST?, documented (code, msg), auth-first (code, msg))
        (
            format!("/manage/api/users/get-multi-user?token={EXPIRED}&limit=5"),
            false,
            ("03", "No start parameter"),
            ("07", "Invalid token or Token has expired"),
        ),
        (
            format!("/manage/api/courses/get-multi-course?token={EXPIRED}&limit=5"),
            false,
            ("03", "No start parameter"),
            ("07", "Invalid token or Token has expired"),
        ),
        (
            format!("/manage/api/users/search-user?token={EXPIRED}"),
            false,
            ("03", "No email or username parameter"),
            ("05", "Invalid token or Token has expired"),
        ),
        (
            format!("/manage/api/courses/search-course?token={EXPIRED}"),
            false,
            ("03", "No title parameter"),
            ("05", "Invalid token or Token has expired"),
        ),
        (
            format!("/manage/api/user/get-single-user/?token={EXPIRED}"),
            false,
            ("02", "No id"),
            ("05", "Invalid token || Token has expired"),
        ),
        (
            format!("/manage/api/courses/get-single-course/?token={EXPIRED}"),
            false,
            ("02", "No id"),
            ("05", "Invalid token or Token has expired"),
        ),
        (
            format!("/manage/api/courses/add-multi-course-to-multi-user?token={EXPIRED}"),
            true,
            ("02", "Không có body request"),
            ("12", "Invalid token or Token has expired"),
        ),
    ];
    let documented = start().await;
    let auth_first = start_with(Config {
        check_order: CheckOrder::AuthFirst,
        ..Config::default()
    })
    .await;
    for (path, post, doc, first) in &cases {
        let (d, a) = if *post {
            (
                documented.post(path, "").await,
                auth_first.post(path, "").await,
            )
        } else {
            (documented.get(path).await, auth_first.get(path).await)
        };
        assert_eq!(
            (d.json()["respCode"].clone(), d.json()["msg"].clone()),
            (json!(doc.0), json!(doc.1)),
            "{path}"
        );
        assert_eq!(
            (a.json()["respCode"].clone(), a.json()["msg"].clone()),
            (json!(first.0), json!(first.1)),
            "{path}"
        );
    }
}

/// Issue 12: a required field that is present but not a non-blank string (number, operator
/// object, array, boolean, null, "", spaces) is "Not enough required infomation"; nothing is
/// created and the non-string value is not echoed. Optional fields of the wrong type fail too.
#[tokio::test]
async fn wrong_typed_fields_create_nothing() {
    let emu = start().await;
    let before = emu.state().await["accounts"].as_u64().unwrap();
    let bad_values = [
        json!(5),
        json!({"$ne": null}),
        json!(["a@example.vn"]),
        json!(true),
        Value::Null,
        json!(""),
        json!("   "),
    ];
    let mut items = Vec::new();
    for field in ["name", "username", "email", "password"] {
        for (i, bad) in bad_values.iter().enumerate() {
            let mut it = item(&format!("{field}{i}"));
            it[field] = bad.clone();
            items.push(it);
        }
    }
    for field in ["phone", "city", "district", "street", "gender", "job"] {
        for (i, bad) in [
            json!(912345678),
            json!({"$gt": ""}),
            json!(["x"]),
            json!(false),
        ]
        .iter()
        .enumerate()
        {
            let mut it = item(&format!("opt{field}{i}"));
            it[field] = bad.clone();
            items.push(it);
        }
    }
    let n = items.len();
    let v = emu
        .post_json(&path(ADMIN), &json!({ "users": items }))
        .await
        .expect(400, "13", &format!("0 success, {n} error"));
    for (x, sent) in v["users"].as_array().unwrap().iter().zip(&items) {
        assert_eq!(
            x["status"], "Not enough required infomation to create new user",
            "{sent}"
        );
        for key in ["name", "username", "email", "password"] {
            match &sent[key] {
                Value::String(s) => assert_eq!(x[key], json!(s), "{sent}"),
                _ => assert!(!x.as_object().unwrap().contains_key(key), "{x}"),
            }
        }
    }
    assert_eq!(emu.state().await["accounts"].as_u64().unwrap(), before);
    // The single-item endpoint applies the same rule (code 03).
    let mut one = item("single-bad");
    one["email"] = json!({"$ne": null});
    emu.post_json(
        &format!("/manage/api/users/create-single-user?token={ADMIN}"),
        &one,
    )
    .await
    .expect(
        400,
        "03",
        "Not enough required infomation to create new user",
    );
    // Optional fields that are null or strings are fine (null counts as absent).
    let mut fine = item("optnull");
    fine["phone"] = Value::Null;
    fine["city"] = json!("Hà Nội");
    emu.post_json(&path(ADMIN), &json!({"users": [fine]}))
        .await
        .expect(200, "00", "1 success, 0 error");
}

/// Issue 12: e-mails and usernames are compared (and stored) without surrounding spaces, and
/// e-mails and usernames ignoring case, against existing accounts and earlier items alike.
#[tokio::test]
async fn surrounding_spaces_do_not_make_a_new_account() {
    let emu = start().await;
    let body = json!({"users": [
        {"name": "Email Có Dấu Cách", "username": "spaced1", "email": "  ADMIN@demo.lpm.test ", "password": "secret123"},
        {"name": "Tên Có Dấu Cách", "username": " demouser\t", "email": "spaced1@example.vn", "password": "secret123"},
        {"name": "Mới Tinh", "username": "  trimmed1 ", "email": " Trimmed1@Example.vn  ", "password": "secret123"},
        {"name": "Trùng Lô Email", "username": "trimmed2", "email": "trimmed1@example.vn", "password": "secret123"},
        {"name": "Trùng Lô Tên", "username": "TRIMMED1", "email": "trimmed2@example.vn", "password": "secret123"},
    ]});
    let v = emu
        .post_json(&path(ADMIN), &body)
        .await
        .expect(200, "00", "1 success, 4 error");
    let statuses: Vec<&str> = v["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        [
            "Email already in use",
            "Username already in use",
            "Success created",
            "Email already in use",
            "Username already in use",
        ]
    );
    // The echo is what was sent; the stored account is trimmed.
    assert_eq!(v["users"][2]["email"], " Trimmed1@Example.vn  ");
    let id = v["users"][2]["userId"].as_str().unwrap();
    let one = emu
        .get(&format!(
            "/manage/api/user/get-single-user/{id}?token={ADMIN}"
        ))
        .await
        .expect(200, "00", "Success");
    assert_eq!(one["user"]["username"], "trimmed1");
    assert_eq!(one["user"]["emails"][0]["address"], "Trimmed1@Example.vn");
    let found = emu
        .get(&format!(
            "/manage/api/users/search-user?token={ADMIN}&email=trimmed1@example.vn"
        ))
        .await
        .expect(200, "00", "Success");
    assert_eq!(found["user"]["_id"], id);
}

/// A malformed e-mail fails the item as the platform's account schema refuses it (`Not enough
/// required infomation…`, as other malformed members), and creates nothing.
#[tokio::test]
async fn a_malformed_email_fails_its_item() {
    let emu = start().await;
    let bad = [
        "no-at-sign.example.vn",
        "two@@example.vn",
        "a@b@example.vn",
        "@example.vn",
        "local@",
        "local@nodot",
        "local@example.",
        "local@.example.vn",
        "local@example..vn",
        "with space@example.vn",
        "local@example.v",
        "local@example.123",
        "tab\t@example.vn",
    ];
    let mut users: Vec<Value> = bad
        .iter()
        .enumerate()
        .map(|(i, e)| json!({"name": "Sai Thư", "username": format!("badmail{i}"), "email": e, "password": "secret123"}))
        .collect();
    users.push(item("goodmail"));
    users.push(json!({"name": "Có Dấu", "username": "idnmail1", "email": "người.dùng@trường.việt.nam", "password": "secret123"}));
    let before = emu.state().await["accounts"].as_u64().unwrap();
    let v = emu
        .post_json(&path(ADMIN), &json!({ "users": users }))
        .await
        .expect(200, "00", &format!("2 success, {} error", bad.len()));
    let u = v["users"].as_array().unwrap();
    for (i, x) in u.iter().take(bad.len()).enumerate() {
        assert_eq!(
            x["status"], "Not enough required infomation to create new user",
            "{}",
            bad[i]
        );
        assert!(x["userId"].is_null());
    }
    assert_eq!(u[bad.len()]["status"], "Success created");
    assert_eq!(u[bad.len() + 1]["status"], "Success created");
    assert_eq!(emu.state().await["accounts"].as_u64(), Some(before + 2));
}
