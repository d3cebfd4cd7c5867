//! Course endpoints: get (single, multi), search, add courses to accounts.

use axum::extract::State;
use axum::http::Method;
use serde_json::{json, Map, Value};

use super::paging;
use super::users::path_id;
use crate::api::{
    checked, data, json_response, success, ApiErr, AuthCodes, Ctx, Reply, MSG_INVALID_TOKEN,
    MSG_SUCCESS,
};
use crate::state::AppState;
use crate::util::{fold, now_ms};

/// Accounts per add-courses call.
pub const MAX_ACCOUNTS: usize = 100;

// ---------------------------------------------------------------- get-single-course

const SINGLE_AUTH: AuthCodes = AuthCodes {
    no_token: "03",
    auth_fail: "04",
    invalid: "05",
    invalid_msg: MSG_INVALID_TOKEN,
    no_permission: Some("06"),
};

pub async fn get_single(State(st): State<AppState>, ctx: Ctx) -> Reply<data::Course> {
    ctx.require_method(Method::GET)?;
    let inner = st.lock();
    let no_id = || ApiErr::bad("02", "No id");
    let (_, id) = checked(&st.cfg, &inner, &ctx, &SINGLE_AUTH, false, || {
        path_id(&ctx.path, "get-single-course").ok_or_else(no_id)
    })?;
    let course = inner
        .course(&id)
        .ok_or_else(|| ApiErr::bad("07", "Course not found"))?;
    Ok(success(
        "course",
        Value::Object(course.record.clone()),
        MSG_SUCCESS,
    ))
}

// ---------------------------------------------------------------- get-multi-course

const MULTI_AUTH: AuthCodes = AuthCodes {
    no_token: "02",
    auth_fail: "06",
    invalid: "07",
    invalid_msg: MSG_INVALID_TOKEN,
    no_permission: Some("08"),
};

pub async fn get_multi(State(st): State<AppState>, ctx: Ctx) -> Reply<data::Courses> {
    ctx.require_method(Method::GET)?;
    let cfg = &st.cfg;
    let inner = st.lock();
    let (_, page) = checked(cfg, &inner, &ctx, &MULTI_AUTH, true, || {
        paging(&ctx, cfg.start_required, cfg.default_limit, 0, "05")
    })?;
    let courses = page.of(inner.courses_newest_first().into_iter().map(|c| &c.record));
    Ok(success("courses", courses, MSG_SUCCESS))
}

// ---------------------------------------------------------------- search-course

const SEARCH_AUTH: AuthCodes = AuthCodes {
    no_token: "02",
    auth_fail: "04",
    invalid: "05",
    invalid_msg: MSG_INVALID_TOKEN,
    no_permission: Some("06"),
};

/// True when every keyword of `query` occurs in `title`, ignoring case and diacritics.
pub fn title_matches(title: &str, query: &str) -> bool {
    let title = fold(title);
    let words: Vec<String> = fold(query).split_whitespace().map(str::to_string).collect();
    !words.is_empty() && words.iter().all(|w| title.contains(w.as_str()))
}

pub async fn search(State(st): State<AppState>, ctx: Ctx) -> Reply<data::Courses> {
    ctx.require_method(Method::GET)?;
    let inner = st.lock();
    let title = |ctx: &Ctx| -> Result<String, ApiErr> {
        ctx.param("title")
            .filter(|t| !t.trim().is_empty())
            .map(str::to_string)
            .ok_or_else(|| ApiErr::bad("03", "No title parameter"))
    };
    let (_, query) = checked(&st.cfg, &inner, &ctx, &SEARCH_AUTH, true, || title(&ctx))?;
    let courses: Vec<Value> = inner
        .courses_newest_first()
        .into_iter()
        .filter(|c| title_matches(c.title(), &query))
        .take(100)
        .map(|c| Value::Object(c.record.clone()))
        .collect();
    Ok(success("courses", Value::Array(courses), MSG_SUCCESS))
}

