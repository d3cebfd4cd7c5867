//! The endpoints of the contract and of the platform notes: each one's module (`src/endpoint/`)
//! and the dispatch over the registry ([`crate::registry`]): code tables, routes, the replies'
//! checking, `Planner::plan` and the planning of a package `Client` method ([`plan_method`]).

use crate::codes::{Basis, Codes, Row};
use crate::error::{cat, Error, ValidationError};
use crate::json;
use crate::plan::{Param, Planner, Request, Route};
use crate::reply::{CourseList, LoginReply, LoginTokenReply, Reply, ReplyPlan, UserReply};
use crate::rules::{self, Issue, IssueCode, Lang, Level, Report, ValidateOptions};

pub use crate::registry::{Endpoint, Method};

/// What comes of each line of the registry ([`crate::registry`]) here: its module, its code
/// table, request and reply's checking, and its `Client` methods.
macro_rules! from_registry {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $key:literal $method:ident $module:ident $reply:ty
            [$($js:literal => $args:ident $guard:ident),* $(,)?];
    )*) => {
        $(mod $module;)*

        impl Endpoint {
            /// The endpoint's documented code table and where it comes from.
            pub(crate) fn codes(self) -> Codes {
                match self {
                    $(Endpoint::$variant => $module::CODES,)*
                }
            }

            /// How the endpoint's request is made from its parameters: its module's `ROUTE`, from
            /// two tables (paths, parameters) so that what reads only the parameters (validation)
            /// links no path: the validators' wasm (`lpm-client/validate`) holds none.
            pub(crate) fn route(self) -> Route {
                // Tables in the registry's order (the enum's): one load rather than a match.
                const PATHS: &[&str] = &[$($module::ROUTE.path,)*];
                Route {
                    path: PATHS.get(self as usize).copied().unwrap_or_default(),
                    params: self.params(),
                }
            }

            /// The parameters of the endpoint's route.
            pub(crate) fn params(self) -> &'static [Param] {
                const PARAMS: &[&[Param]] = &[$($module::ROUTE.params,)*];
                PARAMS.get(self as usize).copied().unwrap_or_default()
            }

            /// The checking of the endpoint's reply, its type erased.
            fn reply(self) -> ReplyPlan<'static> {
                match self {
                    $(Endpoint::$variant => ReplyPlan {
                        endpoint: self,
                        secret: None,
                        shape: <$reply as Reply>::SHAPE,
                        accepts: <$reply as Reply>::accepts,
                        derived: <$reply as Reply>::derived,
                    },)*
                }
            }
        }

        /// The `Client` methods (`"getUsers"`) in the registry's order, and each one's endpoint,
        /// how it passes the endpoint's parameters, and its interval guard.
        const NAMES: &[&str] = &[$($($js,)*)*];
        const CALLS: &[(Endpoint, Args, Guard)] =
            &[$($((Endpoint::$variant, Args::$args, Guard::$guard),)*)*];

        /// The TypeScript union of the `Client` methods that make one call (`CallMethod`).
        pub const TS_CALL_METHODS: &str = concat!(
            "\n/** The methods of `Client` that make one call (one per line of the endpoints' registry). */\nexport type CallMethod =",
            $($("\n  | \"", $js, "\"",)*)*
            ";\n"
        );
    };
}

/// How a `Client` method or a validator passes its endpoint's parameters (as JSON text, from the
/// JS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Args {
    /// None.
    No,
    /// The first argument is the one parameter.
    One,
    /// The first argument is the one parameter's only item (`createUser`: `[a]`).
    Item,
    /// The first argument is an object of the parameters, by name (`null` or absent: none).
    Object,
    /// The first and second arguments are the two parameters.
    Two,
}

/// A `Client` method's interval guard: none, the bulk-create interval, or the login-token one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// No interval between calls.
    None,
    /// The contract's interval between bulk creates (`createInterval`).
    Create,
    /// The platform's advised interval between login tokens (`loginTokenInterval`).
    LoginToken,
    /// The platform's advised interval between single creates (`registerInterval`).
    Register,
}

crate::registry::endpoints!(from_registry);

/// The documented table of an endpoint and where it comes from (what [`crate::codes::decode`]
/// reads).
pub fn table(endpoint: Endpoint) -> (&'static [Row], Basis) {
    endpoint.codes()
}

impl Planner {
    /// Plans `endpoint` from its parameters' values ([`Planner::plan_route`] with its route).
    pub(crate) fn plan<J: json::JsonView>(
        &self,
        endpoint: Endpoint,
        values: &[&J],
    ) -> Result<Request<()>, Error> {
        self.plan_route(endpoint, &endpoint.route(), values)
    }

    /// The request of `endpoint` with a body the caller has already checked: not validated.
    pub(crate) fn unchecked(&self, endpoint: Endpoint, body: String) -> Result<Request<()>, Error> {
        self.untyped(endpoint, endpoint.route().path, "", Some(body))
    }
}

