//! `POST users/create-single-user`: the raw call, whose response the contract does not publish.
//!
//! This endpoint's home: its code table, its request (`ROUTE`: the path, and each parameter with
//! its rules and its place, which the one planner and the validators read) and its typed planner.
//! Its key, method, reply type and `Client` method(s) are its line in the registry
//! (`src/registry.rs`); its reply type is in `src/reply.rs` (shared).

use super::prelude::*;

/// No documented codes: errors are recognised by their msg only.
pub(crate) const CODES: Codes = (&[], Basis::Unknown);

/// The request: the body is the account, as the caller wrote it.
pub(crate) const ROUTE: Route = Route {
    path: "users/create-single-user",
    params: &[Param {
        name: "user",
        check: Check::Account,
        to: To::Whole,
    }],
};

impl Planner {
    /// `POST users/create-single-user`: the raw call, whose response the contract does not
    /// publish; the reply is the envelope with whatever it carries.
    pub fn create_user_raw(&self, user: &NewUser) -> Result<Request<RawReply>, Error> {
        self.plan(Endpoint::CreateUser, &[&to_value(user)])
            .map(Request::cast)
    }
}
