//! get-single-course, get-multi-course, search-course, add-multi-course-to-multi-user.

use serde_json::{json, Value};

use crate::common::*;

const MULTI: &str = "/manage/api/courses/get-multi-course";
const SINGLE: &str = "/manage/api/courses/get-single-course";
const SEARCH: &str = "/manage/api/courses/search-course";
const ADD: &str = "/manage/api/courses/add-multi-course-to-multi-user";

#[tokio::test]
async fn get_multi_course_limits_and_errors() {
    let emu = start().await;
    let v = emu
        .post(&format!("{MULTI}?token={ADMIN}&start=0&limit=5"), "{}")
        .await
        .expect(405, "01", "Request method should be GET");
    assert!(v.as_object().unwrap().contains_key("courses") && v["courses"].is_null());
    emu.get(&format!("{MULTI}?start=0&limit=5"))
        .await
        .expect(401, "02", "No token");
    emu.get(&format!("{MULTI}?token={ADMIN}&limit=5"))
        .await
        .expect(400, "03", "No start parameter");
    emu.get(&format!("{MULTI}?token={ADMIN}&start=-3&limit=5"))
        .await
        .expect(
            400,
            "04",
            "Invalid start parameter, start should be greater than or equal 0",
        );
    emu.get(&format!("{MULTI}?token={ADMIN}&start=0&limit=101"))
        .await
        .expect(
            400,
            "05",
            "Invalid limit parameter, limit should be between 0 and 100",
        );
    emu.get(&format!("{MULTI}?token=bad&start=0&limit=5"))
        .await
        .expect(401, "07", "Invalid token or Token has expired");
    emu.get(&format!("{MULTI}?token={USER}&start=0&limit=5"))
        .await
        .expect(401, "08", "Your account does not have permission");
    emu.fault(json!({"endpoint": "get-multi-course", "kind": "authfail"}))
        .await;
    emu.get(&format!("{MULTI}?token={ADMIN}&start=0&limit=5"))
        .await
        .expect(401, "06", "Server not able to authenticate your account");
    // limit 0 is allowed here.
    let v = emu
        .get(&format!("{MULTI}?token={ADMIN}&start=0&limit=0"))
        .await
        .expect(200, "00", "Success");
    assert_eq!(v["courses"], json!([]));
    let v = emu
        .get(&format!("{MULTI}?token={ADMIN}&start=0&limit=100"))
        .await
        .expect(200, "00", "Success");
    let courses = v["courses"].as_array().unwrap();
    assert!(courses.len() >= 30);
    let times: Vec<&str> = courses
        .iter()
        .map(|c| c["createdAt"].as_str().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "newest first");
    let page = emu
        .get(&format!("{MULTI}?token={ADMIN}&start=3&limit=2"))
        .await
        .json();
    assert_eq!(page["courses"][0], courses[3]);
    assert_eq!(page["courses"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn seeded_courses_exercise_optional_fields() {
    let emu = start().await;
    let v = emu
        .get(&format!("{MULTI}?token={ADMIN}&start=0&limit=100"))
        .await
        .json();
    let cs = v["courses"].as_array().unwrap().clone();
    let any = |f: &dyn Fn(&Value) -> bool| cs.iter().any(f);
    assert!(any(&|c| c["title"]
        .as_str()
        .unwrap()
        .contains("Trắc nghiệm")));
    assert!(any(&|c| c["type"] == "SALE"));
    assert!(any(&|c| c["type"] == "UPCOMMING"));
    assert!(any(&|c| c["price"]["original"] == 0));
    assert!(any(&|c| c["price"]["private_discount_time"] == json!({})));
    assert!(any(&|c| c["price"]["private_discount_time"]["start"]
        .is_string()
        && c["price"]["private_discount_price"].is_number()));
    assert!(any(&|c| c["price"]["discount_enable"].is_null()));
    assert!(any(&|c| c["affiliates"] == json!({})));
    assert!(any(
        &|c| c["affiliates"]["basic_payout_value"]["L1"].is_number()
    ));
    assert!(any(&|c| c["affiliates"]["basic_payout_value"] == json!({})));
    assert!(any(&|c| c["purpose"]
        .as_array()
        .unwrap()
        .contains(&json!({}))));
    assert!(any(&|c| c["target_audience"]
        .as_array()
        .unwrap()
        .contains(&json!({}))));
    assert!(any(&|c| c["image_detail"]["original"]["size"].is_u64()
        && c["image_detail"]["thumbnail160"]["url"].is_string()
        && c["image_detail"]["preview"]["meta"]["pipePath"].is_string()));
    assert!(any(&|c| c.get("image_detail").is_none()));
    assert!(any(&|c| c["image_primary"]["original"]["type"].is_string()));
    assert!(any(&|c| c.get("requirement").is_none()));
    assert!(any(&|c| c.get("docs").is_none()));
    let docs: Vec<&Value> = cs
        .iter()
        .filter_map(|c| c["docs"].as_array())
        .flatten()
        .collect();
    for (field, value) in [
        ("type", "VIDEO"),
        ("type", "PDF"),
        ("sourceType", "UPLOAD"),
        ("sourceType", "EMBED"),
        ("sourceType", "VIMEO"),
    ] {
        assert!(docs.iter().any(|d| d[field] == value), "{field}={value}");
    }
    assert!(docs.iter().any(|d| d.get("source").is_none()));
    for t in ["UPLOAD", "EMBED", "VIMEO"] {
        assert!(any(&|c| c["trailer"]["sourceType"] == t));
    }
    assert!(any(&|c| c["_id"].as_str().unwrap().len() == 20));
    assert!(any(&|c| c["_id"].as_str().unwrap().len() == 14));
    for c in &cs {
        assert!(is_iso(c["createdAt"].as_str().unwrap()));
        assert!(is_iso(c["updatedAt"].as_str().unwrap()));
        assert!(c["price"]["original"].is_number());
        assert!(c["credit_shared"]["value"].is_number());
        assert!(c.as_object().unwrap().values().all(|v| !v.is_null()));
    }
}

#[tokio::test]
async fn get_single_course() {
    let emu = start().await;
    let ids = emu.course_ids().await;
    let id = &ids[0];
    let v = emu
        .get(&format!("{SINGLE}/{id}?token={ADMIN}"))
        .await
        .expect(200, "00", "Success");
    assert_eq!(v["course"]["_id"], id.as_str());
    emu.post(&format!("{SINGLE}/{id}?token={ADMIN}"), "{}")
        .await
        .expect(405, "01", "Request method should be GET");
    let v = emu
        .get(&format!("{SINGLE}?token={ADMIN}"))
        .await
        .expect(400, "02", "No id");
    assert!(v["course"].is_null());
    emu.get(&format!("{SINGLE}/{id}"))
        .await
        .expect(401, "03", "No token");
    emu.get(&format!("{SINGLE}/{id}?token=bad")).await.expect(
        401,
        "05",
        "Invalid token or Token has expired",
    );
    emu.get(&format!("{SINGLE}/{id}?token={USER}"))
        .await
        .expect(401, "06", "Your account does not have permission");
    emu.get(&format!("{SINGLE}/nothere?token={ADMIN}"))
        .await
        .expect(400, "07", "Course not found");
    emu.fault(json!({"endpoint": "get-single-course", "kind": "authfail"}))
        .await;
    emu.get(&format!("{SINGLE}/{id}?token={ADMIN}"))
        .await
        .expect(401, "04", "Server not able to authenticate your account");
}

async fn titles(emu: &Emu, query: &str) -> Vec<String> {
    let v = emu
        .get(&format!("{SEARCH}?token={ADMIN}&title={query}"))
        .await
        .expect(200, "00", "Success");
    v["courses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["title"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn search_course_diacritics_and_errors() {
    let emu = start().await;
    let found = titles(&emu, "trac%20nghiem").await;
    assert!(found.contains(&"Trắc nghiệm Toán 12 - Luyện thi THPT Quốc gia".to_string()));
    assert!(found
        .iter()
        .all(|t| t.to_lowercase().contains("trắc nghiệm")));
    assert_eq!(found.len(), 3);
    // Upper case with diacritics, percent-encoded UTF-8, and `+` for space.
    let upper = titles(&emu, "TR%E1%BA%AEC+NGHI%E1%BB%86M").await;
    assert_eq!(upper, found);
    assert_eq!(titles(&emu, "toan+trac").await.len(), 1, "all keywords");
    assert_eq!(
        titles(&emu, "dau%20tu").await,
        ["Đầu tư chứng khoán căn bản"],
        "đ folds to d"
    );
    assert_eq!(
        titles(&emu, "Photo").await,
        ["Thiết kế đồ họa với Photoshop"],
        "partial word"
    );
    assert_eq!(titles(&emu, "khong%20co%20khoa%20nay").await.len(), 0);

    emu.post(&format!("{SEARCH}?token={ADMIN}&title=yoga"), "{}")
        .await
        .expect(405, "01", "Request method should be GET");
    let v = emu
        .get(&format!("{SEARCH}?title=yoga"))
        .await
        .expect(401, "02", "No token");
    assert!(v["courses"].is_null());
    emu.get(&format!("{SEARCH}?token={ADMIN}"))
        .await
        .expect(400, "03", "No title parameter");
    emu.get(&format!("{SEARCH}?token={ADMIN}&title=%20"))
        .await
        .expect(400, "03", "No title parameter");
    emu.get(&format!("{SEARCH}?token=bad&title=yoga"))
        .await
        .expect(401, "05", "Invalid token or Token has expired");
    emu.get(&format!("{SEARCH}?token={USER}&title=yoga"))
        .await
        .expect(401, "06", "Your account does not have permission");
    emu.fault(json!({"endpoint": "search-course", "kind": "authfail"}))
        .await;
    emu.get(&format!("{SEARCH}?token={ADMIN}&title=yoga"))
        .await
        .expect(401, "04", "Server not able to authenticate your account");
}

fn add_path(token: &str) -> String {
    format!("{ADD}?token={token}")
}

#[tokio::test]
async fn add_courses_errors_have_no_data_key() {
    let emu = start().await;
    let users = emu.some_user_ids(1).await;
    let courses = emu.course_ids().await;
    let ok = json!({"users": users, "courses": [courses[0]]});
    let cases: Vec<(u16, &str, &str, String, Option<Value>)> = vec![
        (400, "02", "Không có body request", add_path(ADMIN), None),
        (
            400,
            "03",
            "No users array in request body",
            add_path(ADMIN),
            Some(json!({"courses": [courses[0]]})),
        ),
        (
            400,
            "04",
            "Users parammeter in body is not array format",
            add_path(ADMIN),
            Some(json!({"users": "x", "courses": [courses[0]]})),
        ),
        (
            400,
            "05",
            "User parammeter is an empty array",
            add_path(ADMIN),
            Some(json!({"users": [], "courses": [courses[0]]})),
        ),
        (
            400,
            "06",
            "No courses array in request body",
            add_path(ADMIN),
            Some(json!({"users": users})),
        ),
        (
            400,
            "07",
            "Courses parammeter in body is not array format",
            add_path(ADMIN),
            Some(json!({"users": users, "courses": 5})),
        ),
        (
            400,
            "08",
            "Courses parammeter is an empty array",
            add_path(ADMIN),
            Some(json!({"users": users, "courses": []})),
        ),
        (
            400,
            "09",
            "Maximum 100 users per request",
            add_path(ADMIN),
            Some(json!({"users": vec!["x"; 101], "courses": [courses[0]]})),
        ),
        (401, "10", "No token", ADD.to_string(), Some(ok.clone())),
        (
            401,
            "12",
            "Invalid token or Token has expired",
            add_path("bad"),
            Some(ok.clone()),
        ),
        (
            401,
            "12",
            "Invalid token or Token has expired",
            add_path(EXPIRED),
            Some(ok.clone()),
        ),
        (
            401,
            "13",
            "Your account does not have permission",
            add_path(USER),
            Some(ok.clone()),
        ),
        (
            400,
            "14",
            "No valid courses",
            add_path(ADMIN),
            Some(json!({"users": users, "courses": ["nope", 3]})),
        ),
    ];
    for (status, code, msg, path, body) in cases {
        let r = match body {
            Some(b) => emu.post_json(&path, &b).await,
            None => emu.post_empty(&path).await,
        };
        let v = r.expect(status, code, msg);
        assert_eq!(
            v.as_object().unwrap().len(),
            2,
            "only respCode and msg: {v}"
        );
    }
    let v = emu
        .get(&add_path(ADMIN))
        .await
        .expect(405, "01", "Request method should be POST");
    assert_eq!(v.as_object().unwrap().len(), 2);
    emu.fault(json!({"endpoint": "add-multi-course-to-multi-user", "kind": "authfail"}))
        .await;
    emu.post_json(&add_path(ADMIN), &ok).await.expect(
        401,
        "11",
        "Server not able to authenticate your account",
    );
    assert_eq!(emu.state().await["enrolments"], 51, "no change");
}

#[tokio::test]
async fn add_courses_enrols_and_reports() {
    let emu = start().await;
    let users = emu.some_user_ids(3).await;
    let courses = emu.course_ids().await;
    let body = json!({
        "users": [users[0], "unknownUser123456", users[1], users[2], 42],
        "courses": [courses[1], "unknownCourse1234", courses[2], courses[1]],
    });
    let v = emu.post_json(&add_path(ADMIN), &body).await.expect(
        200,
        "00",
        "3 tài khoản thêm khoá học thành công, 2 tài khoản thêm khoá học lỗi",
    );
    let valid = v["validCourses"].as_array().unwrap();
    assert_eq!(valid.len(), 2);
    assert_eq!(valid[0]["_id"], courses[1].as_str());
    assert!(valid[0]["title"].is_string());
    assert_eq!(valid[1]["_id"], courses[2].as_str());
    let result = v["result"].as_array().unwrap();
    assert_eq!(result.len(), 5);
    assert_eq!(
        result[0],
        json!({"userId": users[0], "success": true, "status": "Success"})
    );
    assert_eq!(
        result[1],
        json!({"userId": "unknownUser123456", "success": false, "status": "User not found"})
    );
    assert_eq!(result[3]["success"], true);
    assert_eq!(result[4]["success"], false);
    assert_eq!(result[4]["status"], "Invalid user id");

    // Enrolments are visible afterwards, with lifetime expiry.
    let u = emu
        .get(&format!(
            "/manage/api/users/get-single-user/{}?token={ADMIN}",
            users[0]
        ))
        .await
        .json();
    let mine: Vec<&Value> = u["user"]["myCourses"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["courseId"] == courses[1].as_str() || c["courseId"] == courses[2].as_str())
        .collect();
    assert_eq!(mine.len(), 2);
    let activated = mine[0]["activatedDate"].as_str().unwrap();
    let expired = mine[0]["expiredAt"].as_str().unwrap();
    assert!(is_iso(activated) && is_iso(expired));
    let year = |s: &str| s[..4].parse::<i32>().unwrap();
    assert!((99..=100).contains(&(year(expired) - year(activated))));

    // A second grant does not duplicate the enrolments.
    emu.post_json(
        &add_path(ADMIN),
        &json!({"users": [users[0]], "courses": [courses[1]]}),
    )
    .await
    .expect(
        200,
        "00",
        "1 tài khoản thêm khoá học thành công, 0 tài khoản thêm khoá học lỗi",
    );
    let again = emu
        .get(&format!(
            "/manage/api/user/get-single-user/{}?token={ADMIN}",
            users[0]
        ))
        .await
        .json();
    let count = again["user"]["myCourses"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["courseId"] == courses[1].as_str())
        .count();
    assert_eq!(count, 1);
}
