//! get-multi-user, get-single-user (both spellings), get-me, search-user, login-user.

use serde_json::{json, Value};

use crate::common::*;
use lpm_emulator::Config;

const MULTI: &str = "/manage/api/users/get-multi-user";

#[tokio::test]
async fn get_multi_user_errors() {
    let emu = start().await;
    let r = emu
        .post(&format!("{MULTI}?token={ADMIN}&start=0&limit=5"), "{}")
        .await;
    let v = r.expect(405, "01", "Request method should be GET");
    assert!(v["users"].is_null());
    emu.get(&format!("{MULTI}?start=0&limit=5"))
        .await
        .expect(401, "02", "No token");
    emu.get(&format!("{MULTI}?token={ADMIN}&limit=5"))
        .await
        .expect(400, "03", "No start parameter");
    for bad in ["-1", "abc", "1.5"] {
        emu.get(&format!("{MULTI}?token={ADMIN}&start={bad}&limit=5"))
            .await
            .expect(
                400,
                "04",
                "Invalid start parameter, start should be greater than or equal 0",
            );
    }
    for bad in ["0", "101", "x"] {
        emu.get(&format!("{MULTI}?token={ADMIN}&start=0&limit={bad}"))
            .await
            .expect(
                400,
                "05",
                "Invalid limit parameter, limit should be between 1 and 100",
            );
    }
    emu.fault(json!({"endpoint": "get-multi-user", "kind": "authfail"}))
        .await;
    emu.get(&format!("{MULTI}?token={ADMIN}&start=0&limit=5"))
        .await
        .expect(401, "06", "Server not able to authenticate your account");
    emu.get(&format!("{MULTI}?token=nope&start=0&limit=5"))
        .await
        .expect(401, "07", "Invalid token or Token has expired");
    emu.get(&format!("{MULTI}?token={EXPIRED}&start=0&limit=5"))
        .await
        .expect(401, "07", "Invalid token or Token has expired");
    emu.get(&format!("{MULTI}?token={USER}&start=0&limit=5"))
        .await
        .expect(401, "08", "Your account does not have permission");
}

#[tokio::test]
async fn permission_status_403_keeps_the_envelope() {
    let emu = start_with(Config {
        permission_status: 403,
        ..Config::default()
    })
    .await;
    let r = emu
        .get(&format!("{MULTI}?token={USER}&start=0&limit=5"))
        .await;
    let v = r.expect(403, "08", "Your account does not have permission");
    assert_eq!(
        v.get("users"),
        Some(&Value::Null),
        "the data member is null, not absent"
    );
    // Other classes keep their status.
    emu.get(&format!("{MULTI}?token=nope&start=0&limit=5"))
        .await
        .expect(401, "07", "Invalid token or Token has expired");
}

#[tokio::test]
async fn get_multi_user_paging_and_order() {
    let emu = start().await;
    let all: Vec<Value> = {
        let mut v = Vec::new();
        for start in [0, 100, 200] {
            let r = emu
                .get(&format!("{MULTI}?token={ADMIN}&start={start}&limit=100"))
                .await
                .expect(200, "00", "Success");
            v.extend(r["users"].as_array().unwrap().iter().cloned());
        }
        v
    };
    assert_eq!(all.len(), 220);
    let times: Vec<&str> = all
        .iter()
        .map(|u| u["createdAt"].as_str().unwrap())
        .collect();
    assert!(times.iter().all(|t| is_iso(t)));
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "newest first");
    let one = emu
        .get(&format!("{MULTI}?token={ADMIN}&start=5&limit=1"))
        .await
        .json();
    assert_eq!(one["users"].as_array().unwrap().len(), 1);
    assert_eq!(one["users"][0], all[5]);
    // Default limit 20 when omitted; start past the end gives an empty page.
    let d = emu
        .get(&format!("{MULTI}?token={ADMIN}&start=0"))
        .await
        .json();
    assert_eq!(d["users"].as_array().unwrap().len(), 20);
    let e = emu
        .get(&format!("{MULTI}?token={ADMIN}&start=1000&limit=10"))
        .await
        .expect(200, "00", "Success");
    assert_eq!(e["users"], json!([]));
    // start optional when configured so.
    let emu = start_with(Config {
        start_required: false,
        ..Config::default()
    })
    .await;
    emu.get(&format!("{MULTI}?token={ADMIN}&limit=3"))
        .await
        .expect(200, "00", "Success");
}

