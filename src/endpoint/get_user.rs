//! `GET users/get-single-user/<id>` (or `user/...`): one account by id.
//!
//! This endpoint's home: its code table, its planners (typed, and from raw JSON), and the
//! planning of its `Client` method(s) from the JavaScript's arguments. Its key and method are its
//! line in the registry (`src/endpoint.rs`); its reply type is in `src/reply.rs` (shared).

use super::prelude::*;

/// This endpoint's codes (`Basis::Notes`).
pub(crate) const CODES: Codes = (
    &[
        ("01", None, Reason::WrongMethod),
        ("02", None, Reason::NoId),
        ("03", Some("no token"), Reason::NoToken),
        ("03", Some("user not found"), Reason::UserNotFound),
        ("04", None, Reason::CannotAuthenticate),
        ("05", None, Reason::InvalidToken),
        ("06", None, Reason::NoPermission),
    ],
    Basis::Notes,
);

impl Planner {
    /// `GET user(s)/get-single-user/<id>`; the id fills exactly one path segment.
    pub fn get_user(&self, id: &str) -> Result<Request<UserReply>, Error> {
        self.get_user_value(&Value::from(id))
    }

    /// [`Planner::get_user`] from raw JSON.
    pub(crate) fn get_user_value(&self, id: &impl JsonView) -> Result<Request<UserReply>, Error> {
        let endpoint = Endpoint::GetUser;
        let seg = self.id_segment(endpoint, id)?;
        let dir = match self.user_path {
            UserPath::Users => "users",
            UserPath::User => "user",
        };
        self.request(endpoint, &cat(&[dir, "/get-single-user/", &seg]), &[], None)
    }
}

/// `getUser`: one account by id.
pub(crate) fn plan_js(api: &Planner, a: &Option<String>, _: &Option<String>) -> Result<Request<UserReply>, Error> {
    api.get_user_value(&tree(Endpoint::GetUser, a)?)
}
