//! The control API under `/_emulator/`: reset, capacity, faults, call logs, state.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::{any, get, post};
use axum::Router;
use serde_json::{json, Value};

use crate::api::json_response;
use crate::config::Seed;
use crate::faults::{redirect_to, DEFAULT_HUGE_BYTES, REDIRECTS};
use crate::state::{AppState, Fault, FaultKind, LoggedCall};
use crate::util::{iso, parse_query};

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/reset", post(reset))
        .route("/capacity", post(capacity))
        .route(
            "/faults",
            get(list_faults).post(add_fault).delete(clear_faults),
        )
        .route("/create-calls", get(create_calls))
        .route("/login-token-calls", get(login_token_calls))
        .route("/single-create-calls", get(single_create_calls))
        .route("/state", get(state_report))
        .route("/redirect-loop", any(redirect_loop))
        .with_state(state)
}

fn bad(msg: &str) -> Response {
    json_response(StatusCode::BAD_REQUEST, &json!({"ok": false, "error": msg}))
}

fn ok(v: Value) -> Response {
    json_response(StatusCode::OK, &v)
}

fn body_json(body: &Bytes) -> Result<Value, Box<Response>> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    serde_json::from_slice(body).map_err(|_| Box::new(bad("body is not JSON")))
}

async fn reset(State(st): State<AppState>, body: Bytes) -> Response {
    let v = match body_json(&body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    let seed = match v.get("seed").and_then(Value::as_str) {
        None => st.cfg.seed,
        Some(s) => match Seed::parse(s) {
            Some(seed) => seed,
            None => return bad("seed must be \"demo\" or \"empty\""),
        },
    };
    st.reset(seed);
    state_counts(State(st)).await
}

async fn capacity(State(st): State<AppState>, body: Bytes) -> Response {
    let v = match body_json(&body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    let Some(n) = v.get("capacity").and_then(Value::as_u64) else {
        return bad("capacity must be a non-negative integer");
    };
    st.lock().capacity = usize::try_from(n).unwrap_or(usize::MAX);
    state_counts(State(st)).await
}

fn fault_json(f: &Fault) -> Value {
    json!({
        "endpoint": f.endpoint,
        "remaining": f.remaining,
        "kind": format!("{:?}", f.kind).to_lowercase(),
    })
}

/// Where the `redirect` fault sends a request: a redirect (302) to itself, query kept, for ever.
async fn redirect_loop(uri: Uri) -> Response {
    redirect_to(StatusCode::FOUND, "/_emulator/redirect-loop", uri.query())
}

async fn list_faults(State(st): State<AppState>) -> Response {
    let inner = st.lock();
    let faults: Vec<Value> = inner.faults.iter().map(fault_json).collect();
    ok(json!({"faults": faults}))
}

async fn add_fault(State(st): State<AppState>, body: Bytes) -> Response {
    let v = match body_json(&body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    let Some(endpoint) = v.get("endpoint").and_then(Value::as_str) else {
        return bad("endpoint is required (e.g. \"get-multi-user\")");
    };
    let Some(kind) = v
        .get("kind")
        .and_then(Value::as_str)
        .and_then(FaultKind::parse)
    else {
        return bad("kind must be one of delay, html500, truncated, close, drop, reset, stallbody, huge, badutf8, redirect, status, respcode, authfail, resourcefail, itemerror, samepage, overlap");
    };
    let count = v.get("count").and_then(Value::as_u64).unwrap_or(1);
    let status = v
        .get("status")
        .and_then(Value::as_u64)
        .and_then(|s| u16::try_from(s).ok())
        .filter(|s| (100..=999).contains(s));
    if kind == FaultKind::Status && status.is_none() {
        return bad("kind \"status\" needs \"status\" (100..999)");
    }
    if kind == FaultKind::Redirect && !status.is_none_or(|s| REDIRECTS.contains(&s)) {
        return bad("kind \"redirect\": status 301, 302, 303, 307 or 308 (default 302)");
    }
    let fault = Fault {
        endpoint: endpoint.to_string(),
        remaining: u32::try_from(count).unwrap_or(u32::MAX),
        kind,
        delay_ms: v.get("delayMs").and_then(Value::as_u64).unwrap_or(1000),
        status,
        retry_after: v.get("retryAfter").and_then(Value::as_u64),
        resp_code: v.get("respCode").cloned().unwrap_or_else(|| json!("99")),
        msg: v
            .get("msg")
            .and_then(Value::as_str)
            .unwrap_or("Injected fault")
            .to_string(),
        bytes: v
            .get("bytes")
            .and_then(Value::as_u64)
            .unwrap_or(DEFAULT_HUGE_BYTES),
        chunked: v.get("chunked").and_then(Value::as_bool).unwrap_or(false),
        back: v.get("back").and_then(Value::as_u64).unwrap_or(50),
    };
    let mut inner = st.lock();
    if fault.remaining > 0 {
        inner.faults.push(fault);
    }
    let faults: Vec<Value> = inner.faults.iter().map(fault_json).collect();
    ok(json!({"ok": true, "faults": faults}))
}

async fn clear_faults(State(st): State<AppState>) -> Response {
    st.lock().faults.clear();
    ok(json!({"ok": true, "faults": []}))
}

/// The calls of a spaced endpoint and the pairs of consecutive calls closer than `interval_ms`:
/// `{"calls":[{"at","token",<detail>}],"violations":[{"previous","at","gapMs"}]}`.
fn call_log(calls: &[LoggedCall], interval_ms: i64) -> Value {
    let listed: Vec<Value> = calls
        .iter()
        .map(|c| {
            let mut m = serde_json::Map::new();
            m.insert("at".into(), json!(iso(c.at_ms)));
            m.insert(c.detail.0.into(), c.detail.1.clone());
            m.insert("token".into(), json!(c.token_prefix));
            Value::Object(m)
        })
        .collect();
    let violations: Vec<Value> = calls
        .windows(2)
        .filter_map(|w| {
            let gap = w[1].at_ms - w[0].at_ms;
            (gap < interval_ms)
                .then(|| json!({"previous": iso(w[0].at_ms), "at": iso(w[1].at_ms), "gapMs": gap}))
        })
        .collect();
    json!({"calls": listed, "violations": violations})
}

async fn create_calls(State(st): State<AppState>) -> Response {
    let secs = st.cfg.create_interval_secs;
    let mut log = call_log(&st.lock().create_calls, secs as i64 * 1000);
    log["intervalSecs"] = json!(secs);
    ok(log)
}

async fn login_token_calls(State(st): State<AppState>) -> Response {
    let ms = st.cfg.login_token_interval_ms;
    let mut log = call_log(&st.lock().login_token_calls, ms as i64);
    log["intervalMs"] = json!(ms);
    ok(log)
}

async fn single_create_calls(State(st): State<AppState>) -> Response {
    let ms = st.cfg.single_create_interval_ms;
    let mut log = call_log(&st.lock().single_create_calls, ms as i64);
    log["intervalMs"] = json!(ms);
    ok(log)
}

/// The counts; with `?records=1` (or `true`) also `records: {users, courses}`, every record as
/// the list endpoints serve it, in their order.
async fn state_report(State(st): State<AppState>, uri: Uri) -> Response {
    let mut v = counts(&st);
    if parse_query(uri.query())
        .get("records")
        .is_some_and(|r| r == "1" || r == "true")
    {
        let inner = st.lock();
        let users: Vec<Value> = inner
            .accounts_newest_first()
            .into_iter()
            .map(|a| Value::Object(a.record.clone()))
            .collect();
        let courses: Vec<Value> = inner
            .courses_newest_first()
            .into_iter()
            .map(|c| Value::Object(c.record.clone()))
            .collect();
        v["records"] = json!({"users": users, "courses": courses});
    }
    ok(v)
}

async fn state_counts(State(st): State<AppState>) -> Response {
    ok(counts(&st))
}

fn counts(st: &AppState) -> Value {
    let inner = st.lock();
    let enrolments: usize = inner
        .accounts
        .iter()
        .filter_map(|a| a.record.get("myCourses").and_then(Value::as_array))
        .map(Vec::len)
        .sum();
    json!({
        "accounts": inner.accounts.len(),
        "courses": inner.courses.len(),
        "capacity": inner.capacity,
        "enrolments": enrolments,
        "faults": inner.faults.len(),
        "createCalls": inner.create_calls.len(),
        "loginTokenCalls": inner.login_token_calls.len(),
        "singleCreateCalls": inner.single_create_calls.len(),
    })
}