/// Plans the call of the package's `Client` method `method` (`"getUsers"`, the registry's names)
/// with its arguments as JSON text (`None`: the argument cannot be written as JSON): the request
/// with its reply's checking, and its interval guard. What a binding (the npm package's wasm)
/// calls; Rust callers have [`Planner`]'s typed methods. One function reads every method's line
/// of data (one planning per method is larger in the wasm).
pub fn plan_method(
    api: &Planner,
    method: &str,
    a: Option<&str>,
    b: Option<&str>,
) -> Result<Planned, Error> {
    let Some(&(endpoint, args, guard)) =
        crate::text::position(NAMES, method).and_then(|i| CALLS.get(i))
    else {
        return Err(crate::options::option_error("method", "a method of Client"));
    };
    let item;
    let first = match args {
        Args::Item => {
            item = a.map(|u| cat(&["[", u, "]"]));
            item.as_deref()
        }
        _ => a,
    };
    let a = match args {
        Args::No => json::Value::Null,
        _ => tree(endpoint, first)?,
    };
    let b = match args {
        Args::Two => tree(endpoint, b)?,
        _ => json::Value::Null,
    };
    if args == Args::Object {
        api.check(
            endpoint,
            rules::validate_params(&a, ValidateOptions::default()),
        )?;
    }
    let values = values(endpoint, args, &a, &b);
    Ok(Planned {
        req: api.plan(endpoint, &values)?,
        reply: endpoint.reply(),
        guard,
    })
}

/// The values of an endpoint's parameters from the JS's: the members of an object of them, by
/// name, or the values themselves.
fn values<'v, 't>(
    endpoint: Endpoint,
    args: Args,
    a: &'v json::Value<'t>,
    b: &'v json::Value<'t>,
) -> [&'v json::Value<'t>; 2] {
    match args {
        Args::Object => {
            let name = |i| endpoint.params().get(i).map_or("", |p: &Param| p.name);
            [member(a, name(0)), member(a, name(1))]
        }
        _ => [a, b],
    }
}

/// The issues of `text`, `endpoint`'s parameters as JSON text passed as `args` says (`One` or
/// `Object`; `None`: the caller's value cannot be written as JSON), without planning a request:
/// what a form's validator reports.
pub fn check_params(
    endpoint: Endpoint,
    args: Args,
    text: Option<&str>,
    opts: ValidateOptions,
) -> Report {
    let Some(Ok(v)) = text.map(json::parse) else {
        return not_json_report(opts.lang);
    };
    if args == Args::Object {
        let shape = rules::validate_params(&v, opts);
        if !shape.is_ok() {
            return shape;
        }
    }
    let values = values(endpoint, args, &v, &v);
    rules::report_params(endpoint.params(), &values, opts)
}

pub use add_courses::{AddCoursesReply, GrantCounts};
pub use create_user::RegisterReply;
pub use create_users::{CreateCounts, CreateUsersReply};
pub use get_course::CourseReply;
pub use get_users::UserList;

/// What the endpoints' modules use.
mod prelude {
    pub(super) use super::Endpoint;
    pub(super) use crate::codes::{row, Basis, Codes, Reason};
    pub(super) use crate::error::Error;
    pub(super) use crate::model::{AddCoursesInput, NewUser};
    pub(super) use crate::plan::{to_value, Check, Param, Planner, Request, Route, To, MAX_PAGE};
    pub(super) use crate::reply::{CourseList, LoginReply, LoginTokenReply, RawReply, UserReply};
    pub(super) use serde_json::Value;
}

/// A planned `Client` call: the request and its reply's checking with the reply type erased, and
/// its interval guard.
pub struct Planned {
    /// The request.
    pub req: Request<()>,
    /// Its reply's checking.
    pub reply: ReplyPlan<'static>,
    /// Its interval guard.
    pub guard: Guard,
}

