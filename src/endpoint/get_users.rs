//! `GET users/get-multi-user`: a page of accounts.
//!
//! This endpoint's home: its code table, its planners (typed, and from raw JSON), and the
//! planning of its `Client` method(s) from the JavaScript's arguments. Its key and method are its
//! line in the registry (`src/endpoint.rs`); its reply type is here.

use super::prelude::*;
use serde::{Deserialize, Serialize};

use crate::model::User;
use crate::reply::Reply;

/// This endpoint's codes (`Basis::Notes`).
pub(crate) const CODES: Codes = (
    &[
        ("02", None, Reason::NoToken),
        ("03", None, Reason::NoStartParameter),
        ("04", None, Reason::InvalidStartParameter),
    ],
    Basis::Notes,
);

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

impl Planner {
    /// `GET users/get-multi-user`: `start` >= 0 (always sent: the server requires it), `limit` 1..=100.
    pub fn get_users(&self, start: u64, limit: u32) -> Result<Request<UserList>, Error> {
        self.get_users_value::<Value>(&start.into(), &limit.into())
    }

    /// [`Planner::get_users`] from raw JSON; `null` start or limit means 0 and 100.
    pub(crate) fn get_users_value<J: JsonView>(
        &self,
        start: &J,
        limit: &J,
    ) -> Result<Request<UserList>, Error> {
        let endpoint = Endpoint::GetUsers;
        let (s, l) = self.page(endpoint, PageKind::Users, start, limit)?;
        self.request(
            endpoint,
            "users/get-multi-user",
            &[("start", &s), ("limit", &l)],
            None,
        )
    }
}

/// `getUsers`: `start` defaults to 0, `limit` (1..100) to 100.
pub(crate) fn plan_js(api: &Planner, a: &Option<String>, _: &Option<String>) -> Result<Request<UserList>, Error> {
    let page = params_in(Endpoint::GetUsers, a)?;
    api.get_users_value(member(&page, "start"), member(&page, "limit"))
}
