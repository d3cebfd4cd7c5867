//! Fault injection: a middleware in front of every `/manage/api` endpoint that
//! consumes the next pending fault of that endpoint (see `control.rs`).

use std::sync::Arc;
use std::time::Duration;

use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use futures_util::stream::{self, StreamExt};
use serde_json::json;

use crate::api::json_response;
use crate::conn::ConnControl;
use crate::state::{AppState, FaultKind};

/// `create-multi-user` for `/manage/api/users/create-multi-user`, `get-single-user`
/// for `/manage/api/user/get-single-user/<id>`.
pub fn endpoint_name(path: &str) -> Option<String> {
    let rest = path.strip_prefix("/manage/api/")?;
    let mut segs = rest.split('/');
    let _group = segs.next()?;
    segs.next().filter(|s| !s.is_empty()).map(str::to_string)
}

const RESPONSE_LIMIT: usize = 64 * 1024 * 1024;

/// The redirect statuses the `redirect` fault may use.
pub const REDIRECTS: [u16; 5] = [301, 302, 303, 307, 308];

/// Size of a `huge` body when the fault does not say (16 MiB).
pub const DEFAULT_HUGE_BYTES: u64 = 16 * 1024 * 1024;

/// Where a served envelope's `msg` value starts (serde_json writes no spaces).
const MSG_START: &[u8] = b"\"msg\":\"";

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// An empty answer with `status` and `Location: path?query`.
pub fn redirect_to(status: StatusCode, path: &str, query: Option<&str>) -> Response {
    let location = match query {
        Some(q) => format!("{path}?{q}"),
        None => path.to_string(),
    };
    let mut resp = Response::new(Body::empty());
    *resp.status_mut() = status;
    if let Ok(v) = HeaderValue::from_str(&location) {
        resp.headers_mut().insert(header::LOCATION, v);
    }
    resp
}

/// The answer in `bytes` with its `msg` replaced by `x`s so the body is `size` bytes (at least
/// the envelope without the padding), streamed in 64 KiB pieces; with Content-Length unless
/// `chunked`.
fn huge(
    mut parts: axum::http::response::Parts,
    bytes: &[u8],
    size: u64,
    chunked: bool,
) -> Response {
    static PAD: [u8; 64 * 1024] = [b'x'; 64 * 1024];
    let mut envelope: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(bytes).unwrap_or_default();
    envelope.remove("msg");
    let mut head = serde_json::to_vec(&envelope).unwrap_or_else(|_| b"{}".to_vec());
    head.pop(); // the closing brace
    if !envelope.is_empty() {
        head.push(b',');
    }
    head.extend_from_slice(MSG_START);
    let tail: &[u8] = b"\"}";
    let fixed = (head.len() + tail.len()) as u64;
    let mut pad = size.saturating_sub(fixed);
    let total = fixed + pad;
    let pieces = std::iter::from_fn(move || {
        let n = pad.min(PAD.len() as u64) as usize;
        pad -= n as u64;
        (n > 0).then(|| Bytes::from_static(&PAD[..n]))
    });
    let body = std::iter::once(Bytes::from(head))
        .chain(pieces)
        .chain(std::iter::once(Bytes::from_static(tail)))
        .map(Ok::<Bytes, std::io::Error>);
    parts.headers.remove(header::CONTENT_LENGTH);
    if !chunked {
        parts
            .headers
            .insert(header::CONTENT_LENGTH, HeaderValue::from(total));
    }
    Response::from_parts(parts, Body::from_stream(stream::iter(body)))
}

async fn buffered(resp: Response) -> (axum::http::response::Parts, Bytes) {
    let (parts, body) = resp.into_parts();
    let bytes = to_bytes(body, RESPONSE_LIMIT).await.unwrap_or_default();
    (parts, bytes)
}

/// The `start` a query asks for (0 when absent or not a number).
fn query_start(query: &str) -> u64 {
    query
        .split('&')
        .find_map(|p| p.strip_prefix("start="))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// `uri` with its query's `start` set to `start`.
fn with_start(uri: &axum::http::Uri, start: u64) -> Option<axum::http::Uri> {
    let query: Vec<String> = uri
        .query()
        .unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("start="))
        .map(str::to_string)
        .chain(std::iter::once(format!("start={start}")))
        .collect();
    format!("{}?{}", uri.path(), query.join("&")).parse().ok()
}

