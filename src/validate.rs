//! Validation of requests before they are sent: the rules, their codes and messages
//! ([`crate::rules`], every item re-exported here), and the validators of each endpoint's
//! parameters, which read the endpoint's route from the registry ([`crate::endpoint`]) and so sit
//! above it.

use crate::endpoint::Endpoint;
use crate::json::JsonView;
use crate::rules::collect::Sink;
use crate::rules::{check_param, report_params};

pub(crate) use crate::rules::collect;
pub use crate::rules::{
    every_message, message, validate_create_user, validate_create_users, validate_params, Issue,
    IssueCode, Lang, Level, PageKind, PathSegment, Report, UsersCheck, ValidateOptions,
};

/// Validates the page of get-multi-user ([`PageKind::Users`]) or get-multi-course
/// ([`PageKind::Courses`]). Paths `["start"]` / `["limit"]`.
///
/// Pass `Value::Null` for an absent parameter: absence is allowed (the caller then sends its
/// defaults, start 0 and limit 100). Present values must be integers (`not_integer`: `1.5`, `"3"`,
/// `true`; `1.0` is accepted), `start >= 0`, `limit` within 1..=100 for users and 0..=100 for
/// courses (`too_small`, `too_large`). All contract level.
pub fn validate_page(
    endpoint: PageKind,
    start: &impl JsonView,
    limit: &impl JsonView,
    opts: ValidateOptions,
) -> Report {
    let endpoint = match endpoint {
        PageKind::Users => Endpoint::GetUsers,
        PageKind::Courses => Endpoint::GetCourses,
    };
    // (One by one: `start` and `limit` may be values of two types.)
    let mut sink = Sink::new(opts);
    if let [s, l] = endpoint.route().params {
        check_param(s, start, &mut None, &mut sink);
        check_param(l, limit, &mut None, &mut sink);
    }
    sink.finish()
}

/// Validates the parameters of search-user. Pass `Value::Null` for an absent parameter.
///
/// Contract: each given parameter must be a string (`not_string` at `["email"]` / `["username"]`);
/// at least one must be a non-empty (after trimming) string (`email_or_username_required` at `[]`).
/// Platform: a non-empty e-mail must be plausible (`invalid_email`).
pub fn validate_search_user<J: JsonView>(email: &J, username: &J, opts: ValidateOptions) -> Report {
    report_params(Endpoint::SearchUser.params(), &[email, username], opts)
}

/// Validates the `title` keywords of search-course (path `["title"]`): a string (`not_string`)
/// that is non-empty after trimming (`required`). Contract level.
pub fn validate_search_courses(title: &impl JsonView, opts: ValidateOptions) -> Report {
    report_params(Endpoint::SearchCourses.params(), &[title], opts)
}

/// Validates an account or course id used as a path segment (get-single-user, get-single-course).
/// Path `[]`.
///
/// Contract: a string (`not_string`), non-empty after trimming (`required`), and not `.` or `..`
/// (`dot_segment`): URL parsers resolve such a segment, so the request would reach another path.
/// Every other character is percent-encoded by the planner, so `/`, `?`, `#` inside an id are fine.
/// Ids are opaque: no check of length or alphabet.
pub fn validate_id(id: &impl JsonView, opts: ValidateOptions) -> Report {
    report_params(Endpoint::GetUser.params(), &[id], opts)
}

/// Validates the body of add-multi-course-to-multi-user.
///
/// Contract: `users` an array (`not_array` at `["users"]`) of 1..=100 (`empty`, `too_many`) account
/// ids; `courses` an array of at least one course id (`not_array`, `empty` at `["courses"]`; the
/// contract sets no maximum); each id as in [`validate_id`] at `["users", i]` / `["courses", i]`.
/// Platform: the same id twice in one list (`duplicate_id`, on the later one).
pub fn validate_add_courses<J: JsonView>(users: &J, courses: &J, opts: ValidateOptions) -> Report {
    report_params(
        Endpoint::AddCoursesToUsers.params(),
        &[users, courses],
        opts,
    )
}

/// Validates the body of login-user (platform notes): `email` and `password` non-empty strings
/// (`required`, `not_string` at `["email"]` / `["password"]`, contract level). Platform: a plausible
/// e-mail (`invalid_email`). The password's length is not checked (accounts may predate the rule).
pub fn validate_login<J: JsonView>(email: &J, password: &J, opts: ValidateOptions) -> Report {
    report_params(Endpoint::Login.params(), &[email, password], opts)
}

/// `pkg-templates/limits.ts`: the contract's limits and the account fields as the package exports
/// them to JavaScript (the command line, the dashboard and users' forms read them there), from the
/// constants the core itself uses. Written by a test (`limits_ts_is_current`), which fails while
/// the committed file differs.
#[cfg(test)]
mod limits {
    use crate::interval::{CREATE_INTERVAL_MS, LOGIN_TOKEN_INTERVAL_MS, REGISTER_INTERVAL_MS};
    use crate::rules::{MAX_ITEMS, REQUIRED_FIELDS};

    fn list(items: &[&str]) -> String {
        let quoted: Vec<String> = items.iter().map(|f| format!("\"{f}\"")).collect();
        format!("[{}] as const", quoted.join(", "))
    }

    fn limits_ts() -> String {
        let consts = [
            (
                "The contract's interval between account-creation calls (create-multi-user), in ms.",
                "CREATE_INTERVAL_MS",
                CREATE_INTERVAL_MS.to_string(),
            ),
            (
                "The platform's advised interval between `registerUser` calls, in ms.",
                "REGISTER_INTERVAL_MS",
                REGISTER_INTERVAL_MS.to_string(),
            ),
            (
                "The platform's advised interval between `createLoginToken` calls, in ms.",
                "LOGIN_TOKEN_INTERVAL_MS",
                LOGIN_TOKEN_INTERVAL_MS.to_string(),
            ),
            (
                "The most accounts one create-multi-user or add-courses call takes.",
                "MAX_ITEMS_PER_CALL",
                MAX_ITEMS.to_string(),
            ),
            (
                "The largest page get-multi-user and get-multi-course serve (`limit`).",
                "MAX_PAGE",
                crate::route::MAX_PAGE.to_string(),
            ),
            (
                "An account's fields, as a create takes them: the required ones first.",
                "ACCOUNT_FIELDS",
                list(&crate::columns::FIELDS),
            ),
            (
                "The fields every new account needs.",
                "REQUIRED_FIELDS",
                list(&REQUIRED_FIELDS),
            ),
        ];
        let mut out = String::from(
            "// Generated from the core by `cargo test -p lpm-client limits_ts` (LPM_WRITE_DOCS=1\n\
             // rewrites it); do not edit by hand.\n",
        );
        for (doc, name, value) in consts {
            out.push_str(&format!("\n/** {doc} */\nexport const {name} = {value};\n"));
        }
        out
    }

    #[test]
    fn limits_ts_is_current() {
        crate::text::assert_generated("pkg-templates/limits.ts", &limits_ts(), "limits_ts");
    }
}
