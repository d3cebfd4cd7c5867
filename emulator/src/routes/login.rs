//! `POST users/login-user` (from the platform notes): e-mail and password to a token.

use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::response::Response;
use serde_json::json;

use super::str_field;
use crate::api::{json_response, respond, ApiErr, ApiResult, Class, Ctx};
use crate::state::{AppState, FaultKind, TokenInfo};
use crate::util::{iso, now_ms, DAY_MS};

pub async fn login(State(st): State<AppState>, req: Request) -> Response {
    let ctx = Ctx::from_request(req).await;
    let result = login_inner(&st, &ctx);
    respond(&st, None, result)
}

fn login_inner(st: &AppState, ctx: &Ctx) -> ApiResult {
    ctx.require_method(Method::POST)?;
    let body = ctx
        .body
        .as_ref()
        .ok_or_else(|| ApiErr::bad("02", "No request body"))?;
    let email =
        str_field(body, "email").ok_or_else(|| ApiErr::bad("03", "No email in request body"))?;
    let password = str_field(body, "password")
        .ok_or_else(|| ApiErr::bad("04", "No password in request body"))?;
    let mut inner = st.lock();
    let account = inner
        .accounts
        .iter()
        .find(|a| a.email_matches(email))
        .ok_or_else(|| ApiErr::bad("05", "Wrong email"))?;
    if ctx.fault == Some(FaultKind::AuthFail) {
        return Err(ApiErr::new(
            Class::Server,
            "06",
            "Server not able to check password",
        ));
    }
    if account.password != password {
        return Err(ApiErr::bad("07", "Wrong password"));
    }
    let account_id = account.id.clone();
    // The configured tokens for the admin and the no-permission account; a token
    // of its own (kept for later logins) for any other account.
    let existing = inner
        .tokens
        .iter()
        .filter(|(_, info)| info.account_id == account_id && !info.expired)
        .map(|(t, info)| (t.clone(), info.expires_ms))
        .find(|(t, _)| *t == st.cfg.admin_token || *t == st.cfg.user_token)
        .or_else(|| {
            inner
                .tokens
                .iter()
                .find(|(_, info)| info.account_id == account_id && !info.expired)
                .map(|(t, info)| (t.clone(), info.expires_ms))
        });
    let (token, expires) = match existing {
        Some(found) => found,
        None => {
            let token = inner.rng.token();
            let expires = now_ms() + 90 * DAY_MS;
            inner.tokens.insert(
                token.clone(),
                TokenInfo {
                    account_id,
                    expired: false,
                    expires_ms: expires,
                },
            );
            (token, expires)
        }
    };
    Ok(json_response(
        StatusCode::OK,
        &json!({"respCode": "00", "token": token, "tokenExpires": iso(expires), "msg": "login success"}),
    ))
}