// ---------------------------------------------------------------- add-multi-course-to-multi-user

const ADD_AUTH: AuthCodes = AuthCodes {
    no_token: "10",
    auth_fail: "11",
    invalid: "12",
    invalid_msg: MSG_INVALID_TOKEN,
    no_permission: Some("13"),
};

fn add_body(ctx: &Ctx) -> Result<(Vec<Value>, Vec<Value>), ApiErr> {
    let body = ctx
        .body
        .as_ref()
        .ok_or_else(|| ApiErr::bad("02", "Không có body request"))?;
    let users = match body.get("users") {
        None | Some(Value::Null) => {
            return Err(ApiErr::bad("03", "No users array in request body"))
        }
        Some(u) => u
            .as_array()
            .ok_or_else(|| ApiErr::bad("04", "Users parammeter in body is not array format"))?,
    };
    if users.is_empty() {
        return Err(ApiErr::bad("05", "User parammeter is an empty array"));
    }
    let courses = match body.get("courses") {
        None | Some(Value::Null) => {
            return Err(ApiErr::bad("06", "No courses array in request body"))
        }
        Some(c) => c
            .as_array()
            .ok_or_else(|| ApiErr::bad("07", "Courses parammeter in body is not array format"))?,
    };
    if courses.is_empty() {
        return Err(ApiErr::bad("08", "Courses parammeter is an empty array"));
    }
    if users.len() > MAX_ACCOUNTS {
        return Err(ApiErr::bad(
            "09",
            format!("Maximum {MAX_ACCOUNTS} users per request"),
        ));
    }
    Ok((users.clone(), courses.clone()))
}

pub async fn add_courses(State(st): State<AppState>, ctx: Ctx) -> Reply<data::NoData> {
    ctx.require_method(Method::POST)?;
    let mut inner = st.lock();
    let (_, (users, course_ids)) =
        checked(&st.cfg, &inner, &ctx, &ADD_AUTH, false, || add_body(&ctx))?;
    // validCourses: the existing courses among those requested, in request order, once each.
    let mut valid: Vec<(String, String)> = Vec::new();
    for id in course_ids.iter().filter_map(Value::as_str) {
        if valid.iter().any(|(v, _)| v == id) {
            continue;
        }
        if let Some(c) = inner.course(id) {
            valid.push((c.id.clone(), c.title().to_string()));
        }
    }
    if valid.is_empty() {
        return Err(ApiErr::bad("14", "No valid courses").into());
    }
    let now = now_ms();
    let mut results = Vec::new();
    let (mut ok, mut failed) = (0usize, 0usize);
    for u in &users {
        let (user_id, outcome) = match u.as_str() {
            Some(id) => match inner.account_mut(id) {
                Some(account) => {
                    for (cid, _) in &valid {
                        account.enrol(cid, now);
                    }
                    (id.to_string(), Ok(()))
                }
                None => (id.to_string(), Err("User not found")),
            },
            None => (u.to_string(), Err("Invalid user id")),
        };
        let mut item = Map::new();
        item.insert("userId".into(), json!(user_id));
        match outcome {
            Ok(()) => {
                ok += 1;
                item.insert("success".into(), json!(true));
                item.insert("status".into(), json!("Success"));
            }
            Err(status) => {
                failed += 1;
                item.insert("success".into(), json!(false));
                item.insert("status".into(), json!(status));
            }
        }
        results.push(Value::Object(item));
    }
    let valid_courses: Vec<Value> = valid
        .into_iter()
        .map(|(id, title)| json!({"_id": id, "title": title}))
        .collect();
    let body = json!({
        "respCode": "00",
        "validCourses": valid_courses,
        "result": results,
        "msg": format!("{ok} tài khoản thêm khoá học thành công, {failed} tài khoản thêm khoá học lỗi"),
    });
    Ok(json_response(axum::http::StatusCode::OK, &body))
}
