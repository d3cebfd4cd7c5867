//! `POST users/create-user-login-token` (platform notes): a one-time site login token for an account.
//!
//! This endpoint's home: its code table, its request (`ROUTE`: the path, and each parameter with
//! its rules and its place, which the one planner and the validators read) and its typed planner.
//! Its key, method, reply type and `Client` method(s) are its line in the registry
//! (`src/registry.rs`); its reply type is in `src/reply.rs` (shared).

use super::prelude::*;

// The platform publishes no codes for create-user-login-token: its errors are recognised by
// their msg (`Basis::Msg`), as the emulator's (01..08, numbered like create-single-user's) are.
/// No documented codes: errors are recognised by their msg only.
pub(crate) const CODES: Codes = (&[], Basis::Unknown);

/// The request: the body `{userid}`, an account id.
pub(crate) const ROUTE: Route = Route {
    path: "users/create-user-login-token",
    params: &[Param {
        name: "userid",
        check: Check::Id,
        to: To::Body,
    }],
};

impl Planner {
    /// `POST users/create-user-login-token` (platform notes), body `{userid}`: a one-time site
    /// login token for that account. The platform advises at least 5 s between calls
    /// ([`crate::interval::LOGIN_TOKEN_INTERVAL_MS`]).
    pub fn create_login_token(&self, user_id: &str) -> Result<Request<LoginTokenReply>, Error> {
        self.plan(Endpoint::CreateLoginToken, &[&Value::from(user_id)])
            .map(Request::cast)
    }
}
