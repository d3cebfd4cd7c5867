//! The endpoints of the contract and of the platform notes.

use crate::codes::Codes;
use crate::decode::ReplyPlan;
use crate::error::{Error, ValidationError};
use crate::json;
use crate::plan::{Planner, Request};
use crate::reply::Reply;
use crate::validate::{self, Issue, IssueCode, Lang, Level, Report, ValidateOptions};

/// HTTP method of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, lpm_derive::SerializeUnit)]
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

/// The registry: one line per endpoint (its doc, variant, key, method, module in
/// `src/endpoint/`, and the `Client` methods that plan it, each with its interval guard), from
/// which come the [`Endpoint`] enum (and its TypeScript), its lookups, each endpoint's code table
/// ([`crate::codes::table`]) and the planning of a `Client` method the wasm shell dispatches to
/// ([`plan_js`]).
macro_rules! endpoints {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $key:literal $method:ident $module:ident [$($js:literal => $plan:ident $guard:ident),* $(,)?];
    )*) => {
        $(mod $module;)*

        /// One endpoint. Its key is the last segment of its path, which is also how errors name it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, lpm_derive::SerializeUnit)]
        #[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
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

            /// The endpoint's documented code table and where it comes from.
            pub(crate) fn codes(self) -> Codes {
                match self {
                    $(Endpoint::$variant => $module::CODES,)*
                }
            }
        }

        /// Plans the call of the `Client` method `method` (`"getUsers"`) with its arguments as
        /// JSON text: the request with its reply's checking, and its interval guard.
        #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
        pub(crate) fn plan_js(
            api: &Planner,
            method: &str,
            a: &Option<String>,
            b: &Option<String>,
        ) -> Result<Planned, Error> {
            // The method's index in the registry, then a match on it (not one string comparison
            // per method).
            const NAMES: &[&str] = &[$($($js,)*)*];
            let mut i = crate::text::position(NAMES, method).unwrap_or(usize::MAX);
            $($(
                if i == 0 {
                    return Ok(planned($module::$plan(api, a, b)?, Guard::$guard));
                }
                i = i.wrapping_sub(1);
            )*)*
            let _ = i;
            Err(crate::options::option_error("method", "a method of Client"))
        }

        /// The TypeScript union of the `Client` methods that make one call (`CallMethod`).
        pub const TS_CALL_METHODS: &str = concat!(
            "\n/** The methods of `Client` that make one call (one per line of the endpoints' registry). */\nexport type CallMethod =",
            $($("\n  | \"", $js, "\"",)*)*
            ";\n"
        );

        /// Every `Client` method the registry plans, with its endpoint (for the tests).
        #[cfg(test)]
        const JS_METHODS: &[(&str, Endpoint)] = &[$($(($js, Endpoint::$variant),)*)*];
    };
}

/// A `Client` method's interval guard: none, the bulk-create interval, or the login-token one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Guard {
    /// No interval between calls.
    None,
    /// The contract's interval between bulk creates (`createInterval`).
    Create,
    /// The platform's advised interval between login tokens (`loginTokenInterval`).
    LoginToken,
}

endpoints! {
    /// `POST users/create-multi-user`
    CreateUsers "create-multi-user" Post create_users [
        "createUsers" => plan_js Create,
        "createUser" => plan_js_one Create,
    ];
    /// `POST users/create-single-user` (response unpublished)
    CreateUser "create-single-user" Post create_user ["createSingleUserRaw" => plan_js None];
    /// `GET users/get-multi-user`
    GetUsers "get-multi-user" Get get_users ["getUsers" => plan_js None];
    /// `GET user/get-single-user/<id>` (or `users/...`)
    GetUser "get-single-user" Get get_user ["getUser" => plan_js None];
    /// `GET users/get-me`
    GetMe "get-me" Get get_me ["getMe" => plan_js None];
    /// `GET users/search-user`
    SearchUser "search-user" Get search_user ["searchUser" => plan_js None];
    /// `GET courses/get-single-course/<id>`
    GetCourse "get-single-course" Get get_course ["getCourse" => plan_js None];
    /// `GET courses/get-multi-course`
    GetCourses "get-multi-course" Get get_courses ["getCourses" => plan_js None];
    /// `GET courses/search-course`
    SearchCourses "search-course" Get search_courses ["searchCourses" => plan_js None];
    /// `POST courses/add-multi-course-to-multi-user`
    AddCoursesToUsers "add-multi-course-to-multi-user" Post add_courses ["addCoursesToUsers" => plan_js None];
    /// `POST users/login-user` (platform notes; no token)
    Login "login-user" Post login ["login" => plan_js None];
    /// `POST users/create-user-login-token` (platform notes): a one-time site login for an account
    CreateLoginToken "create-user-login-token" Post create_login_token [
        "createLoginToken" => plan_js LoginToken,
    ];
}

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

pub use add_courses::{AddCoursesReply, GrantCounts};
pub use create_users::{CreateCounts, CreateUsersReply};
pub use get_course::CourseReply;
pub use get_users::UserList;

