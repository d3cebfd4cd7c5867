//! What each endpoint answers on success: the decoded record(s) plus the envelope's `msg`.

use serde::{Deserialize, Serialize};

use crate::check::{Described, Head, Shape, Tally, Ty};
use crate::codes::{add_courses_counts, create_counts, MsgCounts};
use crate::model::{AddCourseOutcome, Course, CreatedUser, Extra, Timestamp, User, ValidCourse};

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

/// A page of accounts (get-multi-user).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct UserList {
    /// The accounts.
    pub users: Vec<User>,
    /// The envelope's msg.
    #[serde(default)]
    pub msg: String,
}
impl Reply for UserList {}

/// One account (get-single-user, get-me, search-user).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct UserReply {
    /// The account.
    pub user: User,
    /// The envelope's msg.
    #[serde(default)]
    pub msg: String,
}
impl Reply for UserReply {}

/// One course (get-single-course).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct CourseReply {
    /// The course.
    pub course: Course,
    /// The envelope's msg.
    #[serde(default)]
    pub msg: String,
}
impl Reply for CourseReply {}

/// Courses (get-multi-course, search-course).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct CourseList {
    /// The courses.
    pub courses: Vec<Course>,
    /// The envelope's msg.
    #[serde(default)]
    pub msg: String,
}
impl Reply for CourseList {}

/// Outcome of create-multi-user: code `00` (some created) or `13` (none created), with one
/// result per submitted item in `users`. The items are the truth; `msgCounts` is what the msg
/// says, and a msg that disagrees with the items is not an error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CreateUsersReply {
    /// One result per submitted item, in order.
    pub users: Vec<CreatedUser>,
    /// The envelope's msg (`<n> success, <m> error`).
    #[serde(default)]
    pub msg: String,
    /// What the core derives from the items and the msg (written flat, beside `users`).
    #[serde(flatten, skip_deserializing)]
    pub counts: CreateCounts,
}

// One definition of the derived fields: the typed reply's (its `counts`), the JSON the wasm hands
// JS, and (through tsify, merged into the reply's interface below) their TypeScript.
/// The fields the core derives onto a create reply, from its items and its msg.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CreateCounts {
    /// "00", or "13" when no item could be created.
    #[cfg_attr(target_arch = "wasm32", tsify(type = r#""00" | "13" | (string & {})"#))]
    pub resp_code: String,
    /// Items created, counted from the items.
    pub created: u32,
    /// Items that failed, counted from the items.
    pub failed: u32,
    /// The counts the msg states; null when it could not be read.
    #[cfg_attr(target_arch = "wasm32", tsify(type = "MsgCounts | null"))]
    pub msg_counts: Option<MsgCounts>,
}

impl CreateCounts {
    fn of(head: &Head, tally: Tally) -> CreateCounts {
        CreateCounts {
            resp_code: head.code.clone(),
            created: tally.trues,
            failed: tally.items.saturating_sub(tally.trues),
            msg_counts: create_counts(&head.msg),
        }
    }
}

impl Reply for CreateUsersReply {
    fn finish(&mut self, head: &Head, tally: Tally) {
        self.counts = CreateCounts::of(head, tally);
    }
    fn accepts(code: &str) -> bool {
        code == "00" || code == "13"
    }
    fn derived(head: &Head, tally: Tally) -> Option<String> {
        Some(crate::json::ser::to_string(&CreateCounts::of(head, tally)))
    }
}

/// Outcome of add-multi-course-to-multi-user.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct AddCoursesReply {
    /// The requested courses the server accepted.
    pub valid_courses: Vec<ValidCourse>,
    /// One outcome per account.
    pub result: Vec<AddCourseOutcome>,
    /// The envelope's msg (a Vietnamese sentence).
    #[serde(default)]
    pub msg: String,
    /// What the core derives from `result` and the msg (written flat, beside `result`).
    #[serde(flatten, skip_deserializing)]
    pub counts: GrantCounts,
}

/// The fields the core derives onto an add-courses reply, from its `result` and its msg.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct GrantCounts {
    /// Accounts that received the courses, counted from `result`.
    pub succeeded: u32,
    /// Accounts that failed, counted from `result`.
    pub failed: u32,
    /// The counts the msg states; null when it could not be read.
    #[cfg_attr(target_arch = "wasm32", tsify(type = "MsgCounts | null"))]
    pub msg_counts: Option<MsgCounts>,
}

impl GrantCounts {
    fn of(head: &Head, tally: Tally) -> GrantCounts {
        GrantCounts {
            succeeded: tally.trues,
            failed: tally.items.saturating_sub(tally.trues),
            msg_counts: add_courses_counts(&head.msg),
        }
    }
}

impl Reply for AddCoursesReply {
    fn finish(&mut self, head: &Head, tally: Tally) {
        self.counts = GrantCounts::of(head, tally);
    }
    fn derived(head: &Head, tally: Tally) -> Option<String> {
        Some(crate::json::ser::to_string(&GrantCounts::of(head, tally)))
    }
}

/// tsify leaves out of a reply the fields the JSON never carries in (`skip_deserializing`); the
/// core derives them onto the two replies as [`CreateCounts`] and [`GrantCounts`] define them.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TS_DERIVED: &str = r#"
export interface CreateUsersReply extends CreateCounts {}
export interface AddCoursesReply extends GrantCounts {}
"#;

/// A token from login-user (an API token) or create-user-login-token ([`LoginTokenReply`]).
#[derive(Clone, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
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
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct RawReply {
    /// `respCode`.
    pub resp_code: String,
    /// `msg`.
    #[serde(default)]
    pub msg: String,
    /// Every other key of the envelope.
    #[serde(flatten)]
    pub data: Extra,
}
impl Reply for RawReply {}
