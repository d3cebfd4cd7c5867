//! Response decoding: status and body bytes to the endpoint's reply, or an [`Error`].
//!
//! The envelope first, whatever the HTTP status; the status only when the body is not an
//! envelope (the platform pairs errors with 4xx/5xx but the body carries the detail). The body is
//! checked by [`crate::check::envelope`] against the reply's description; the wasm build stops
//! there (JavaScript's `JSON.parse` builds the objects), the native API then decodes the typed
//! reply with serde, which the check guarantees to succeed.

use crate::check::{self, Envelope, Head, Tally};
use crate::codes::{self, Reason};
use crate::error::{excerpt, ApiError, DecodeError, Error, HttpError, EXCERPT_CHARS};
use crate::plan::Request;
use crate::reply::Reply;

/// A success envelope that fits its reply: the head and the counts derived from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// `respCode` and `msg`.
    pub head: Head,
    /// Counts over the per-item results.
    pub tally: Tally,
}

impl<R: Reply> Request<R> {
    /// Checks the response without building the reply: `Ok` when it is a success that fits the
    /// endpoint's reply type, else the error `decode` would give. Never panics.
    pub fn check(&self, status: u16, body: &[u8]) -> Result<Checked, Error> {
        let endpoint = self.endpoint();
        let decode_error = |m: check::Mismatch| {
            Error::Decode(DecodeError {
                endpoint,
                status,
                path: self.clean(&m.path),
                detail: self.clean(&m.detail),
            })
        };
        match check::envelope(body, R::SHAPE, R::accepts) {
            Envelope::Ok(head, tally) => Ok(Checked { head, tally }),
            Envelope::Mismatch(_, m) => Err(decode_error(m)),
            Envelope::NotEnvelope(m) if (200..300).contains(&status) => {
                Err(decode_error(check::Mismatch {
                    path: m.path,
                    detail: format_not_envelope(&m.detail),
                }))
            }
            Envelope::NotEnvelope(_) => {
                let text = String::from_utf8_lossy(body);
                Err(Error::Http(HttpError {
                    endpoint,
                    status,
                    excerpt: excerpt(&self.clean(text.trim()), EXCERPT_CHARS),
                }))
            }
            Envelope::Error(head) => {
                let info = codes::decode(endpoint, &head.code, &head.msg);
                let available_slots = match info.reason {
                    Reason::NotEnoughSlots => codes::available_slots(&head.msg),
                    _ => None,
                };
                Err(Error::Api(ApiError {
                    endpoint,
                    code: self.clean(&head.code),
                    msg: self.clean(&head.msg),
                    status,
                    reason: info.reason,
                    category: info.reason.category(),
                    basis: info.basis,
                    retryable: info.reason.retryable(),
                    explanation: info.reason.explanation(),
                    available_slots,
                }))
            }
        }
    }

    /// Decodes the response into the typed reply. Never panics.
    pub fn decode(&self, status: u16, body: &[u8]) -> Result<R, Error> {
        let checked = self.check(status, body)?;
        match serde_json::from_slice::<R>(body) {
            Ok(mut reply) => {
                reply.finish(&checked.head, checked.tally);
                Ok(reply)
            }
            // The check and serde disagree: a defect of ours, reported rather than hidden.
            Err(e) => Err(Error::Decode(DecodeError {
                endpoint: self.endpoint(),
                status,
                path: ".".into(),
                detail: self.clean(&e.to_string()),
            })),
        }
    }
}

fn format_not_envelope(detail: &str) -> String {
    let mut out = String::from("not an API envelope: ");
    out.push_str(detail);
    out
}