/// What the endpoints' modules use.
mod prelude {
    pub(super) use super::{member, params_in, tree, Endpoint};
    pub(super) use crate::codes::{Basis, Codes, Reason};
    pub(super) use crate::error::{cat, Error};
    pub(super) use crate::json::JsonView;
    pub(super) use crate::model::{AddCoursesInput, NewUser};
    pub(super) use crate::plan::{object, to_value, Planner, Request, UserPath};
    pub(super) use crate::reply::{CourseList, LoginReply, LoginTokenReply, RawReply, UserReply};
    pub(super) use crate::validate::{self, PageKind};
    pub(super) use serde_json::Value;
}

/// A planned `Client` call: the request and its reply's checking with the reply type erased, and
/// its interval guard.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) struct Planned {
    pub(crate) req: Request<()>,
    pub(crate) reply: ReplyPlan<'static>,
    pub(crate) guard: Guard,
}

/// Erases a request's reply type (one copy per reply type; everything after is one copy).
#[inline(never)]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn planned<R: Reply + 'static>(req: Request<R>, guard: Guard) -> Planned {
    let reply = ReplyPlan {
        secret: None,
        ..req.plan()
    };
    Planned {
        req: req.cast(),
        reply,
        guard,
    }
}

/// The report on a value that cannot be read as JSON (a cycle, a BigInt, NaN or Infinity).
pub(crate) fn not_json_report(lang: Lang) -> Report {
    let code = IssueCode::NotJson;
    Report {
        issues: vec![Issue {
            path: Vec::new(),
            code,
            level: Level::Contract,
            message: validate::message(code, "", 0, lang),
        }],
    }
}

/// The validation error of a value that cannot be read as JSON.
pub(crate) fn not_json(endpoint: Endpoint) -> Error {
    Error::Validation(ValidationError {
        endpoint,
        report: not_json_report(Lang::En),
    })
}

/// The JSON tree of a caller's value as the JS wrote it (`None`: it cannot be written as JSON),
/// or the validation error a non-JSON value deserves.
#[inline(never)]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn tree(endpoint: Endpoint, text: &Option<String>) -> Result<json::Value<'_>, Error> {
    text.as_deref()
        .and_then(|t| json::parse(t).ok())
        .ok_or_else(|| not_json(endpoint))
}

/// A parameters object's tree, refused when it is not an object (or absent).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn params_in(endpoint: Endpoint, params: &Option<String>) -> Result<json::Value<'_>, Error> {
    let tree = tree(endpoint, params)?;
    let report = validate::validate_params(&tree, ValidateOptions::default());
    if report.is_ok() {
        Ok(tree)
    } else {
        Err(Error::Validation(ValidationError { endpoint, report }))
    }
}

/// A member of a parameters object (`null` when absent).
pub(crate) fn member<'v, 'a>(v: &'v json::Value<'a>, key: &str) -> &'v json::Value<'a> {
    use crate::json::JsonView;
    v.get(key).unwrap_or(&json::Value::Null)
}

impl core::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_client_method_plans_its_endpoint() {
        let api = Planner::new("https://x.example")
            .unwrap()
            .with_token("t0k3n-0123")
            .unwrap();
        let user = r#"{"name":"Ann","username":"ann1","email":"a@x.vn","password":"secret1"}"#;
        let text = |t: &str| Some(t.to_owned());
        let args = |m: &str| match m {
            "createUsers" => (text(&format!("[{user}]")), None),
            "createUser" | "createSingleUserRaw" => (text(user), None),
            "getUsers" | "getCourses" => (text("{}"), None),
            "getUser" | "getCourse" | "createLoginToken" => (text(r#""abc123""#), None),
            "getMe" => (None, None),
            "searchUser" => (text(r#"{"email":"a@x.vn"}"#), None),
            "searchCourses" => (text(r#""math""#), None),
            "addCoursesToUsers" => (text(r#"{"users":["u1"],"courses":["c1"]}"#), None),
            "login" => (text(r#""a@x.vn""#), text(r#""secret1""#)),
            other => panic!("no arguments for {other}"),
        };
        for (method, endpoint) in JS_METHODS {
            let (a, b) = args(method);
            let Ok(p) = plan_js(&api, method, &a, &b) else {
                panic!("{method} was refused")
            };
            assert_eq!(p.req.endpoint(), *endpoint, "{method}");
            assert_eq!(p.reply.endpoint, *endpoint, "{method}");
            let guarded = matches!(*method, "createUsers" | "createUser" | "createLoginToken");
            assert_eq!(p.guard != Guard::None, guarded, "{method}");
        }
        assert!(plan_js(&api, "nope", &None, &None).is_err());
        // A value the JS could not write as JSON is a validation error of the method's endpoint.
        assert!(matches!(
            plan_js(&api, "getUser", &None, &None),
            Err(Error::Validation(ValidationError {
                endpoint: Endpoint::GetUser,
                ..
            }))
        ));
    }

    #[test]
    fn keys_name_their_endpoints_once() {
        for e in Endpoint::ALL {
            assert_eq!(Endpoint::from_key(e.key()), Some(e));
            assert_eq!(serde_json::to_value(e).unwrap(), e.key());
        }
    }
}
