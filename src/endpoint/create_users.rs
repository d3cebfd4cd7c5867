//! `POST users/create-multi-user`: 1 to 100 accounts in one call, one result per item.
//!
//! This endpoint's home: its code table, its request (`ROUTE`: the path, and each parameter with
//! its rules and its place, which the one planner and the validators read) and its typed planner.
//! Its key, method, reply type and `Client` method(s) are its line in the registry
//! (`src/registry.rs`); its reply type is here.

use super::prelude::*;
use serde::{Deserialize, Serialize};

use crate::check::{Head, Tally};
use crate::codes::{create_counts, MsgCounts};
use crate::model::CreatedUser;
use crate::reply::Reply;

/// This endpoint's codes (`Basis::Contract`).
pub(crate) const CODES: Codes = (
    &[
        row("01", None, Reason::WrongMethod),
        row("02", None, Reason::NoBody),
        row("03", None, Reason::NoUsersArray),
        row("04", None, Reason::UsersNotArray),
        row("05", None, Reason::UsersEmpty),
        row("06", None, Reason::NoToken),
        row("07", None, Reason::CannotAuthenticate),
        row("08", None, Reason::InvalidToken),
        row(
            "10",
            Some("your account does not have permission"),
            Reason::NoPermission,
        ),
        row(
            "10",
            Some("server is not able to check"),
            Reason::CannotCheckResources,
        ),
        row("11", None, Reason::CapacityExhausted),
        row("12", None, Reason::NotEnoughSlots),
        row("13", None, Reason::AllItemsFailed),
    ],
    Basis::Contract,
);

/// Outcome of create-multi-user: code `00` (some created) or `13` (none created), with one
/// result per submitted item in `users`. The items are the truth; `msgCounts` is what the msg
/// says, and a msg that disagrees with the items is not an error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, lpm_derive::WriteJson)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CreateCounts {
    /// "00", or "13" when no item could be created.
    #[cfg_attr(feature = "wasm", tsify(type = r#""00" | "13" | (string & {})"#))]
    pub resp_code: String,
    /// Items created, counted from the items.
    pub created: u32,
    /// Items that failed, counted from the items.
    pub failed: u32,
    /// The counts the msg states; null when it could not be read.
    #[cfg_attr(feature = "wasm", tsify(type = "MsgCounts | null"))]
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
        Some(crate::json::ser::WriteJson::to_json(&CreateCounts::of(head, tally)))
    }
}

/// tsify leaves out of a reply the fields the JSON never carries in (`skip_deserializing`); the
/// core derives them onto the reply as [`CreateCounts`] defines them.
#[cfg(feature = "wasm")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TS_DERIVED: &str = "export interface CreateUsersReply extends CreateCounts {}";

/// The request: the body `{users}`, the accounts as the caller wrote them.
pub(crate) const ROUTE: Route = Route {
    path: "users/create-multi-user",
    params: &[Param {
        name: "users",
        check: Check::Accounts,
        to: To::Body,
    }],
};

impl Planner {
    /// `POST users/create-multi-user` for 1 to 100 accounts.
    ///
    /// Refused before sending when an item misses a required field, the batch is empty or too
    /// big, or two items share an e-mail (case-insensitively) or a username.
    pub fn create_users(&self, users: &[NewUser]) -> Result<Request<CreateUsersReply>, Error> {
        self.plan(Endpoint::CreateUsers, &[&to_value(users)])
            .map(Request::cast)
    }

    /// [`Planner::create_users`] of rows, as JSON text, that the bulk engine has already checked one
    /// by one and across its whole input (1..=100 of them, no repeat): not validated again.
    pub(crate) fn create_users_checked(
        &self,
        rows: &[&str],
    ) -> Result<Request<CreateUsersReply>, Error> {
        let mut body = String::from("{\"users\":[");
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                body.push(',');
            }
            body.push_str(row);
        }
        body.push_str("]}");
        self.unchecked(Endpoint::CreateUsers, body)
            .map(Request::cast)
    }
}
