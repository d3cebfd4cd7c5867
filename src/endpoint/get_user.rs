//! `GET users/get-single-user/<id>` (or `user/...`): one account by id.
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
        row("02", None, Reason::NoId),
        row("03", Some("no token"), Reason::NoToken),
        row("03", Some("user not found"), Reason::UserNotFound),
        row("04", None, Reason::CannotAuthenticate),
        row("05", None, Reason::InvalidToken),
        row("06", None, Reason::NoPermission),
    ],
    Basis::Notes,
);

/// The request: the id as the path's last segment (`user/...` with [`UserPath::User`]).
///
/// [`UserPath::User`]: crate::UserPath::User
pub(crate) const ROUTE: Route = Route {
    path: "users/get-single-user/",
    params: &[Param {
        name: "id",
        check: Check::Id,
        to: To::Segment,
    }],
};

impl Planner {
    /// `GET user(s)/get-single-user/<id>`; the id fills exactly one path segment.
    pub fn get_user(&self, id: &str) -> Result<Request<UserReply>, Error> {
        self.plan(Endpoint::GetUser, &[&Value::from(id)])
            .map(Request::cast)
    }
}
