//! Failures of a call, turned into instances of the package's JS error classes.
//!
//! The classes live in the package's `errors.js`; its entry registers a factory here at load
//! time (`__setErrorFactory`), so Rust can throw `ApiError`, `TimeoutError`, ... that callers test
//! with `instanceof`. Every message comes from a token-free Display, and causes from the host
//! (a fetch `TypeError`, an abort reason) are scrubbed of the token before they are attached.

use std::cell::RefCell;

use js_sys::Function;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::endpoint::Endpoint;
use crate::error::{redact, Error};
use crate::json::push_uint;

use super::convert::{get, to_js};

thread_local! {
    static FACTORY: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// Registers the function that builds error instances: `(kind, message, data, cause) => Error`.
#[wasm_bindgen(js_name = "__setErrorFactory", skip_typescript)]
pub fn set_error_factory(factory: Function) {
    FACTORY.with(|f| *f.borrow_mut() = Some(factory));
}

/// Why a call failed, beyond what the core can know.
pub enum Failure {
    /// Planning or decoding failed (validation, API, HTTP, decode, config).
    Core(Error),
    /// fetch rejected: no connection, reset, CORS, a body cut off.
    Network { endpoint: Endpoint, cause: JsValue },
    /// The attempt took longer than `timeoutMs`.
    Timeout {
        endpoint: Endpoint,
        timeout_ms: f64,
        cause: JsValue,
    },
    /// The caller's AbortSignal fired.
    Abort { endpoint: Endpoint, cause: JsValue },
    /// A bulk create inside the contract's interval.
    Interval {
        endpoint: Endpoint,
        next_allowed_at: f64,
        wait_ms: f64,
    },
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Core(e)
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HostData {
    kind: &'static str,
    endpoint: Endpoint,
    #[serde(skip_serializing_if = "Option::is_none")]
    timeout_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_allowed_at: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wait_ms: Option<f64>,
}

impl HostData {
    fn new(kind: &'static str, endpoint: Endpoint) -> HostData {
        HostData {
            kind,
            endpoint,
            timeout_ms: None,
            next_allowed_at: None,
            wait_ms: None,
        }
    }
}

/// How deep a chain of `cause`s is copied.
const CAUSE_DEPTH: u32 = 3;

/// A clean copy of an error from the host (fetch, a custom fetch, a proxy): only its `name`,
/// redacted `message` and string `code` (`ECONNREFUSED`), and its own `cause` copied the same way.
/// Other properties (`url`, `config`, `request` of some HTTP libraries) may hold the URL with the
/// token, so they are never attached. Without a token the original is kept as is.
fn clean_host_error(cause: JsValue, secret: Option<&str>, depth: u32) -> JsValue {
    let Some(secret) = secret else { return cause };
    if cause.is_undefined() || cause.is_null() {
        return cause;
    }
    if let Some(s) = cause.as_string() {
        return JsValue::from_str(&redact(&s, Some(secret)));
    }
    let text = |key| {
        get(&cause, key)
            .as_string()
            .map(|s| redact(&s, Some(secret)))
    };
    let message = text("message").unwrap_or_else(|| "host error".to_owned());
    let clean = js_sys::Error::new(&message);
    if let Some(name) = text("name") {
        clean.set_name(&name);
    }
    if let Some(code) = text("code") {
        let _ = js_sys::Reflect::set(&clean, &"code".into(), &code.into());
    }
    let inner = get(&cause, "cause");
    if depth > 1 && !inner.is_undefined() {
        let _ = js_sys::Reflect::set(
            &clean,
            &"cause".into(),
            &clean_host_error(inner, Some(secret), depth - 1),
        );
    }
    clean.into()
}

/// The caller's own abort reason is kept as it is (callers compare it), unless its message or
/// stack shows the token.
fn scrub_reason(reason: JsValue, secret: Option<&str>) -> JsValue {
    let shows = |key| {
        get(&reason, key)
            .as_string()
            .is_some_and(|s| redact(&s, secret) != s)
    };
    let leaks = reason.as_string().is_some_and(|s| redact(&s, secret) != s)
        || shows("message")
        || shows("stack");
    if leaks {
        clean_host_error(reason, secret, CAUSE_DEPTH)
    } else {
        reason
    }
}

impl Failure {
    /// The JS error to throw. `secret` is the token, used only to scrub host causes.
    pub fn into_js(self, secret: Option<&str>) -> JsValue {
        let (kind, message, data, cause) = match self {
            Failure::Core(e) => (e.kind(), e.message(), to_js(&e), JsValue::UNDEFINED),
            Failure::Network { endpoint, cause } => (
                "network",
                [
                    endpoint.key(),
                    ": the request did not complete (network failure)",
                ]
                .concat(),
                to_js(&HostData::new("network", endpoint)),
                clean_host_error(cause, secret, CAUSE_DEPTH),
            ),
            Failure::Timeout {
                endpoint,
                timeout_ms,
                cause,
            } => (
                "timeout",
                {
                    let mut m = [endpoint.key(), ": no complete response within "].concat();
                    push_uint(&mut m, timeout_ms as u64);
                    m + " ms"
                },
                to_js(&HostData {
                    timeout_ms: Some(timeout_ms),
                    ..HostData::new("timeout", endpoint)
                }),
                clean_host_error(cause, secret, CAUSE_DEPTH),
            ),
            Failure::Abort { endpoint, cause } => (
                "abort",
                [endpoint.key(), ": the call was aborted"].concat(),
                to_js(&HostData::new("abort", endpoint)),
                scrub_reason(cause, secret),
            ),
            Failure::Interval {
                endpoint,
                next_allowed_at,
                wait_ms,
            } => (
                "interval",
                {
                    let mut m = [endpoint.key(), ": bulk creates must be at least the contract's interval apart; the next is allowed in "].concat();
                    push_uint(&mut m, (wait_ms / 1000.0).ceil() as u64);
                    m + " s"
                },
                to_js(&HostData {
                    next_allowed_at: Some(next_allowed_at),
                    wait_ms: Some(wait_ms),
                    ..HostData::new("interval", endpoint)
                }),
                JsValue::UNDEFINED,
            ),
        };
        let built = FACTORY.with(|f| {
            f.borrow().as_ref().and_then(|factory| {
                factory
                    .call4(
                        &JsValue::NULL,
                        &kind.into(),
                        &message.as_str().into(),
                        &data,
                        &cause,
                    )
                    .ok()
            })
        });
        built.unwrap_or_else(|| {
            let e = js_sys::Error::new(&message);
            let _ = js_sys::Reflect::set(&e, &"kind".into(), &kind.into());
            e.into()
        })
    }
}
