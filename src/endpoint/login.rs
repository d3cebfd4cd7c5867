//! `POST users/login-user` (platform notes): the token and its expiry; needs no token.
//!
//! This endpoint's home: its code table, its request (`ROUTE`: the path, and each parameter with
//! its rules and its place, which the one planner and the validators read) and its typed planner.
//! Its key, method, reply type and `Client` method(s) are its line in the registry
//! (`src/registry.rs`); its reply type is in `src/reply.rs` (shared).

use super::prelude::*;

/// This endpoint's codes (`Basis::Notes`).
pub(crate) const CODES: Codes = (
    &[
        row("01", None, Reason::WrongMethod),
        row("02", None, Reason::NoBody),
        row("03", None, Reason::NoEmail),
        row("04", None, Reason::NoPassword),
        row("05", None, Reason::WrongEmail),
        row("06", None, Reason::CannotCheckPassword),
        row("07", None, Reason::WrongPassword),
        row("08", None, Reason::CannotGenerateToken),
    ],
    Basis::Notes,
);

/// The request: the body `{email, password}`, both not blank (the e-mail plausible).
pub(crate) const ROUTE: Route = Route {
    path: "users/login-user",
    params: &[
        Param {
            name: "email",
            check: Check::Text,
            to: To::Body,
        },
        Param {
            name: "password",
            check: Check::Text,
            to: To::Body,
        },
    ],
};

impl Planner {
    /// `POST users/login-user` (platform notes): needs no token; yields one.
    pub fn login(&self, email: &str, password: &str) -> Result<Request<LoginReply>, Error> {
        self.plan(Endpoint::Login, &[&Value::from(email), &Value::from(password)])
            .map(Request::cast)
    }
}
