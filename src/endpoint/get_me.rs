//! `GET users/get-me`: the token's own account.
//!
//! This endpoint's home: its code table, its request (`ROUTE`: the path, and each parameter with
//! its rules and its place, which the one planner and the validators read) and its typed planner.
//! Its key, method, reply type and `Client` method(s) are its line in the registry
//! (`src/registry.rs`); its reply type is in `src/reply.rs` (shared).

use super::prelude::*;

/// This endpoint's codes (`Basis::Contract`).
pub(crate) const CODES: Codes = (
    &[
        row("01", None, Reason::WrongMethod),
        row("02", None, Reason::NoToken),
        row("03", None, Reason::CannotAuthenticate),
        row("04", None, Reason::InvalidToken),
    ],
    Basis::Contract,
);

/// The request: no parameter.
pub(crate) const ROUTE: Route = Route {
    path: "users/get-me",
    params: &[],
};

impl Planner {
    /// `GET users/get-me`.
    pub fn get_me(&self) -> Result<Request<UserReply>, Error> {
        self.plan::<Value>(Endpoint::GetMe, &[]).map(Request::cast)
    }
}
