//! `GET users/search-user`: one account by e-mail (tried first) or username.
//!
//! This endpoint's home: its code table, its request (`ROUTE`: the path, and each parameter with
//! its rules and its place, which the one planner and the validators read) and its typed planner.
//! Its key, method, reply type and `Client` method(s) are its line in the registry
//! (`src/registry.rs`); its reply type is in `src/reply.rs` (shared).

use super::prelude::*;

/// This endpoint's codes (`Basis::Notes`).
pub(crate) const CODES: Codes = (
    &[row("02", None, Reason::NoToken)
    ],
    Basis::Notes,
);

/// The request: `email` or `username` (at least one given, not blank; a blank one is left out).
pub(crate) const ROUTE: Route = Route {
    path: "users/search-user",
    params: &[
        Param {
            name: "email",
            check: Check::Either,
            to: To::Query,
        },
        Param {
            name: "username",
            check: Check::Either,
            to: To::Query,
        },
    ],
};

impl Planner {
    /// `GET users/search-user`: by e-mail first, then by username; at least one is needed.
    pub fn search_user(
        &self,
        email: Option<&str>,
        username: Option<&str>,
    ) -> Result<Request<UserReply>, Error> {
        let opt = |v: Option<&str>| v.map_or(Value::Null, Value::from);
        self.search_user_value(&opt(email), &opt(username))
    }

    /// [`Planner::search_user`] from raw JSON (`null` for a parameter not given).
    pub(crate) fn search_user_value<J: crate::json::JsonView>(
        &self,
        email: &J,
        username: &J,
    ) -> Result<Request<UserReply>, Error> {
        self.plan(Endpoint::SearchUser, &[email, username])
            .map(Request::cast)
    }
}
