//! Account endpoints: create (multi and single), get (multi, single, me), search.

use axum::extract::State;
use axum::http::Method;
use serde_json::{json, Map, Value};

use super::paging;
use crate::api::{
    authenticate, checked, data, success, ApiErr, AuthCodes, Class, Ctx, Reply, MSG_INVALID_TOKEN,
    MSG_INVALID_TOKEN_BARS, MSG_SUCCESS,
};
use crate::config::Config;
use crate::state::{Account, AppState, FaultKind, Inner, LoggedCall};
use crate::util::{iso, now_ms};

pub const MAX_ITEMS: usize = 100;

pub const ST_CREATED: &str = "Success created";
pub const ST_EMAIL_USED: &str = "Email already in use";
pub const ST_USERNAME_USED: &str = "Username already in use";
pub const ST_NOT_ENOUGH: &str = "Not enough required infomation to create new user";
pub const ST_SERVER_ERROR: &str = "Server error in create new use";

// ---------------------------------------------------------------- create-multi-user

const CREATE_AUTH: AuthCodes = AuthCodes {
    no_token: "06",
    auth_fail: "07",
    invalid: "08",
    invalid_msg: MSG_INVALID_TOKEN,
    no_permission: Some("10"),
};

fn users_array(ctx: &Ctx, no_body_msg: &str) -> Result<Vec<Value>, ApiErr> {
    let body = ctx
        .body
        .as_ref()
        .ok_or_else(|| ApiErr::bad("02", no_body_msg))?;
    let users = match body.get("users") {
        None | Some(Value::Null) => {
            return Err(ApiErr::bad("03", "No users array in request body"))
        }
        Some(u) => u,
    };
    let users = users
        .as_array()
        .ok_or_else(|| ApiErr::bad("04", "Users parammeter in body is not array format"))?;
    if users.is_empty() {
        return Err(ApiErr::bad("05", "User parammeter is an empty array"));
    }
    Ok(users.clone())
}

pub async fn create_multi(State(st): State<AppState>, ctx: Ctx) -> Reply<data::Users> {
    ctx.require_method(Method::POST)?;
    let cfg = &st.cfg;
    let mut inner = st.lock();
    let (caller, _) = checked(cfg, &inner, &ctx, &CREATE_AUTH, false, || {
        users_array(&ctx, "No request body").map(drop)
    })?;
    let items = users_array(&ctx, "No request body")?;
    let call = LoggedCall::now(&caller.token, ("items", json!(items.len())));
    inner.create_calls.push(call);
    if items.len() > MAX_ITEMS {
        return Err(ApiErr::bad("09", format!("Maximum {MAX_ITEMS} users per request")).into());
    }
    if ctx.fault == Some(FaultKind::ResourceFail) {
        return Err(ApiErr::new(
            Class::Server,
            "10",
            "Server is not able to check your website resources",
        )
        .into());
    }
    let free = inner.capacity.saturating_sub(inner.accounts.len());
    if free == 0 {
        return Err(ApiErr::bad("11", "The number of accounts has run out").into());
    }
    if free < items.len() {
        return Err(ApiErr::bad("12", format!("There are only {free} available accounts")).into());
    }
    let item_error = ctx.fault == Some(FaultKind::ItemError);
    let now = now_ms();
    let results: Vec<Value> = items
        .iter()
        .map(|item| create_one(cfg, &mut inner, item, now, item_error))
        .collect();
    let ok = results
        .iter()
        .filter(|r| r.get("success") == Some(&Value::Bool(true)))
        .count();
    let failed = results.len() - ok;
    let msg = format!("{ok} success, {failed} error");
    if ok == 0 {
        let mut e = ApiErr::bad("13", msg);
        e.extra = Some(("users", Value::Array(results)));
        return Err(e.into());
    }
    Ok(success("users", Value::Array(results), &msg))
}

/// The optional members of a creation item (platform notes: optional strings).
const OPTIONAL_FIELDS: [&str; 6] = ["phone", "city", "district", "street", "gender", "job"];

