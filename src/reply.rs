//! What each endpoint answers on success: the decoded record(s) plus the envelope's `msg`.

use serde::{Deserialize, Serialize};

use crate::check::{Described, Head, Shape, Tally, Ty};
use crate::model::{Course, Timestamp, Unpublished, User};

// The replies of one endpoint are in its module (`src/endpoint/`, above: the crate's root exports
// them); these are shared, or (`RawReply`) the envelope of any endpoint whose answer is
// unpublished.

/// A success body of one endpoint.
pub trait Reply: for<'de> Deserialize<'de> + Described {
    /// The reply's description, checked by the decoder's gate.
    const SHAPE: &'static Shape = match Self::TY {
        Ty::Obj(shape) => shape,
        _ => panic!("a reply is an object"),
    };
    /// Fills what is derived from the checked envelope (its head and the tally of per-item
    /// results), once, after decoding.
    fn finish(&mut self, _head: &Head, _tally: Tally) {}
    /// The derived fields as JSON text, for callers that keep the body as received (the wasm
    /// layer hands JS the parsed body plus these).
    fn derived(_head: &Head, _tally: Tally) -> Option<String> {
        None
    }
    /// Whether `code` is a success for this endpoint (besides `00`).
    fn accepts(code: &str) -> bool {
        code == "00"
    }
}

/// A reply's decoding with its type erased: one copy of the checking code serves every endpoint
/// (a generic copy per reply type would each bring the wasm its own).
#[derive(Clone, Copy)]
pub struct ReplyPlan<'a> {
    /// The endpoint.
    pub endpoint: crate::registry::Endpoint,
    /// The token, to redact from anything taken from the response.
    pub secret: Option<&'a str>,
    /// The reply's description.
    pub shape: &'static crate::check::Shape,
    /// Which codes are a success.
    pub accepts: fn(&str) -> bool,
    /// The derived fields as JSON text.
    pub derived: fn(&Head, Tally) -> Option<String>,
}

/// One account (get-single-user, get-me, search-user).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct UserReply {
    /// The account.
    pub user: User,
    /// The envelope's msg.
    #[serde(default)]
    pub msg: String,
}
impl Reply for UserReply {}

/// Courses (get-multi-course, search-course).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct CourseList {
    /// The courses.
    pub courses: Vec<Course>,
    /// The envelope's msg.
    #[serde(default)]
    pub msg: String,
}
impl Reply for CourseList {}

/// A token from login-user (an API token) or create-user-login-token (a one-time site login).
#[derive(Clone, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct LoginReply {
    /// The API token.
    pub token: String,
    /// When it expires.
    pub token_expires: Timestamp,
    /// The envelope's msg.
    #[serde(default)]
    pub msg: String,
}
impl Reply for LoginReply {}

impl core::fmt::Debug for LoginReply {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("LoginReply")
            .field("token", &"<redacted>")
            .field("token_expires", &self.token_expires)
            .field("msg", &self.msg)
            .finish()
    }
}

/// create-user-login-token's reply (platform notes): a one-time site login token for the
/// account (`<site>?login_token=<token>`), its expiry and the msg (`create login token success`).
/// Same shape as login-user's; the token logs in as that account, so it is never shown either.
pub type LoginTokenReply = LoginReply;

/// The decoded envelope of an endpoint whose response is unpublished (create-single-user):
/// `respCode`, `msg`, and every other key as received.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct RawReply {
    /// `respCode`.
    pub resp_code: String,
    /// `msg`.
    #[serde(default)]
    pub msg: String,
    /// Every other key of the envelope. Decision: typed as an index signature in TypeScript
    /// (unlike a record's extra keys): they are all the platform sends here, none published.
    #[serde(flatten)]
    pub data: Unpublished,
}
impl Reply for RawReply {}
