//! The registry of the endpoints of the contract and of the platform notes: one line each. The
//! [`Endpoint`] enum comes of it here, below everything that only names an endpoint; each
//! endpoint's module, code table, request, reply and `Client` methods come of it in
//! [`crate::endpoint`], above the planner and the replies those need.

/// HTTP method of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, lpm_derive::SerializeUnit)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
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

/// The registry: one line per endpoint (its doc, variant, key, method, module in
/// `src/endpoint/`, reply type, and the `Client` methods that plan it, each with how it passes
/// the endpoint's parameters and its interval guard), from which come the [`Endpoint`] enum (and
/// its TypeScript), its lookups, each endpoint's code table (`crate::endpoint::table`) and request
/// shape (its module's `ROUTE`: parameters, their rules and places), and the planning of a
/// `Client` method the wasm shell dispatches to (`crate::endpoint::plan_method`).
///
/// Hands the lines to the macro `$then` (here `endpoint_enum`, in `crate::endpoint` its dispatch).
macro_rules! endpoints {
    ($then:ident) => {
        $then! {
        /// `POST users/create-multi-user`
        CreateUsers "create-multi-user" Post create_users CreateUsersReply [
            "createUsers" => One Create,
            "createUser" => Item Create,
        ];
        /// `POST users/create-single-user` (response unpublished)
        CreateUser "create-single-user" Post create_user RegisterReply [
            "registerUser" => One Register,
            "createSingleUserRaw" => One None,
        ];
        /// `GET users/get-multi-user`
        GetUsers "get-multi-user" Get get_users UserList ["getUsers" => Object None];
        /// `GET user/get-single-user/<id>` (or `users/...`)
        GetUser "get-single-user" Get get_user UserReply ["getUser" => One None];
        /// `GET users/get-me`
        GetMe "get-me" Get get_me UserReply ["getMe" => No None];
        /// `GET users/search-user`
        SearchUser "search-user" Get search_user UserReply ["searchUser" => Object None];
        /// `GET courses/get-single-course/<id>`
        GetCourse "get-single-course" Get get_course CourseReply ["getCourse" => One None];
        /// `GET courses/get-multi-course`
        GetCourses "get-multi-course" Get get_courses CourseList ["getCourses" => Object None];
        /// `GET courses/search-course`
        SearchCourses "search-course" Get search_courses CourseList ["searchCourses" => One None];
        /// `POST courses/add-multi-course-to-multi-user`
        AddCoursesToUsers "add-multi-course-to-multi-user" Post add_courses AddCoursesReply [
            "addCoursesToUsers" => Object None,
        ];
        /// `POST users/login-user` (platform notes; no token)
        Login "login-user" Post login LoginReply ["login" => Two None];
        /// `POST users/create-user-login-token` (platform notes): a one-time site login for an account
        CreateLoginToken "create-user-login-token" Post create_login_token LoginTokenReply [
            "createLoginToken" => One LoginToken,
        ];
            }
    };
}
pub(crate) use endpoints;

/// The [`Endpoint`] enum and its lookups, from the registry's lines.
macro_rules! endpoint_enum {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $key:literal $method:ident $module:ident $reply:ty [$($calls:tt)*];
    )*) => {
        /// One endpoint. Its key is the last segment of its path, which is also how errors name it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, lpm_derive::SerializeUnit)]
        #[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
        pub enum Endpoint {
            $($(#[doc = $doc])* #[serde(rename = $key)] $variant,)*
        }

        impl Endpoint {
            /// Every endpoint.
            pub const ALL: [Endpoint; [$($key),*].len()] = [$(Endpoint::$variant),*];

            /// The endpoint's key: the last segment of its path (`"get-multi-user"`).
            pub fn key(self) -> &'static str {
                self.serde_name()
            }

            /// The method the endpoint expects.
            pub fn method(self) -> Method {
                match self {
                    $(Endpoint::$variant => Method::$method,)*
                }
            }
        }
    };
}
endpoints!(endpoint_enum);

impl Endpoint {
    /// The endpoint for a key, if any.
    pub fn from_key(key: &str) -> Option<Endpoint> {
        Endpoint::ALL.into_iter().find(|e| e.key() == key)
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
