//! `GET users/get-multi-user`: a page of accounts.
//!
//! This endpoint's home: its code table, its request (`ROUTE`: the path, and each parameter with
//! its rules and its place, which the one planner and the validators read) and its typed planner.
//! Its key, method, reply type and `Client` method(s) are its line in the registry
//! (`src/registry.rs`); its reply type is here.

use super::prelude::*;
use serde::{Deserialize, Serialize};

use crate::model::User;
use crate::reply::Reply;

/// This endpoint's codes (`Basis::Notes`).
pub(crate) const CODES: Codes = (
    &[
        row("02", None, Reason::NoToken),
        row("03", None, Reason::NoStartParameter),
        row("04", None, Reason::InvalidStartParameter),
    ],
    Basis::Notes,
);

/// A page of accounts (get-multi-user).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct UserList {
    /// The accounts.
    pub users: Vec<User>,
    /// The envelope's msg.
    #[serde(default)]
    pub msg: String,
}
impl Reply for UserList {}

/// The request: a page, `limit` 1..=100.
pub(crate) const ROUTE: Route = Route {
    path: "users/get-multi-user",
    params: &[Param::START, Param::limit(1)],
};

impl Planner {
    /// `GET users/get-multi-user`: `start` >= 0 (always sent: the server requires it), `limit` 1..=100.
    pub fn get_users(&self, start: u64, limit: u32) -> Result<Request<UserList>, Error> {
        self.plan::<Value>(Endpoint::GetUsers, &[&start.into(), &limit.into()])
            .map(Request::cast)
    }
}
