//! The endpoints of the contract and of the platform notes.

use serde::Serialize;

/// HTTP method of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "UPPERCASE")]
pub enum Method {
    /// GET
    Get,
    /// POST
    Post,
}

impl Method {
    /// `"GET"` or `"POST"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
        }
    }
}

/// One endpoint. Its key is the last segment of its path, which is also how errors name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum Endpoint {
    /// `POST users/create-multi-user`
    #[serde(rename = "create-multi-user")]
    CreateUsers,
    /// `POST users/create-single-user` (response unpublished)
    #[serde(rename = "create-single-user")]
    CreateUser,
    /// `GET users/get-multi-user`
    #[serde(rename = "get-multi-user")]
    GetUsers,
    /// `GET user/get-single-user/<id>` (or `users/...`)
    #[serde(rename = "get-single-user")]
    GetUser,
    /// `GET users/get-me`
    #[serde(rename = "get-me")]
    GetMe,
    /// `GET users/search-user`
    #[serde(rename = "search-user")]
    SearchUser,
    /// `GET courses/get-single-course/<id>`
    #[serde(rename = "get-single-course")]
    GetCourse,
    /// `GET courses/get-multi-course`
    #[serde(rename = "get-multi-course")]
    GetCourses,
    /// `GET courses/search-course`
    #[serde(rename = "search-course")]
    SearchCourses,
    /// `POST courses/add-multi-course-to-multi-user`
    #[serde(rename = "add-multi-course-to-multi-user")]
    AddCoursesToUsers,
    /// `POST users/login-user` (platform notes; no token)
    #[serde(rename = "login-user")]
    Login,
    /// `POST users/create-user-login-token` (platform notes): a one-time site login for an account
    #[serde(rename = "create-user-login-token")]
    CreateLoginToken,
}

impl Endpoint {
    /// Every endpoint.
    pub const ALL: [Endpoint; 12] = [
        Endpoint::CreateUsers,
        Endpoint::CreateUser,
        Endpoint::GetUsers,
        Endpoint::GetUser,
        Endpoint::GetMe,
        Endpoint::SearchUser,
        Endpoint::GetCourse,
        Endpoint::GetCourses,
        Endpoint::SearchCourses,
        Endpoint::AddCoursesToUsers,
        Endpoint::Login,
        Endpoint::CreateLoginToken,
    ];

    /// The endpoint's key: the last segment of its path (`"get-multi-user"`).
    pub fn key(self) -> &'static str {
        match self {
            Endpoint::CreateUsers => "create-multi-user",
            Endpoint::CreateUser => "create-single-user",
            Endpoint::GetUsers => "get-multi-user",
            Endpoint::GetUser => "get-single-user",
            Endpoint::GetMe => "get-me",
            Endpoint::SearchUser => "search-user",
            Endpoint::GetCourse => "get-single-course",
            Endpoint::GetCourses => "get-multi-course",
            Endpoint::SearchCourses => "search-course",
            Endpoint::AddCoursesToUsers => "add-multi-course-to-multi-user",
            Endpoint::Login => "login-user",
            Endpoint::CreateLoginToken => "create-user-login-token",
        }
    }

    /// The endpoint for a key, if any.
    pub fn from_key(key: &str) -> Option<Endpoint> {
        Endpoint::ALL.into_iter().find(|e| e.key() == key)
    }

    /// The method the endpoint expects.
    pub fn method(self) -> Method {
        match self {
            Endpoint::CreateUsers
            | Endpoint::CreateUser
            | Endpoint::AddCoursesToUsers
            | Endpoint::Login
            | Endpoint::CreateLoginToken => Method::Post,
            _ => Method::Get,
        }
    }

    /// Whether an automatic retry is safe: GET only, as a POST may have taken effect (accounts
    /// created, courses granted) even when its answer was lost.
    pub fn is_idempotent(self) -> bool {
        self.method() == Method::Get
    }
}

impl core::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.key())
    }
}