/// A creation item whose members passed the field checks. E-mail, username and name are
/// stored trimmed (uniqueness would mean nothing otherwise); the password is kept as sent.
struct NewAccount {
    name: String,
    username: String,
    password: String,
    email: Option<String>,
    phone: Option<String>,
}

/// Checks the members of a creation item: the required ones must be non-blank strings; an
/// optional one may be absent, `null` (taken as absent) or a string; any other type fails the
/// item ("Not enough required infomation").
fn parse_item(cfg: &Config, item: &Value) -> Result<NewAccount, &'static str> {
    let obj = item.as_object().ok_or(ST_NOT_ENOUGH)?;
    let text = |key: &str| -> Result<&str, &'static str> {
        match obj.get(key) {
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(s),
            _ => Err(ST_NOT_ENOUGH),
        }
    };
    let name = text("name")?.trim();
    let username = text("username")?.trim();
    let password = text("password")?;
    // A present e-mail must be a string like the other required members; an absent one is
    // tolerated unless `--require-email` (ASSUMPTIONS.md).
    let email = match obj.get("email") {
        None if !cfg.require_email => None,
        _ => Some(text("email")?.trim()),
    };
    // The platform's accounts refuse an address that is not one (Meteor's e-mail check): the
    // item fails as any other malformed member does (ASSUMPTIONS.md).
    if email.is_some_and(|e| !is_email(e)) {
        return Err(ST_NOT_ENOUGH);
    }
    for key in OPTIONAL_FIELDS {
        if !matches!(obj.get(key), None | Some(Value::Null | Value::String(_))) {
            return Err(ST_NOT_ENOUGH);
        }
    }
    if cfg.enforce_field_rules {
        let name_ok = name.chars().count() >= 3;
        let username_ok = (3..=20).contains(&username.len())
            && username.chars().all(|c| c.is_ascii_alphanumeric());
        let password_ok = (6..=35).contains(&password.chars().count());
        if !(name_ok && username_ok && password_ok) {
            return Err(ST_NOT_ENOUGH);
        }
    }
    let phone = obj
        .get("phone")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|p| !p.is_empty());
    Ok(NewAccount {
        name: name.to_string(),
        username: username.to_string(),
        password: password.to_string(),
        email: email.map(str::to_string),
        phone: phone.map(str::to_string),
    })
}

/// An e-mail address as the platform's account schema takes it (the shape of SimpleSchema's
/// `RegEx.Email`, without its character-class details): no whitespace or control character,
/// one `@` with a non-empty local part before it, and a domain of non-empty dot-separated labels
/// (at least two) whose last one has two letters or more.
pub(crate) fn is_email(e: &str) -> bool {
    if e.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let Some((local, domain)) = e.split_once('@') else {
        return false;
    };
    let labels: Vec<&str> = domain.split('.').collect();
    let tld = labels.last().copied().unwrap_or_default();
    !local.is_empty()
        && !domain.contains('@')
        && labels.len() >= 2
        && labels.iter().all(|l| !l.is_empty())
        && tld.chars().count() >= 2
        && tld.chars().all(char::is_alphabetic)
}

/// The item as an account to insert, or why it cannot be created: its fields, then e-mail in
/// use, then username in use (trimmed, ignoring case; earlier items of a batch already exist).
fn checked_item(cfg: &Config, inner: &Inner, item: &Value) -> Result<NewAccount, &'static str> {
    let new = parse_item(cfg, item)?;
    if let Some(email) = &new.email {
        if inner.accounts.iter().any(|a| a.email_matches(email)) {
            return Err(ST_EMAIL_USED);
        }
    }
    if inner
        .accounts
        .iter()
        .any(|a| a.username_matches(&new.username))
    {
        return Err(ST_USERNAME_USED);
    }
    Ok(new)
}