/// Erases a request's reply type: its checking is its endpoint's (each endpoint has one reply
/// type, the registry's). For the bulk engines' requests.
pub fn planned<R>(req: Request<R>, guard: Guard) -> Planned {
    Planned {
        reply: req.endpoint().reply(),
        req: req.cast(),
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
            message: rules::message(code, "", 0, lang),
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
fn tree(endpoint: Endpoint, text: Option<&str>) -> Result<json::Value<'_>, Error> {
    text.and_then(|t| json::parse(t).ok())
        .ok_or_else(|| not_json(endpoint))
}

/// A member of a parameters object (`null` when absent).
pub(crate) fn member<'v, 'a>(v: &'v json::Value<'a>, key: &str) -> &'v json::Value<'a> {
    use crate::json::JsonView;
    v.get(key).unwrap_or(&json::Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_user_route_is_spelled_users_so_the_user_path_can_drop_its_s() {
        // `Planner::plan` writes the `user/...` spelling as "user" + the route's path from byte 5.
        assert!(Endpoint::GetUser.route().path.starts_with("users/"));
    }

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
            "createUser" | "registerUser" | "createSingleUserRaw" => (text(user), None),
            "getUsers" | "getCourses" => (text("{}"), None),
            "getUser" | "getCourse" | "createLoginToken" => (text(r#""abc123""#), None),
            "getMe" => (None, None),
            "searchUser" => (text(r#"{"email":"a@x.vn"}"#), None),
            "searchCourses" => (text(r#""math""#), None),
            "addCoursesToUsers" => (text(r#"{"users":["u1"],"courses":["c1"]}"#), None),
            "login" => (text(r#""a@x.vn""#), text(r#""secret1""#)),
            other => panic!("no arguments for {other}"),
        };
        for (method, &(endpoint, ..)) in NAMES.iter().zip(CALLS) {
            let (a, b) = args(method);
            let Ok(p) = plan_method(&api, method, a.as_deref(), b.as_deref()) else {
                panic!("{method} was refused")
            };
            assert_eq!(p.req.endpoint(), endpoint, "{method}");
            assert_eq!(p.reply.endpoint, endpoint, "{method}");
            let guarded = matches!(
                *method,
                "createUsers" | "createUser" | "registerUser" | "createLoginToken"
            );
            assert_eq!(p.guard != Guard::None, guarded, "{method}");
        }
        assert!(plan_method(&api, "nope", None, None).is_err());
        // A value the JS could not write as JSON is a validation error of the method's endpoint.
        assert!(matches!(
            plan_method(&api, "getUser", None, None),
            Err(Error::Validation(ValidationError {
                endpoint: Endpoint::GetUser,
                ..
            }))
        ));
    }

    #[test]
    fn check_params_reports_a_forms_issues_without_planning() {
        let opts = ValidateOptions::default();
        let user = r#"{"name":"Ann","username":"ann1","email":"a@x.vn","password":"secret1"}"#;
        let check = |e, args, text| check_params(e, args, text, opts);
        assert!(check(Endpoint::CreateUser, Args::One, Some(user)).is_ok());
        let bad = user.replace("a@x.vn", "not an email");
        assert!(!check(Endpoint::CreateUser, Args::One, Some(&bad)).is_ok());
        assert!(check(Endpoint::GetUsers, Args::Object, Some("{}")).is_ok());
        // An object of parameters that is not an object is refused before its members are read.
        assert!(!check(Endpoint::GetUsers, Args::Object, Some("[1]")).is_ok());
        let not_json = check(Endpoint::CreateUser, Args::One, None);
        assert_eq!(not_json.issues[0].code, IssueCode::NotJson);
    }

    #[test]
    fn each_method_passes_as_many_values_as_its_endpoint_takes() {
        for (method, &(endpoint, args, _)) in NAMES.iter().zip(CALLS) {
            let params = endpoint.route().params.len();
            let passed = match args {
                Args::No => 0,
                Args::One | Args::Item => 1,
                Args::Two => 2,
                // plan_js reads at most two members.
                Args::Object => params.min(2),
            };
            assert_eq!(passed, params, "{method}");
        }
    }

    #[test]
    fn routes_are_each_endpoints_own() {
        for e in Endpoint::ALL {
            let route = e.route();
            assert!(route.path.contains(e.key()), "{e}: {}", route.path);
            assert_eq!(
                format!("{:?}", e.params()),
                format!("{:?}", route.params),
                "{e}"
            );
        }
    }

    #[test]
    fn routes_are_plannable() {
        use crate::plan::{Check, To};
        for e in Endpoint::ALL {
            let params = e.route().params;
            assert!(params.len() <= 2, "{e}: plan_js passes at most two values");
            for p in params {
                // A path segment, a whole body, an account (list) is its endpoint's only parameter.
                let alone = matches!(p.to, To::Segment | To::Whole)
                    || matches!(p.check, Check::Accounts | Check::Account);
                assert!(!alone || params.len() == 1, "{e}: {}", p.name);
                // A body's members are all members.
                assert_eq!(
                    p.to == To::Body,
                    params[0].to == To::Body,
                    "{e}: {}",
                    p.name
                );
            }
            assert_eq!(
                e.route().path.ends_with('/'),
                params.iter().any(|p| p.to == To::Segment),
                "{e}"
            );
        }
    }

    #[test]
    fn derived_fields_are_written_as_serde_writes_them() {
        use crate::codes::MsgCounts;
        use crate::json::ser::WriteJson;
        for msg_counts in [
            None,
            Some(MsgCounts {
                succeeded: 3,
                failed: 0,
            }),
        ] {
            let create = CreateCounts {
                resp_code: "13".into(),
                created: 0,
                failed: 2,
                msg_counts,
            };
            let grant = GrantCounts {
                succeeded: 4,
                failed: 1,
                msg_counts,
            };
            assert_eq!(create.to_json(), serde_json::to_string(&create).unwrap());
            assert_eq!(grant.to_json(), serde_json::to_string(&grant).unwrap());
        }
    }

    #[test]
    fn keys_name_their_endpoints_once() {
        for e in Endpoint::ALL {
            assert_eq!(Endpoint::from_key(e.key()), Some(e));
            assert_eq!(serde_json::to_value(e).unwrap(), e.key());
        }
    }
}
