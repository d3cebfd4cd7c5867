//! The rules of the other inputs: paging, search, ids, add-courses, login. Each endpoint's
//! parameters and their rules are its [`Route`] (its module in `src/endpoint/`); one function
//! ([`Route::report`]) checks them all, for the planner and for the validators below.

use super::*;
use crate::endpoint::Endpoint;
use crate::plan::{Check, Param, Route};

impl Route {
    /// The issues of an endpoint's parameters' values (in its route's order).
    pub(crate) fn report<J: JsonView>(&self, values: &[&J], opts: ValidateOptions) -> Report {
        let mut sink = Sink::new(opts);
        // Whether an `Either` parameter is given (`None`: the endpoint has none).
        let mut either = None;
        for (param, &v) in self.params.iter().zip(values) {
            check_param(param, v, &mut either, &mut sink);
        }
        if either == Some(false) {
            let code = IssueCode::EmailOrUsernameRequired;
            sink.push(Vec::new(), code, Level::Contract, Field::Email, 0);
        }
        sink.finish()
    }
}

/// Checks the value of one parameter as its [`Check`] says; `either` becomes whether an `Either`
/// parameter so far is given.
fn check_param<J: JsonView>(param: &Param, v: &J, either: &mut Option<bool>, sink: &mut Sink) {
    let name = param.name;
    let at = At {
        prefix: &[],
        key: name,
    };
    let field = label(name);
    let opts = sink.opts;
    let text = match param.check {
        // (An account list, or an account, is its endpoint's only parameter.)
        Check::Accounts => {
            sink.issues = validate_create_users(v, opts).issues;
            None
        }
        Check::Account => {
            sink.issues = validate_create_user(v, opts).issues;
            None
        }
        Check::Int(min, max) => {
            check_int(v, at, field, min, max, sink);
            None
        }
        Check::Text => required_str(Some(v), at, field, sink),
        Check::Either => {
            let given = either.get_or_insert(false);
            match v.kind() {
                Kind::Null => None,
                Kind::Str(s) if crate::text::trim(s).is_empty() => None,
                Kind::Str(s) => {
                    *given = true;
                    Some(s)
                }
                _ => {
                    let code = IssueCode::NotString;
                    sink.push(at, code, Level::Contract, field, 0);
                    None
                }
            }
        }
        Check::Id => {
            check_id(v, IdAt(None), Field::Id, sink);
            None
        }
        Check::Ids(max) => {
            let (list, item) = match name {
                "users" => (Field::AccountIds, Field::AccountId),
                _ => (Field::CourseIds, Field::CourseId),
            };
            check_id_list(v, name, list, item, max, sink);
            None
        }
    };
    // An e-mail given (to search by, or to log in with) should look like an address.
    if field == Field::Email && text.is_some_and(|s| !plausible_email(s)) {
        let code = IssueCode::InvalidEmail;
        sink.push(at, code, Level::Platform, field, 0);
    }
}

/// What a parameter's messages call it, from its name.
fn label(name: &str) -> Field {
    match name {
        "start" => Field::Start,
        "limit" => Field::Limit,
        "title" => Field::Title,
        _ => Field::of_key(name),
    }
}

/// Checks an optional integer parameter in `min..=max`: `null` (absent) passes.
fn check_int(
    v: &impl JsonView,
    path: At<'_>,
    field: Field,
    min: u32,
    max: Option<u32>,
    sink: &mut Sink,
) {
    if v.is_null() {
        return;
    }
    let (code, n) = match v.as_integer() {
        None => (IssueCode::NotInteger, 0),
        Some(n) if n < i128::from(min) => (IssueCode::TooSmall, min),
        Some(n) => match max.filter(|&m| n > i128::from(m)) {
            Some(max) => (IssueCode::TooLarge, max),
            None => return,
        },
    };
    sink.push(path, code, Level::Contract, field, n as usize);
}

/// A parameters object (`{start, limit}`, `{email, username}`, `{users, courses}`, ...): an
/// object, or `null`/absent where every parameter may be absent. Anything else is refused here,
/// before its keys are read (reading `"x"["start"]` would find nothing and pass).
pub fn validate_params(params: &impl JsonView, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    if !(params.is_object() || params.is_null()) {
        sink.push(
            Vec::new(),
            IssueCode::ParamsNotObject,
            Level::Contract,
            Field::Item,
            0,
        );
    }
    sink.finish()
}

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
    Endpoint::SearchUser
        .route()
        .report(&[email, username], opts)
}

