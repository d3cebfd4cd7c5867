//! `POST users/create-single-user`: the raw call, whose response the contract does not publish.
//!
//! This endpoint's home: its code table, its planners (typed, and from raw JSON), and the
//! planning of its `Client` method(s) from the JavaScript's arguments. Its key and method are its
//! line in the registry (`src/endpoint.rs`); its reply type is in `src/reply.rs` (shared).

use super::prelude::*;

/// No documented codes: errors are recognised by their msg only.
pub(crate) const CODES: Codes = (&[], Basis::Unknown);

impl Planner {
    /// `POST users/create-single-user`: the raw call, whose response the contract does not
    /// publish; the reply is the envelope with whatever it carries.
    pub fn create_user_raw(&self, user: &NewUser) -> Result<Request<RawReply>, Error> {
        self.create_user_raw_value(&to_value(user))
    }

    /// [`Planner::create_user_raw`] from raw JSON.
    pub(crate) fn create_user_raw_value(
        &self,
        user: &impl JsonView,
    ) -> Result<Request<RawReply>, Error> {
        let endpoint = Endpoint::CreateUser;
        self.check(endpoint, validate::validate_create_user(user, self.opts()))?;
        self.request(
            endpoint,
            "users/create-single-user",
            &[],
            Some(user.to_json()),
        )
    }
}

/// `createSingleUserRaw`: the envelope as received (its response is unpublished). Not guarded by
/// the bulk interval; never retried.
pub(crate) fn plan_js(api: &Planner, a: &Option<String>, _: &Option<String>) -> Result<Request<RawReply>, Error> {
    api.create_user_raw_value(&tree(Endpoint::CreateUser, a)?)
}
