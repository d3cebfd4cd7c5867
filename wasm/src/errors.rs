//! Failures of a call as plain data `{kind, message, data}`, which the package's JS turns into
//! instances of its error classes (`pkg-templates/errors.ts`). Every message is built here,
//! token-free; causes from the host (a fetch `TypeError`, an abort reason) are attached, scrubbed,
//! by the JS driver.

use lpm_client::endpoint::Endpoint;
use lpm_client::error::{Error, ErrorKind};
use lpm_client::json::push_uint;
use lpm_client::json::ser::Object;
use lpm_client::text::cat;

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

/// The data of a failure the host reports: `{kind, endpoint}` and the failure's numbers
/// (`timeoutMs`, ...; a number with an empty name is none), written by hand (serde's derive costs
/// the wasm more).
fn host_data(kind: ErrorKind, endpoint: Endpoint, numbers: [(&str, f64); 2]) -> String {
    let mut o = Object::new();
    o.str("kind", kind.as_str());
    o.str("endpoint", endpoint.key());
    for (name, value) in numbers {
        if !name.is_empty() {
            o.f64(name, value);
        }
    }
    o.end()
}

/// No number.
const NONE: (&str, f64) = ("", 0.0);

/// The error's data as JSON text `{lpmKind, message, data}`, which the package's `fromThrown`
/// parses (`data` is JSON text).
pub(crate) fn thrown(kind: ErrorKind, message: &str, data: &str) -> String {
    let mut o = Object::new();
    o.str("lpmKind", kind.as_str());
    o.str("message", message);
    o.json("data", data);
    o.end()
}

fn with_number(parts: [&str; 2], n: u64, unit: &str) -> String {
    let mut m = cat(&parts);
    push_uint(&mut m, n);
    m.push_str(unit);
    m
}

/// A `ConfigError`'s thrown data. The validators' wasm throws no other error, so it writes it
/// without the other errors' writers; the package's has those, and goes through them.
pub fn config(e: lpm_client::error::ConfigError) -> String {
    #[cfg(feature = "validate-only")]
    return thrown(ErrorKind::Config, &e.message(), &e.error_json());
    #[cfg(not(feature = "validate-only"))]
    Failure::Core(Error::Config(e)).into_json()
}

impl Failure {
    /// The error's data as JSON text `{lpmKind, message, data}`, which the JS driver throws
    /// (every text here is already token-free).
    pub fn into_json(self) -> String {
        match self {
            Failure::Core(e) => thrown(e.error_kind(), &e.message(), &e.to_json()),
            Failure::Network { endpoint } => thrown(
                ErrorKind::Network,
                &cat(&[endpoint.key(), ": the request did not complete (network failure)"]),
                &host_data(ErrorKind::Network, endpoint, [NONE, NONE]),
            ),
            Failure::Timeout { endpoint, timeout_ms } => thrown(
                ErrorKind::Timeout,
                &with_number(
                    [endpoint.key(), ": no complete response within "],
                    timeout_ms as u64,
                    " ms",
                ),
                &host_data(
                    ErrorKind::Timeout,
                    endpoint,
                    [("timeoutMs", timeout_ms), NONE],
                ),
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
                &host_data(
                    ErrorKind::TooLarge,
                    endpoint,
                    [("maxResponseBytes", max_response_bytes), NONE],
                ),
            ),
            Failure::Abort { endpoint } => thrown(
                ErrorKind::Abort,
                &cat(&[endpoint.key(), ": the call was aborted"]),
                &host_data(ErrorKind::Abort, endpoint, [NONE, NONE]),
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
                            Endpoint::CreateLoginToken | Endpoint::CreateUser => ": calls must be at least the platform's advised interval apart; the next is allowed in ",
                            _ => ": bulk creates must be at least the contract's interval apart; the next is allowed in ",
                        },
                    ],
                    (wait_ms / 1000.0).ceil() as u64,
                    " s",
                ),
                &host_data(
                    ErrorKind::Interval,
                    endpoint,
                    [("nextAllowedAt", next_allowed_at), ("waitMs", wait_ms)],
                ),
            ),
        }
    }
}