/// Validates the `title` keywords of search-course (path `["title"]`): a string (`not_string`)
/// that is non-empty after trimming (`required`). Contract level.
pub fn validate_search_courses(title: &impl JsonView, opts: ValidateOptions) -> Report {
    Endpoint::SearchCourses.route().report(&[title], opts)
}

/// Where an id is: `[]` (the one id of a path or a body) or `[name, i]` (an item of an id list),
/// the path built only when an issue is pushed.
#[derive(Clone, Copy)]
struct IdAt(Option<(&'static str, usize)>);

impl From<IdAt> for Vec<PathSegment> {
    fn from(at: IdAt) -> Vec<PathSegment> {
        match at.0 {
            None => Vec::new(),
            Some((name, i)) => vec![key(name), PathSegment::Index(i)],
        }
    }
}

/// Checks one id at `path`; returns it when it is usable.
fn check_id<'a, J: JsonView>(
    v: &'a J,
    path: IdAt,
    field: Field,
    sink: &mut Sink,
) -> Option<&'a str> {
    let id = required_str(Some(v), path, field, sink)?;
    // Trimmed too, so that a planner or server that trims cannot turn " .. " into "..".
    if matches!(crate::text::trim(id), "." | "..") {
        sink.push(path, IssueCode::DotSegment, Level::Contract, field, 0);
        return None;
    }
    Some(id)
}

/// Validates an account or course id used as a path segment (get-single-user, get-single-course).
/// Path `[]`.
///
/// Contract: a string (`not_string`), non-empty after trimming (`required`), and not `.` or `..`
/// (`dot_segment`): URL parsers resolve such a segment, so the request would reach another path.
/// Every other character is percent-encoded by the planner, so `/`, `?`, `#` inside an id are fine.
/// Ids are opaque: no check of length or alphabet.
pub fn validate_id(id: &impl JsonView, opts: ValidateOptions) -> Report {
    Endpoint::GetUser.route().report(&[id], opts)
}

/// Checks an id list of add-courses under `name`.
fn check_id_list(
    list: &impl JsonView,
    name: &'static str,
    list_field: Field,
    item_field: Field,
    max: Option<u32>,
    sink: &mut Sink,
) {
    let at = At {
        prefix: &[],
        key: name,
    };
    let Kind::Arr(ids) = list.kind() else {
        sink.push(at, IssueCode::NotArray, Level::Contract, list_field, 0);
        return;
    };
    if ids.is_empty() {
        sink.push(at, IssueCode::Empty, Level::Contract, list_field, 0);
    }
    if let Some(max) = max.filter(|&m| ids.len() > m as usize) {
        let code = IssueCode::TooMany;
        sink.push(at, code, Level::Contract, list_field, max as usize);
    }
    let firsts = FirstSeen::earlier(ids.len(), &mut ids.iter().map(|v| v.as_str()));
    for (i, v) in ids.iter().enumerate() {
        let path = IdAt(Some((name, i)));
        if check_id(v, path, item_field, sink).is_some() {
            if let Some(&Some(first)) = firsts.get(i) {
                sink.push(
                    path,
                    IssueCode::DuplicateId,
                    Level::Platform,
                    item_field,
                    first + 1,
                );
            }
        }
    }
}

/// Validates the body of add-multi-course-to-multi-user.
///
/// Contract: `users` an array (`not_array` at `["users"]`) of 1..=100 (`empty`, `too_many`) account
/// ids; `courses` an array of at least one course id (`not_array`, `empty` at `["courses"]`; the
/// contract sets no maximum); each id as in [`validate_id`] at `["users", i]` / `["courses", i]`.
/// Platform: the same id twice in one list (`duplicate_id`, on the later one).
pub fn validate_add_courses<J: JsonView>(users: &J, courses: &J, opts: ValidateOptions) -> Report {
    Endpoint::AddCoursesToUsers
        .route()
        .report(&[users, courses], opts)
}

/// Validates the body of login-user (platform notes): `email` and `password` non-empty strings
/// (`required`, `not_string` at `["email"]` / `["password"]`, contract level). Platform: a plausible
/// e-mail (`invalid_email`). The password's length is not checked (accounts may predate the rule).
pub fn validate_login<J: JsonView>(email: &J, password: &J, opts: ValidateOptions) -> Report {
    Endpoint::Login.route().report(&[email, password], opts)
}
