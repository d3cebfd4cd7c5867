//! `GET users/search-user`: one account by e-mail (tried first) or username.
//!
//! This endpoint's home: its code table, its planners (typed, and from raw JSON), and the
//! planning of its `Client` method(s) from the JavaScript's arguments. Its key and method are its
//! line in the registry (`src/endpoint.rs`); its reply type is in `src/reply.rs` (shared).

use super::prelude::*;

/// This endpoint's codes (`Basis::Notes`).
pub(crate) const CODES: Codes = (
    &[("02", None, Reason::NoToken)
    ],
    Basis::Notes,
);

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
    pub(crate) fn search_user_value<J: JsonView>(
        &self,
        email: &J,
        username: &J,
    ) -> Result<Request<UserReply>, Error> {
        let endpoint = Endpoint::SearchUser;
        self.check(
            endpoint,
            validate::validate_search_user(email, username, self.opts()),
        )?;
        let mut query = Vec::with_capacity(2);
        // Blank parameters are left out, as validation treats them as not given.
        if let Some(email) = email.as_str().filter(|s| !crate::text::trim(s).is_empty()) {
            query.push(("email", email));
        }
        if let Some(username) = username.as_str().filter(|s| !crate::text::trim(s).is_empty()) {
            query.push(("username", username));
        }
        self.request(endpoint, "users/search-user", &query, None)
    }
}

/// `searchUser`: by e-mail (tried first) or username.
pub(crate) fn plan_js(api: &Planner, a: &Option<String>, _: &Option<String>) -> Result<Request<UserReply>, Error> {
    let params = params_in(Endpoint::SearchUser, a)?;
    api.search_user_value(member(&params, "email"), member(&params, "username"))
}
