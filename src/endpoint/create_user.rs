//! `POST users/create-single-user` (platform notes): one account, the path a registration form
//! takes (`registerUser`); its response is unpublished.
//!
//! This endpoint's home: its code table, its request (`ROUTE`: the path, and each parameter with
//! its rules and its place, which the one planner and the validators read) and its typed planner.
//! Its key, method, reply type and `Client` method(s) are its line in the registry
//! (`src/registry.rs`); its reply type is here, the shared envelope of `src/reply.rs`.

use super::prelude::*;

// The platform publishes no codes for create-single-user: its errors are recognised by their msg
// (`Basis::Msg`): the token and method msgs every endpoint shares, and the contract's per-item
// create statuses (`Email already in use`, ...), which a single create answers as its msg.
/// No documented codes: errors are recognised by their msg only.
pub(crate) const CODES: Codes = (&[], Basis::Unknown);

/// create-single-user's reply (`registerUser`, `createSingleUserRaw`). The platform publishes
/// only its envelope, so that is what is typed: `respCode` (`"00"`; any other code is an
/// [`crate::ApiError`]) and `msg`; every other key is kept as received (the emulator sends
/// `user`, a creation result item), typed when the platform publishes it.
pub type RegisterReply = RawReply;

/// The TypeScript of [`RegisterReply`]: the envelope with its success code.
#[cfg(feature = "wasm")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TS_REPLY: &str = r#"
/** create-single-user's reply (`registerUser`). The platform publishes only its envelope, so
 * `respCode` (`"00"`: any other code rejects with `ApiError`) and `msg` are typed, and every other
 * key is kept as received, `unknown` until the platform publishes it. */
export type RegisterReply = RawReply & { respCode: "00" };
"#;

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
    /// `POST users/create-single-user`: one account; the reply is the envelope with whatever it
    /// carries. The platform advises at least 5 s between calls
    /// ([`crate::interval::REGISTER_INTERVAL_MS`], kept by [`crate::call::GuardSpec::register`]).
    pub fn create_user_raw(&self, user: &NewUser) -> Result<Request<RegisterReply>, Error> {
        self.plan(Endpoint::CreateUser, &[&to_value(user)])
            .map(Request::cast)
    }
}
