//! The endpoints from the platform notes that hand out tokens: `POST users/login-user` (e-mail
//! and password to an API token) and `POST users/create-user-login-token` (a one-time site login).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use serde_json::json;

use super::str_field;
use crate::api::{
    checked, data, json_response, ApiErr, AuthCodes, Class, Ctx, Reply, MSG_INVALID_TOKEN,
};
use crate::state::{AppState, FaultKind, LoggedCall, TokenInfo};
use crate::util::{iso, now_ms, DAY_MS};

pub async fn login(State(st): State<AppState>, ctx: Ctx) -> Reply<data::NoData> {
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
        return Err(ApiErr::new(Class::Server, "06", "Server not able to check password").into());
    }
    if account.password != password {
        return Err(ApiErr::bad("07", "Wrong password").into());
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

// ---------------------------------------------------------------- create-user-login-token

/// Codes chosen like create-single-user's: body checks (02, 03) number before the token's.
const LOGIN_TOKEN_AUTH: AuthCodes = AuthCodes {
    no_token: "04",
    auth_fail: "05",
    invalid: "06",
    invalid_msg: MSG_INVALID_TOKEN,
    no_permission: Some("07"),
};

/// How long a one-time login token is valid (not published; chosen: one day).
const LOGIN_TOKEN_DAYS: i64 = 1;

/// `POST users/create-user-login-token?token=<admin>` body `{userid}`: a one-time token for the
/// site's `?login_token=` (the emulator serves no site, so the token is accepted nowhere).
pub async fn create_login_token(State(st): State<AppState>, ctx: Ctx) -> Reply<data::NoData> {
    ctx.require_method(Method::POST)?;
    let mut inner = st.lock();
    let user_id = || -> Result<String, ApiErr> {
        let body = ctx
            .body
            .as_ref()
            .ok_or_else(|| ApiErr::bad("02", "No request body"))?;
        str_field(body, "userid")
            .map(str::to_string)
            .ok_or_else(|| ApiErr::bad("03", "No userid in request body"))
    };
    let (caller, user_id) = checked(&st.cfg, &inner, &ctx, &LOGIN_TOKEN_AUTH, false, user_id)?;
    let call = LoggedCall::now(&caller.token, ("userId", json!(user_id)));
    inner.login_token_calls.push(call);
    if inner.account(&user_id).is_none() {
        return Err(ApiErr::bad("08", "User not found").into());
    }
    let token = inner.rng.token();
    inner.login_tokens.insert(token.clone(), user_id.clone());
    let expires = now_ms() + LOGIN_TOKEN_DAYS * DAY_MS;
    Ok(json_response(
        StatusCode::OK,
        &json!({"respCode": "00", "token": token, "tokenExpires": iso(expires), "msg": "create login token success"}),
    ))
}
