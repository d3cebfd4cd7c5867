//! `POST courses/add-multi-course-to-multi-user`: grants courses to 1 to 100 accounts.
//!
//! This endpoint's home: its code table, its request (`ROUTE`: the path, and each parameter with
//! its rules and its place, which the one planner and the validators read) and its typed planner.
//! Its key, method, reply type and `Client` method(s) are its line in the registry
//! (`src/registry.rs`); its reply type is here.

use super::prelude::*;
use serde::{Deserialize, Serialize};

use crate::check::{Head, Tally};
use crate::codes::{add_courses_counts, MsgCounts};
use crate::model::{AddCourseOutcome, ValidCourse};
use crate::reply::Reply;

/// This endpoint's codes (`Basis::Notes`).
pub(crate) const CODES: Codes = (
    &[
        row("02", None, Reason::NoBody),
        row("03", None, Reason::NoUsersArray),
    ],
    Basis::Notes,
);

/// Outcome of add-multi-course-to-multi-user.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct GrantCounts {
    /// Accounts that received the courses, counted from `result`.
    pub succeeded: u32,
    /// Accounts that failed, counted from `result`.
    pub failed: u32,
    /// The counts the msg states; null when it could not be read.
    #[cfg_attr(feature = "wasm", tsify(type = "MsgCounts | null"))]
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
        Some(crate::json::ser::WriteJson::to_json(&GrantCounts::of(head, tally)))
    }
}

/// tsify leaves out of a reply the fields the JSON never carries in (`skip_deserializing`); the
/// core derives them onto the reply as [`GrantCounts`] defines them.
#[cfg(feature = "wasm")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TS_DERIVED: &str = "export interface AddCoursesReply extends GrantCounts {}";

/// The request: the body `{users, courses}`: 1 to 100 account ids, at least one course id.
pub(crate) const ROUTE: Route = Route {
    path: "courses/add-multi-course-to-multi-user",
    params: &[
        Param {
            name: "users",
            check: Check::Ids(Some(MAX_PAGE)),
            to: To::Body,
        },
        Param {
            name: "courses",
            check: Check::Ids(None),
            to: To::Body,
        },
    ],
};

impl Planner {
    /// `POST courses/add-multi-course-to-multi-user`: 1 to 100 accounts, at least one course.
    pub fn add_courses_to_users(
        &self,
        input: &AddCoursesInput,
    ) -> Result<Request<AddCoursesReply>, Error> {
        let users = Value::from(input.users.clone());
        let courses = Value::from(input.courses.clone());
        self.plan(Endpoint::AddCoursesToUsers, &[&users, &courses])
            .map(Request::cast)
    }

    /// [`Planner::add_courses_to_users`] of ids the bulk engine has already checked one by one and
    /// across its input (1..=100 accounts, no repeat; a usable course list): not validated again.
    pub(crate) fn add_courses_checked(
        &self,
        users: &[&str],
        courses: &[String],
    ) -> Result<Request<AddCoursesReply>, Error> {
        let list = |out: &mut String, ids: &mut dyn Iterator<Item = &str>| {
            out.push('[');
            for (i, id) in ids.enumerate() {
                if i > 0 {
                    out.push(',');
                }
                crate::json::push_str(out, id);
            }
            out.push(']');
        };
        let mut body = String::from("{\"users\":");
        list(&mut body, &mut users.iter().copied());
        body.push_str(",\"courses\":");
        list(&mut body, &mut courses.iter().map(String::as_str));
        body.push('}');
        self.unchecked(Endpoint::AddCoursesToUsers, body)
            .map(Request::cast)
    }
}