#[tokio::test]
async fn seeded_user_records_exercise_optional_fields() {
    let emu = start().await;
    let mut users = Vec::new();
    for start in [0, 100, 200] {
        let r = emu
            .get(&format!("{MULTI}?token={ADMIN}&start={start}&limit=100"))
            .await
            .json();
        users.extend(r["users"].as_array().unwrap().iter().cloned());
    }
    let any = |f: &dyn Fn(&Value) -> bool| users.iter().any(f);
    assert!(any(&|u| u["profile"]["tUid"] == ""));
    assert!(any(&|u| u["profile"]["avatar"]["imageLink"].is_string()));
    assert!(any(&|u| u["profile"]["phone"].is_string()));
    assert!(any(&|u| u["profile"]["affUserType"].is_string()));
    assert!(any(&|u| u["myCart"][0]["status"] == "DELETED"));
    assert!(any(&|u| u["myTransactions"][0].is_string()));
    assert!(any(&|u| u["myCourses"][0]["currentLesson"]["lessonSlug"]
        .is_string()
        && u["myCourses"][0]["lessonStatus"][0]["finish"].is_boolean()));
    assert!(any(&|u| u["_id"].as_str().unwrap().len() == 14));
    // Optional keys are omitted, never null; names are Vietnamese.
    assert!(any(&|u| !u["profile"]["name"].as_str().unwrap().is_ascii()));
    for u in &users {
        let o = u.as_object().unwrap();
        assert!(o.values().all(|v| !v.is_null()));
        assert!(!o.contains_key("forSeller") && !o.contains_key("balance"));
        assert!(u["emails"][0]["verified"].is_boolean());
        if let Some(courses) = u["myCourses"].as_array() {
            for c in courses {
                assert!(is_iso(c["activatedDate"].as_str().unwrap()));
                assert!(is_iso(c["expiredAt"].as_str().unwrap()));
            }
        }
    }
}

#[tokio::test]
async fn get_single_user_both_spellings_and_errors() {
    let emu = start().await;
    let id = &emu.some_user_ids(1).await[0];
    for group in ["user", "users"] {
        let p = format!("/manage/api/{group}/get-single-user");
        let v = emu
            .get(&format!("{p}/{id}?token={ADMIN}"))
            .await
            .expect(200, "00", "Success");
        assert_eq!(v["user"]["_id"], id.as_str());
        let v = emu
            .post(&format!("{p}/{id}?token={ADMIN}"), "{}")
            .await
            .expect(405, "01", "Request method should be GET");
        assert!(v["user"].is_null());
        emu.get(&format!("{p}?token={ADMIN}"))
            .await
            .expect(400, "02", "No id");
        emu.get(&format!("{p}/?token={ADMIN}"))
            .await
            .expect(400, "02", "No id");
        emu.get(&format!("{p}/{id}"))
            .await
            .expect(401, "03", "No token");
        emu.get(&format!("{p}/{id}?token=bad")).await.expect(
            401,
            "05",
            "Invalid token || Token has expired",
        );
        emu.get(&format!("{p}/{id}?token={EXPIRED}")).await.expect(
            401,
            "05",
            "Invalid token || Token has expired",
        );
        emu.get(&format!("{p}/{id}?token={USER}")).await.expect(
            401,
            "06",
            "Your account does not have permission",
        );
        emu.get(&format!("{p}/doesNotExist12345?token={ADMIN}"))
            .await
            .expect(400, "03", "User not found");
    }
    emu.fault(json!({"endpoint": "get-single-user", "kind": "authfail"}))
        .await;
    emu.get(&format!(
        "/manage/api/user/get-single-user/{id}?token={ADMIN}"
    ))
    .await
    .expect(401, "04", "Server not able to authenticate your account");
    let emu = start_with(Config {
        user_not_found_code: "07".into(),
        ..Config::default()
    })
    .await;
    emu.get(&format!(
        "/manage/api/user/get-single-user/nope?token={ADMIN}"
    ))
    .await
    .expect(400, "07", "User not found");
}

#[tokio::test]
async fn get_me() {
    let emu = start().await;
    let p = "/manage/api/users/get-me";
    let v = emu
        .get(&format!("{p}?token={ADMIN}"))
        .await
        .expect(200, "00", "Success");
    assert_eq!(v["user"]["emails"][0]["address"], "admin@demo.lpm.test");
    assert_eq!(v["user"]["balance"], json!({}));
    assert!(v["user"]["forSeller"]["callDistrCoeff"].is_number());
    assert!(v["user"]["forSeller"]["getCall"].is_boolean());
    // A token without permission may read its own account.
    let v = emu
        .get(&format!("{p}?token={USER}"))
        .await
        .expect(200, "00", "Success");
    assert_eq!(v["user"]["emails"][0]["address"], "user@demo.lpm.test");
    let v = emu.post(&format!("{p}?token={ADMIN}"), "{}").await.expect(
        405,
        "01",
        "Request method should be GET",
    );
    assert!(v.as_object().unwrap().contains_key("user") && v["user"].is_null());
    emu.get(p).await.expect(401, "02", "No token");
    emu.fault(json!({"endpoint": "get-me", "kind": "authfail"}))
        .await;
    emu.get(&format!("{p}?token={ADMIN}")).await.expect(
        401,
        "03",
        "Server not able to authenticate your account",
    );
    emu.get(&format!("{p}?token=bad")).await.expect(
        401,
        "04",
        "Invalid token or Token has expired",
    );
    emu.get(&format!("{p}?token={EXPIRED}")).await.expect(
        401,
        "04",
        "Invalid token or Token has expired",
    );
}

