//! Response decoding: status and body bytes to the endpoint's reply, or an [`Error`].
//!
//! The envelope first, whatever the HTTP status; the status only when the body is not an
//! envelope (the platform pairs errors with 4xx/5xx but the body carries the detail). The body is
//! checked by [`crate::check::envelope`] against the reply's description; the wasm build stops
//! there (JavaScript's `JSON.parse` builds the objects), the native API then decodes the typed
//! reply with serde, which the check guarantees to succeed.

use crate::check::{self, Envelope, Head, Tally};
use crate::error::{bounded, ApiError, DecodeError, DecodeProblem, Error, HttpError};
use crate::plan::Request;
use crate::reply::Reply;
pub use crate::reply::ReplyPlan;

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
        check_reply(&self.plan(), status, body, check::Utf8::of(body))
    }

    /// What decoding this request's reply needs, with the reply type erased.
    pub fn plan(&self) -> ReplyPlan<'_> {
        ReplyPlan {
            endpoint: self.endpoint(),
            secret: self.secret(),
            shape: R::SHAPE,
            accepts: R::accepts,
            derived: R::derived,
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
                detail: bounded(e.to_string().as_bytes(), self.secret()),
                problem: DecodeProblem::Shape,
            })),
        }
    }
}

/// Checks a response against a reply plan: `Ok` when it is a success that fits, else the error.
/// `utf8`: whether the body is UTF-8, as the caller found (`check::envelope_of`).
pub fn check_reply(
    p: &ReplyPlan<'_>,
    status: u16,
    body: &[u8],
    utf8: check::Utf8,
) -> Result<Checked, Error> {
    let endpoint = p.endpoint;
    let clean = |text: &str| bounded(text.as_bytes(), p.secret);
    let (m, problem) = match check::envelope_of(body, utf8, p.shape, p.accepts) {
        Envelope::Ok(head, tally) => return Ok(Checked { head, tally }),
        Envelope::Mismatch(_, m) => (m, DecodeProblem::Shape),
        Envelope::NotEnvelope(m) if (200..300).contains(&status) => (
            check::Mismatch {
                path: m.path,
                detail: crate::error::cat(&["not an API envelope: ", &m.detail]),
            },
            DecodeProblem::NotEnvelope,
        ),
        Envelope::NotEnvelope(_) => {
            return Err(Error::Http(HttpError {
                endpoint,
                status,
                excerpt: bounded(body.trim_ascii(), p.secret),
            }))
        }
        Envelope::Error(head) => {
            let table = crate::endpoint::table(endpoint);
            let e = ApiError::new(endpoint, table, &head.code, &head.msg, status, p.secret);
            return Err(Error::Api(e));
        }
    };
    Err(Error::Decode(DecodeError {
        endpoint,
        status,
        path: clean(&m.path),
        detail: clean(&m.detail),
        problem,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decode_error_says_what_kind_of_misfit_it_is() {
        let api = crate::Planner::new("https://x.example").unwrap();
        let req = api
            .with_token("t0k3n-0123")
            .unwrap()
            .get_users(0, 100)
            .unwrap();
        let problem = |status, body: &[u8]| match req.decode(status, body) {
            Err(Error::Decode(d)) => d.problem,
            other => panic!("{other:?}"),
        };
        // A web page served with 200 (a site's address given for the platform's).
        let page = b"<!DOCTYPE html><html><body>School</body></html>";
        assert_eq!(problem(200, page), DecodeProblem::NotEnvelope);
        let shape = br#"{"respCode":"00","users":5,"msg":"Success"}"#;
        assert_eq!(problem(200, shape), DecodeProblem::Shape);
    }
}
