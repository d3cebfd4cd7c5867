//! Failures of a call as plain data `{kind, message, data}`, which the package's JS turns into
//! instances of its error classes (`pkg-templates/errors.ts`). Every message is built here,
//! token-free; causes from the host (a fetch `TypeError`, an abort reason) are attached, scrubbed,
//! by the JS driver.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::endpoint::Endpoint;
use crate::error::{cat, Error, ErrorKind};
use crate::json::push_uint;

/// Why a call failed.
pub enum Failure {
    /// Planning or decoding failed (validation, API, HTTP, decode, config).
    Core(Error),
    /// fetch rejected: no connection, reset, CORS, a body cut off.
    Network { endpoint: Endpoint },
    /// The attempt took longer than `timeoutMs`.
    Timeout { endpoint: Endpoint, timeout_ms: f64 },
    /// The caller's AbortSignal fired.
    Abort { endpoint: Endpoint },
    /// The response body is larger than `maxResponseBytes` (by its Content-Length or as read).
    TooLarge {
        endpoint: Endpoint,
        max_response_bytes: f64,
    },
    /// A bulk create inside the contract's interval, or a login token inside the platform's.
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
    kind: ErrorKind,
    endpoint: Endpoint,
    #[serde(skip_serializing_if = "Option::is_none")]
    timeout_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_response_bytes: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_allowed_at: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wait_ms: Option<f64>,
}

impl HostData {
    fn new(kind: ErrorKind, endpoint: Endpoint) -> HostData {
        HostData {
            kind,
            endpoint,
            timeout_ms: None,
            max_response_bytes: None,
            next_allowed_at: None,
            wait_ms: None,
        }
    }
}

/// What crosses: the error class's kind, its message and its fields.
#[derive(Serialize)]
struct Thrown<'a, D: Serialize> {
    #[serde(rename = "lpmKind")]
    kind: ErrorKind,
    message: &'a str,
    data: &'a D,
}

/// The error's data as JSON text, which the package's `fromThrown` parses.
fn thrown<D: Serialize>(kind: ErrorKind, message: &str, data: &D) -> String {
    crate::json::ser::to_string(&Thrown {
        kind,
        message,
        data,
    })
}

fn with_number(parts: [&str; 2], n: u64, unit: &str) -> String {
    let mut m = cat(&parts);
    push_uint(&mut m, n);
    m.push_str(unit);
    m
}

impl Failure {
    /// The error's data, to throw to the JS driver (a string of JSON text). (`_secret` is unused:
    /// every text here is already token-free.)
    pub fn into_js(self, secret: Option<&str>) -> JsValue {
        JsValue::from_str(&self.into_json(secret))
    }

    /// The error's data as JSON text `{lpmKind, message, data}`.
    pub fn into_json(self, _secret: Option<&str>) -> String {
        match self {
            Failure::Core(e) => thrown(e.error_kind(), &e.message(), &e),
            Failure::Network { endpoint } => thrown(
                ErrorKind::Network,
                &cat(&[endpoint.key(), ": the request did not complete (network failure)"]),
                &HostData::new(ErrorKind::Network, endpoint),
            ),
            Failure::Timeout { endpoint, timeout_ms } => thrown(
                ErrorKind::Timeout,
                &with_number(
                    [endpoint.key(), ": no complete response within "],
                    timeout_ms as u64,
                    " ms",
                ),
                &HostData {
                    timeout_ms: Some(timeout_ms),
                    ..HostData::new(ErrorKind::Timeout, endpoint)
                },
            ),
            Failure::TooLarge {
                endpoint,
                max_response_bytes,
            } => thrown(
                ErrorKind::TooLarge,
                &with_number(
                    [endpoint.key(), ": the response is larger than maxResponseBytes ("],
                    max_response_bytes as u64,
                    " bytes) and was not read",
                ),
                &HostData {
                    max_response_bytes: Some(max_response_bytes),
                    ..HostData::new(ErrorKind::TooLarge, endpoint)
                },
            ),
            Failure::Abort { endpoint } => thrown(
                ErrorKind::Abort,
                &cat(&[endpoint.key(), ": the call was aborted"]),
                &HostData::new(ErrorKind::Abort, endpoint),
            ),
            Failure::Interval {
                endpoint,
                next_allowed_at,
                wait_ms,
            } => thrown(
                ErrorKind::Interval,
                &with_number(
                    [
                        endpoint.key(),
                        match endpoint {
                            Endpoint::CreateLoginToken => ": login tokens must be at least the platform's advised interval apart; the next is allowed in ",
                            _ => ": bulk creates must be at least the contract's interval apart; the next is allowed in ",
                        },
                    ],
                    (wait_ms / 1000.0).ceil() as u64,
                    " s",
                ),
                &HostData {
                    next_allowed_at: Some(next_allowed_at),
                    wait_ms: Some(wait_ms),
                    ..HostData::new(ErrorKind::Interval, endpoint)
                },
            ),
        }
    }
}