pub async fn layer(State(st): State<AppState>, mut req: Request, next: Next) -> Response {
    if req.method() == Method::OPTIONS {
        return next.run(req).await;
    }
    let fault = endpoint_name(req.uri().path()).and_then(|e| st.lock().take_fault(&e));
    let Some(fault) = fault else {
        return next.run(req).await;
    };
    match fault.kind {
        FaultKind::Delay => {
            tokio::time::sleep(Duration::from_millis(fault.delay_ms)).await;
            next.run(req).await
        }
        FaultKind::Html500 => {
            let mut resp = Response::new(Body::from(
                "<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head>\
                 <body><h1>Internal Server Error</h1><p>The server encountered an error.</p></body></html>",
            ));
            *resp.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
            resp.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            );
            resp
        }
        FaultKind::Truncated => {
            let (mut parts, bytes) = buffered(next.run(req).await).await;
            parts.headers.remove(header::CONTENT_LENGTH);
            let cut = bytes.slice(0..bytes.len() / 2);
            Response::from_parts(parts, Body::from(cut))
        }
        FaultKind::Close => {
            let (mut parts, bytes) = buffered(next.run(req).await).await;
            let full = bytes.len().max(2);
            parts
                .headers
                .insert(header::CONTENT_LENGTH, HeaderValue::from(full));
            let half = bytes.slice(0..bytes.len() / 2);
            // The first half goes out with the headers; a moment later the body
            // fails and hyper drops the connection short of Content-Length.
            let first = stream::once(async move { Ok::<Bytes, std::io::Error>(half) });
            let fail = stream::once(async {
                tokio::time::sleep(Duration::from_millis(50)).await;
                Err(std::io::Error::new(
                    std::io::ErrorKind::ConnectionAborted,
                    "emulator fault: connection closed mid-response",
                ))
            });
            Response::from_parts(parts, Body::from_stream(first.chain(fail)))
        }
        FaultKind::Status => {
            let mut resp = next.run(req).await;
            if let Some(status) = fault.status.and_then(|s| StatusCode::from_u16(s).ok()) {
                *resp.status_mut() = status;
                if matches!(status.as_u16(), 204 | 304) {
                    // Bodyless statuses: no body, nor headers that describe one.
                    let (mut parts, _) = resp.into_parts();
                    parts.headers.remove(header::CONTENT_TYPE);
                    parts.headers.remove(header::CONTENT_LENGTH);
                    resp = Response::from_parts(parts, Body::empty());
                }
            }
            if let Some(secs) = fault.retry_after {
                resp.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(secs));
            }
            resp
        }
        FaultKind::RespCode => {
            let status = fault
                .status
                .and_then(|s| StatusCode::from_u16(s).ok())
                .unwrap_or(StatusCode::OK);
            json_response(
                status,
                &json!({"respCode": fault.resp_code, "msg": fault.msg}),
            )
        }
        FaultKind::StallBody => {
            let (mut parts, bytes) = buffered(next.run(req).await).await;
            parts
                .headers
                .insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
            let first = bytes.slice(0..bytes.len() / 2);
            let rest = bytes.slice(bytes.len() / 2..);
            let delay = Duration::from_millis(fault.delay_ms);
            let body = stream::once(async move { Ok::<Bytes, std::io::Error>(first) }).chain(
                stream::once(async move {
                    tokio::time::sleep(delay).await;
                    Ok(rest)
                }),
            );
            Response::from_parts(parts, Body::from_stream(body))
        }
        FaultKind::Huge => {
            let (parts, bytes) = buffered(next.run(req).await).await;
            huge(parts, &bytes, fault.bytes, fault.chunked)
        }
        FaultKind::BadUtf8 => {
            let (mut parts, bytes) = buffered(next.run(req).await).await;
            let at = find(&bytes, MSG_START).map_or(0, |i| i + MSG_START.len());
            let mut out = Vec::with_capacity(bytes.len() + 2);
            out.extend_from_slice(&bytes[..at]);
            out.extend_from_slice(&[0xFF, 0xFE]);
            out.extend_from_slice(&bytes[at..]);
            parts
                .headers
                .insert(header::CONTENT_LENGTH, HeaderValue::from(out.len()));
            Response::from_parts(parts, Body::from(out))
        }
        FaultKind::Redirect => {
            let status = fault
                .status
                .and_then(|s| StatusCode::from_u16(s).ok())
                .unwrap_or(StatusCode::FOUND);
            redirect_to(status, "/_emulator/redirect-loop", req.uri().query())
        }
        FaultKind::Drop | FaultKind::Reset => {
            let ctl = req.extensions().get::<Arc<ConnControl>>().cloned();
            let reset = fault.kind == FaultKind::Reset;
            if !reset {
                drop(next.run(req).await);
            }
            match ctl {
                Some(ctl) => {
                    ctl.close(reset);
                    // The connection task drops this future with the connection.
                    std::future::pending().await
                }
                // Served without `conn::serve`: a body that fails at once ends the connection.
                None => Response::new(Body::from_stream(stream::once(async {
                    Err::<Bytes, _>(std::io::Error::from(std::io::ErrorKind::ConnectionAborted))
                }))),
            }
        }
        FaultKind::SamePage | FaultKind::Overlap => {
            let asked = req.uri().query().map_or(0, query_start);
            let start = match fault.kind {
                FaultKind::SamePage => 0,
                _ => asked.saturating_sub(fault.back),
            };
            if let Some(uri) = with_start(req.uri(), start) {
                *req.uri_mut() = uri;
            }
            next.run(req).await
        }
        FaultKind::AuthFail | FaultKind::ResourceFail | FaultKind::ItemError => {
            req.extensions_mut().insert(fault.kind);
            next.run(req).await
        }
    }
}