/// Inserts a new account; returns its id.
fn insert_account(inner: &mut Inner, new: NewAccount, now: i64) -> String {
    let id = inner.rng.meteor_id(17);
    let seq = inner.next_seq();
    let mut record = Map::new();
    record.insert("_id".into(), json!(id));
    record.insert("createdAt".into(), json!(iso(now)));
    record.insert("username".into(), json!(new.username));
    let emails = match new.email {
        Some(e) => json!([{"address": e, "verified": false}]),
        None => json!([]),
    };
    record.insert("emails".into(), emails);
    let mut profile = Map::new();
    profile.insert("name".into(), json!(new.name));
    if let Some(phone) = new.phone {
        profile.insert("phone".into(), json!(phone));
    }
    record.insert("profile".into(), Value::Object(profile));
    inner.accounts.push(Account {
        id: id.clone(),
        seq,
        created_ms: now,
        record,
        password: new.password,
        admin: false,
        for_seller: json!({"callDistrCoeff": 0, "getCall": false}),
    });
    id
}

/// The per-item result: the echo of the submitted string members (a member of another type is
/// not echoed: the contract types the echo as string), `userId`, `success` and `status`.
fn create_one(cfg: &Config, inner: &mut Inner, item: &Value, now: i64, item_error: bool) -> Value {
    let mut out = Map::new();
    for key in ["name", "username", "email", "password"] {
        if let Some(v @ Value::String(_)) = item.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    let outcome = match checked_item(cfg, inner, item) {
        Err(problem) => Err(problem),
        Ok(_) if item_error => Err(ST_SERVER_ERROR),
        Ok(new) => Ok(insert_account(inner, new, now)),
    };
    match outcome {
        Ok(id) => {
            out.insert("userId".into(), json!(id));
            out.insert("success".into(), json!(true));
            out.insert("status".into(), json!(ST_CREATED));
        }
        Err(status) => {
            out.insert("userId".into(), Value::Null);
            out.insert("success".into(), json!(false));
            out.insert("status".into(), json!(status));
        }
    }
    Value::Object(out)
}

// ---------------------------------------------------------------- create-single-user

const SINGLE_CREATE_AUTH: AuthCodes = AuthCodes {
    no_token: "04",
    auth_fail: "05",
    invalid: "06",
    invalid_msg: MSG_INVALID_TOKEN,
    no_permission: Some("07"),
};

pub async fn create_single(State(st): State<AppState>, ctx: Ctx) -> Reply<data::User> {
    ctx.require_method(Method::POST)?;
    let cfg = &st.cfg;
    let mut inner = st.lock();
    let body_checks = || -> Result<Value, ApiErr> {
        let body = ctx
            .body
            .clone()
            .ok_or_else(|| ApiErr::bad("02", "No request body"))?;
        if let Err(problem) = parse_item(cfg, &body) {
            return Err(ApiErr::bad("03", problem));
        }
        Ok(body)
    };
    let (caller, body) = checked(cfg, &inner, &ctx, &SINGLE_CREATE_AUTH, false, body_checks)?;
    // Logged once the token and permission checks pass (as login tokens are), even if 08-11 follow.
    let username = body.get("username").cloned().unwrap_or(Value::Null);
    let call = LoggedCall::now(&caller.token, ("username", username));
    inner.single_create_calls.push(call);
    match checked_item(cfg, &inner, &body) {
        Err(ST_EMAIL_USED) => return Err(ApiErr::bad("08", ST_EMAIL_USED).into()),
        Err(ST_USERNAME_USED) => return Err(ApiErr::bad("09", ST_USERNAME_USED).into()),
        Err(other) => return Err(ApiErr::bad("03", other).into()),
        Ok(_) => {}
    }
    if inner.accounts.len() >= inner.capacity {
        return Err(ApiErr::bad("10", "The number of accounts has run out").into());
    }
    if ctx.fault == Some(FaultKind::ItemError) {
        return Err(ApiErr::new(Class::Server, "11", ST_SERVER_ERROR).into());
    }
    let result = create_one(cfg, &mut inner, &body, now_ms(), false);
    Ok(success("user", result, ST_CREATED))
}

// ---------------------------------------------------------------- get-multi-user

const MULTI_AUTH: AuthCodes = AuthCodes {
    no_token: "02",
    auth_fail: "06",
    invalid: "07",
    invalid_msg: MSG_INVALID_TOKEN,
    no_permission: Some("08"),
};

pub async fn get_multi(State(st): State<AppState>, ctx: Ctx) -> Reply<data::Users> {
    ctx.require_method(Method::GET)?;
    let cfg = &st.cfg;
    let inner = st.lock();
    let (_, page) = checked(cfg, &inner, &ctx, &MULTI_AUTH, true, || {
        paging(&ctx, cfg.start_required, cfg.default_limit, 1, "05")
    })?;
    let users = page.of(inner.accounts_newest_first().into_iter().map(|a| &a.record));
    Ok(success("users", users, MSG_SUCCESS))
}

// ---------------------------------------------------------------- get-single-user

const SINGLE_AUTH: AuthCodes = AuthCodes {
    no_token: "03",
    auth_fail: "04",
    invalid: "05",
    invalid_msg: MSG_INVALID_TOKEN_BARS,
    no_permission: Some("06"),
};

/// The path segment after `marker`, percent-decoded; `None` when empty.
pub fn path_id(path: &str, marker: &str) -> Option<String> {
    let rest = path.split_once(marker)?.1;
    let rest = rest.trim_start_matches('/');
    let id = rest.split('/').next().unwrap_or("");
    if id.is_empty() {
        None
    } else {
        Some(crate::util::percent_decode(id, false))
    }
}

pub async fn get_single(State(st): State<AppState>, ctx: Ctx) -> Reply<data::User> {
    ctx.require_method(Method::GET)?;
    let cfg = &st.cfg;
    let inner = st.lock();
    let no_id = || ApiErr::bad("02", "No id");
    let (_, id) = checked(cfg, &inner, &ctx, &SINGLE_AUTH, false, || {
        path_id(&ctx.path, "get-single-user").ok_or_else(no_id)
    })?;
    let account = inner
        .account(&id)
        .ok_or_else(|| ApiErr::bad(&cfg.user_not_found_code, "User not found"))?;
    Ok(success(
        "user",
        Value::Object(account.record.clone()),
        MSG_SUCCESS,
    ))
}

// ---------------------------------------------------------------- get-me

const ME_AUTH: AuthCodes = AuthCodes {
    no_token: "02",
    auth_fail: "03",
    invalid: "04",
    invalid_msg: MSG_INVALID_TOKEN,
    no_permission: None,
};

pub async fn get_me(State(st): State<AppState>, ctx: Ctx) -> Reply<data::User> {
    ctx.require_method(Method::GET)?;
    let inner = st.lock();
    let caller = authenticate(&inner, &ctx, &ME_AUTH)?;
    let account = inner
        .account(&caller.account_id)
        .ok_or_else(|| ApiErr::new(Class::Auth, "03", crate::api::MSG_AUTH_FAIL))?;
    let mut record = account.record.clone();
    record.insert("forSeller".into(), account.for_seller.clone());
    record.insert("balance".into(), json!({}));
    Ok(success("user", Value::Object(record), MSG_SUCCESS))
}

// ---------------------------------------------------------------- search-user

const SEARCH_AUTH: AuthCodes = AuthCodes {
    no_token: "02",
    auth_fail: "04",
    invalid: "05",
    invalid_msg: MSG_INVALID_TOKEN,
    no_permission: Some("06"),
};

pub async fn search(State(st): State<AppState>, ctx: Ctx) -> Reply<data::User> {
    ctx.require_method(Method::GET)?;
    let cfg = &st.cfg;
    let inner = st.lock();
    let params = |ctx: &Ctx| -> Result<(), ApiErr> {
        if ctx.param("email").is_none() && ctx.param("username").is_none() {
            Err(ApiErr::bad("03", "No email or username parameter"))
        } else {
            Ok(())
        }
    };
    checked(cfg, &inner, &ctx, &SEARCH_AUTH, true, || params(&ctx))?;
    let by_email = ctx
        .param("email")
        .and_then(|e| inner.accounts.iter().find(|a| a.email_matches(e)));
    let found = by_email.or_else(|| {
        ctx.param("username")
            .and_then(|u| inner.accounts.iter().find(|a| a.username_matches(u)))
    });
    let account = found.ok_or_else(|| ApiErr::bad("07", "User not found"))?;
    Ok(success(
        "user",
        Value::Object(account.record.clone()),
        MSG_SUCCESS,
    ))
}
