//! `POST users/login-user` (platform notes): the token and its expiry; needs no token.
//!
//! This endpoint's home: its code table, its planners (typed, and from raw JSON), and the
//! planning of its `Client` method(s) from the JavaScript's arguments. Its key and method are its
//! line in the registry (`src/endpoint.rs`); its reply type is in `src/reply.rs` (shared).

use super::prelude::*;

/// This endpoint's codes (`Basis::Notes`).
pub(crate) const CODES: Codes = (
    &[
        ("01", None, Reason::WrongMethod),
        ("02", None, Reason::NoBody),
        ("03", None, Reason::NoEmail),
        ("04", None, Reason::NoPassword),
        ("05", None, Reason::WrongEmail),
        ("06", None, Reason::CannotCheckPassword),
        ("07", None, Reason::WrongPassword),
        ("08", None, Reason::CannotGenerateToken),
    ],
    Basis::Notes,
);

impl Planner {
    /// `POST users/login-user` (platform notes): needs no token; yields one.
    pub fn login(&self, email: &str, password: &str) -> Result<Request<LoginReply>, Error> {
        self.login_value(&Value::from(email), &Value::from(password))
    }

    /// [`Planner::login`] from raw JSON.
    pub(crate) fn login_value<J: JsonView>(
        &self,
        email: &J,
        password: &J,
    ) -> Result<Request<LoginReply>, Error> {
        let endpoint = Endpoint::Login;
        self.check(
            endpoint,
            validate::validate_login(email, password, self.opts()),
        )?;
        let body = object(&[
            ("email", &email.to_json()),
            ("password", &password.to_json()),
        ]);
        self.request(endpoint, "users/login-user", &[], Some(body))
    }
}

/// `login`: the token and its expiry. Needs no token; the JS passes the result to `withToken`.
pub(crate) fn plan_js(api: &Planner, a: &Option<String>, b: &Option<String>) -> Result<Request<LoginReply>, Error> {
    api.login_value(&tree(Endpoint::Login, a)?, &tree(Endpoint::Login, b)?)
}