#[tokio::test]
async fn search_user() {
    let emu = start().await;
    let p = "/manage/api/users/search-user";
    emu.post(&format!("{p}?token={ADMIN}&email=a@b.c"), "{}")
        .await
        .expect(405, "01", "Request method should be GET");
    emu.get(&format!("{p}?email=user@demo.lpm.test"))
        .await
        .expect(401, "02", "No token");
    emu.get(&format!("{p}?token={ADMIN}")).await.expect(
        400,
        "03",
        "No email or username parameter",
    );
    emu.get(&format!("{p}?token=bad&email=user@demo.lpm.test"))
        .await
        .expect(401, "05", "Invalid token or Token has expired");
    emu.get(&format!("{p}?token={USER}&email=user@demo.lpm.test"))
        .await
        .expect(401, "06", "Your account does not have permission");
    emu.get(&format!("{p}?token={ADMIN}&email=nobody@nowhere.vn"))
        .await
        .expect(400, "07", "User not found");
    emu.fault(json!({"endpoint": "search-user", "kind": "authfail"}))
        .await;
    emu.get(&format!("{p}?token={ADMIN}&username=admin"))
        .await
        .expect(401, "04", "Server not able to authenticate your account");
    // E-mail first (case-insensitive), even when the username names another account.
    let v = emu
        .get(&format!(
            "{p}?token={ADMIN}&email=USER%40demo.lpm.test&username=admin"
        ))
        .await
        .expect(200, "00", "Success");
    assert_eq!(v["user"]["username"], "demouser");
    assert!(v["user"].is_object(), "one user, not a list");
    // Username only when no e-mail matches.
    let v = emu
        .get(&format!(
            "{p}?token={ADMIN}&email=nobody%40nowhere.vn&username=admin"
        ))
        .await
        .expect(200, "00", "Success");
    assert_eq!(v["user"]["emails"][0]["address"], "admin@demo.lpm.test");
    let v = emu
        .get(&format!("{p}?token={ADMIN}&username=demouser"))
        .await
        .expect(200, "00", "Success");
    assert_eq!(v["user"]["username"], "demouser");
}

#[tokio::test]
async fn login_user() {
    let emu = start().await;
    let p = "/manage/api/users/login-user";
    let v = emu
        .get(p)
        .await
        .expect(405, "01", "Request method should be POST");
    assert_eq!(v.as_object().unwrap().len(), 2, "only respCode and msg");
    let v = emu.post(p, "").await.expect(400, "02", "No request body");
    assert_eq!(v.as_object().unwrap().len(), 2);
    emu.post_json(p, &json!({"password": "x"}))
        .await
        .expect(400, "03", "No email in request body");
    emu.post_json(p, &json!({"email": "admin@demo.lpm.test"}))
        .await
        .expect(400, "04", "No password in request body");
    emu.post_json(p, &json!({"email": "who@demo.lpm.test", "password": "x"}))
        .await
        .expect(400, "05", "Wrong email");
    emu.post_json(p, &json!({"email": "admin@demo.lpm.test", "password": "x"}))
        .await
        .expect(400, "07", "Wrong password");
    emu.fault(json!({"endpoint": "login-user", "kind": "authfail"}))
        .await;
    emu.post_json(
        p,
        &json!({"email": "admin@demo.lpm.test", "password": "demo-admin-password"}),
    )
    .await
    .expect(500, "06", "Server not able to check password");
    let v = emu
        .post_json(
            p,
            &json!({"email": "admin@demo.lpm.test", "password": "demo-admin-password"}),
        )
        .await
        .expect(200, "00", "login success");
    assert_eq!(v["token"], ADMIN);
    assert!(is_iso(v["tokenExpires"].as_str().unwrap()));
    let v = emu
        .post_json(
            p,
            &json!({"email": "user@demo.lpm.test", "password": "demo-user-password"}),
        )
        .await
        .expect(200, "00", "login success");
    assert_eq!(v["token"], USER);

    // An account created through the API can log in; its token has no permission.
    emu.post_json(
        &format!("/manage/api/users/create-multi-user?token={ADMIN}"),
        &json!({"users": [{"name": "Học Viên Mới", "username": "hocvienmoi", "email": "hvm@example.vn", "password": "matkhau123"}]}),
    )
    .await
    .expect(200, "00", "1 success, 0 error");
    let v = emu
        .post_json(
            p,
            &json!({"email": "HVM@example.vn", "password": "matkhau123"}),
        )
        .await
        .expect(200, "00", "login success");
    let token = v["token"].as_str().unwrap().to_string();
    assert_eq!(token.len(), 43);
    let again = emu
        .post_json(
            p,
            &json!({"email": "hvm@example.vn", "password": "matkhau123"}),
        )
        .await
        .json();
    assert_eq!(again["token"], token.as_str());
    let me = emu
        .get(&format!("/manage/api/users/get-me?token={token}"))
        .await
        .expect(200, "00", "Success");
    assert_eq!(me["user"]["username"], "hocvienmoi");
    emu.get(&format!("{MULTI}?token={token}&start=0&limit=1"))
        .await
        .expect(401, "08", "Your account does not have permission");
}
