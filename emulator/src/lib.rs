//! `lpm-emulator`: a local server of the learning-platform management API.
//!
//! [`app`] builds the router from an [`AppState`]; tests start it in-process on
//! port 0 with [`serve`]. The choices made where the contract says "not shown"
//! are listed in `ASSUMPTIONS.md` and switchable through [`Config`].

mod api;
pub mod cli;
pub mod config;
mod conn;
mod control;
mod faults;
mod routes;
mod seed;
mod state;
mod util;

use std::net::SocketAddr;

use axum::http::{header, HeaderValue, Method};
use axum::middleware::{from_fn_with_state, map_response};
use axum::response::Response;
use axum::routing::{any, get};
use axum::Router;
use tokio::net::TcpListener;
use tower_http::cors::{Any, CorsLayer};
use tower_http::services::ServeDir;

pub use config::{CheckOrder, Config, Seed, StatusMode};
pub use state::AppState;

use routes::{courses, login, users};

/// The whole emulator: `/manage/api/...`, `/_emulator/...`, CORS, and the
/// optional static folder at `/`.
pub fn app(state: AppState) -> Router {
    const API: &str = "/manage/api";
    let mut api = Router::new();
    for (path, handler) in [
        ("users/create-multi-user", any(users::create_multi)),
        ("users/create-single-user", any(users::create_single)),
        ("users/get-multi-user", any(users::get_multi)),
        ("users/get-me", any(users::get_me)),
        ("users/search-user", any(users::search)),
        ("users/login-user", any(login::login)),
        (
            "users/create-user-login-token",
            any(login::create_login_token),
        ),
        ("courses/get-multi-course", any(courses::get_multi)),
        ("courses/search-course", any(courses::search)),
        (
            "courses/add-multi-course-to-multi-user",
            any(courses::add_courses),
        ),
    ] {
        api = api.route(&format!("{API}/{path}"), handler);
    }
    // Both spellings of get-single-user; the id-less forms answer "No id".
    for group in ["user", "users"] {
        for suffix in ["", "/", "/{id}"] {
            api = api.route(
                &format!("{API}/{group}/get-single-user{suffix}"),
                any(users::get_single),
            );
        }
    }
    for suffix in ["", "/", "/{id}"] {
        api = api.route(
            &format!("{API}/courses/get-single-course{suffix}"),
            any(courses::get_single),
        );
    }
    let api = api
        .route(&format!("{API}/{{*rest}}"), any(api::unknown_endpoint))
        .route(API, any(api::unknown_endpoint))
        .layer(from_fn_with_state(state.clone(), api::error_status))
        .layer(from_fn_with_state(state.clone(), api::read_body))
        .layer(from_fn_with_state(state.clone(), faults::layer))
        .with_state(state.clone());

    let static_dir = state.cfg.static_dir.clone();
    let csp = state
        .cfg
        .static_csp
        .as_deref()
        .and_then(|p| HeaderValue::from_str(p).ok());
    let mut router = Router::new()
        .merge(api)
        .route(
            "/learner",
            get(routes::learner::page).with_state(state.clone()),
        )
        .nest("/_emulator", control::router(state));
    router = match static_dir {
        Some(dir) => {
            let files = Router::new().fallback_service(ServeDir::new(dir));
            let files = match csp {
                Some(policy) => files.layer(map_response(move |mut res: Response| {
                    let policy = policy.clone();
                    async move {
                        res.headers_mut()
                            .insert(header::CONTENT_SECURITY_POLICY, policy);
                        res
                    }
                })),
                None => files,
            };
            router.fallback_service(files)
        }
        None => router.fallback(api::unknown_endpoint),
    };
    router.layer(
        CorsLayer::new()
            .allow_origin(Any)
            .allow_methods([Method::GET, Method::POST, Method::DELETE, Method::OPTIONS])
            .allow_headers([header::CONTENT_TYPE])
            .expose_headers([header::RETRY_AFTER]),
    )
}

/// Binds `host:port` (port 0 picks a free one) and returns the listener and its address.
pub async fn bind(host: &str, port: u16) -> std::io::Result<(TcpListener, SocketAddr)> {
    let listener = TcpListener::bind((host, port)).await?;
    let addr = listener.local_addr()?;
    Ok((listener, addr))
}

/// Serves the emulator on an already bound listener until the task is dropped, with the
/// header-read timeout and connection limit of `state.cfg` (see `conn::serve`).
pub async fn serve(listener: TcpListener, state: AppState) -> std::io::Result<()> {
    let cfg = std::sync::Arc::clone(&state.cfg);
    conn::serve(listener, app(state), &cfg).await
}
