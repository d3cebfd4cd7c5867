//! `GET /learner?login_token=<token>`: a stand-in for the learners' site, so that the dashboard's
//! "log in as" is testable end to end. A token from create-user-login-token signs in once (it is
//! used up); any other token, or none, is refused. Plain HTML, no script.

use axum::extract::State;
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use crate::state::AppState;

/// The page's icon, a data: URL (a rounded square, the dashboard's colour).
const ICON: &str = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='6' fill='%23143d6b'/%3E%3C/svg%3E";

/// `s` with the five characters HTML gives meaning to escaped (names are the users' own text).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The `login_token` of a query string (tokens are URL-safe; `+` and `%XX` are not expected).
fn login_token(uri: &Uri) -> Option<&str> {
    uri.query()?
        .split('&')
        .find_map(|kv| kv.strip_prefix("login_token="))
        .filter(|t| !t.is_empty())
}

pub async fn page(State(st): State<AppState>, uri: Uri) -> Response {
    let who = login_token(&uri).and_then(|token| {
        let mut inner = st.lock();
        let id = inner.login_tokens.remove(token)?;
        let a = inner.account(&id)?;
        let field = |k: &str| {
            a.record
                .get("profile")
                .and_then(|p| p.get(k))
                .or_else(|| a.record.get(k))
        };
        let name = field("name")
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string();
        let username = a
            .record
            .get("username")
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string();
        Some((name, username))
    });
    let (status, body) = match who {
        Some((name, username)) => (
            StatusCode::OK,
            format!(
                "<h1>Trang học viên</h1><p id=\"signed-in\">Đã đăng nhập: {} ({})</p>",
                escape(&name),
                escape(&username)
            ),
        ),
        None => (
            StatusCode::UNAUTHORIZED,
            "<h1>Trang học viên</h1><p id=\"refused\">Liên kết đăng nhập không hợp lệ hoặc đã được dùng.</p>".to_string(),
        ),
    };
    // The icon inline: without one a browser asks for /favicon.ico, a 404 in its console.
    let html = format!(
        "<!doctype html><html lang=\"vi\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Trang học viên (demo)</title><link rel=\"icon\" href=\"{ICON}\"></head><body><main>{body}</main></body></html>"
    );
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        html,
    )
        .into_response()
}
