//! The rules of the other inputs: paging, search, ids, add-courses, login.

use super::*;

/// Checks an optional integer parameter: `null` (absent) passes.
pub(super) fn check_int(
    v: &impl JsonView,
    name: &str,
    field: Field,
    min: i128,
    max: Option<i128>,
    sink: &mut Sink,
) {
    if v.is_null() {
        return;
    }
    let path = vec![key(name)];
    match v.as_integer() {
        None => sink.push(path, IssueCode::NotInteger, Level::Contract, field, 0),
        Some(n) if n < min => sink.push(
            path,
            IssueCode::TooSmall,
            Level::Contract,
            field,
            bound(min),
        ),
        Some(n) => {
            if let Some(max) = max.filter(|&m| n > m) {
                sink.push(
                    path,
                    IssueCode::TooLarge,
                    Level::Contract,
                    field,
                    bound(max),
                );
            }
        }
    }
}

/// A (small, non-negative) bound as a message number.
pub(super) fn bound(n: i128) -> usize {
    usize::try_from(n).unwrap_or(0)
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
    let mut sink = Sink::new(opts);
    let min_limit = match endpoint {
        PageKind::Users => 1,
        PageKind::Courses => 0,
    };
    check_int(start, "start", Field::Start, 0, None, &mut sink);
    check_int(
        limit,
        "limit",
        Field::Limit,
        min_limit,
        Some(MAX_LIMIT),
        &mut sink,
    );
    sink.finish()
}

/// Validates the parameters of search-user. Pass `Value::Null` for an absent parameter.
///
/// Contract: each given parameter must be a string (`not_string` at `["email"]` / `["username"]`);
/// at least one must be a non-empty (after trimming) string (`email_or_username_required` at `[]`).
/// Platform: a non-empty e-mail must be plausible (`invalid_email`).
pub fn validate_search_user<J: JsonView>(email: &J, username: &J, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    let mut has_one = false;
    for (name, value, field) in [
        ("email", email, Field::Email),
        ("username", username, Field::Username),
    ] {
        match value.kind() {
            Kind::Null => {}
            Kind::Str(s) => {
                if !crate::text::trim(s).is_empty() {
                    has_one = true;
                    if field == Field::Email && !plausible_email(s) {
                        sink.push(
                            vec![key(name)],
                            IssueCode::InvalidEmail,
                            Level::Platform,
                            field,
                            0,
                        );
                    }
                }
            }
            _ => sink.push(
                vec![key(name)],
                IssueCode::NotString,
                Level::Contract,
                field,
                0,
            ),
        }
    }
    if !has_one {
        sink.push(
            Vec::new(),
            IssueCode::EmailOrUsernameRequired,
            Level::Contract,
            Field::Email,
            0,
        );
    }
    sink.finish()
}

/// Validates the `title` keywords of search-course (path `["title"]`): a string (`not_string`)
/// that is non-empty after trimming (`required`). Contract level.
pub fn validate_search_courses(title: &impl JsonView, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    required_str(Some(title), vec![key("title")], Field::Title, &mut sink);
    sink.finish()
}

/// Checks one id at `path`; returns it when it is usable.
pub(super) fn check_id<'a, J: JsonView>(
    v: &'a J,
    path: Vec<PathSegment>,
    field: Field,
    sink: &mut Sink,
) -> Option<&'a str> {
    let id = required_str(Some(v), path.clone(), field, sink)?;
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
    let mut sink = Sink::new(opts);
    check_id(id, Vec::new(), Field::Id, &mut sink);
    sink.finish()
}

/// Checks an id list of add-courses under `name`.
pub(super) fn check_id_list(
    list: &impl JsonView,
    name: &str,
    list_field: Field,
    item_field: Field,
    max: Option<usize>,
    sink: &mut Sink,
) {
    let Kind::Arr(ids) = list.kind() else {
        sink.push(
            vec![key(name)],
            IssueCode::NotArray,
            Level::Contract,
            list_field,
            0,
        );
        return;
    };
    if ids.is_empty() {
        sink.push(
            vec![key(name)],
            IssueCode::Empty,
            Level::Contract,
            list_field,
            0,
        );
    }
    if let Some(max) = max.filter(|&m| ids.len() > m) {
        sink.push(
            vec![key(name)],
            IssueCode::TooMany,
            Level::Contract,
            list_field,
            max,
        );
    }
    let firsts = FirstSeen::earlier(ids.len(), &mut ids.iter().map(|v| v.as_str()));
    for (i, v) in ids.iter().enumerate() {
        let path = vec![key(name), PathSegment::Index(i)];
        if check_id(v, path.clone(), item_field, sink).is_some() {
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
    let mut sink = Sink::new(opts);
    check_id_list(
        users,
        "users",
        Field::AccountIds,
        Field::AccountId,
        Some(MAX_ITEMS),
        &mut sink,
    );
    check_id_list(
        courses,
        "courses",
        Field::CourseIds,
        Field::CourseId,
        None,
        &mut sink,
    );
    sink.finish()
}

/// Validates the body of login-user (platform notes): `email` and `password` non-empty strings
/// (`required`, `not_string` at `["email"]` / `["password"]`, contract level). Platform: a plausible
/// e-mail (`invalid_email`). The password's length is not checked (accounts may predate the rule).
pub fn validate_login<J: JsonView>(email: &J, password: &J, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    if let Some(e) = required_str(Some(email), vec![key("email")], Field::Email, &mut sink) {
        if !plausible_email(e) {
            sink.push(
                vec![key("email")],
                IssueCode::InvalidEmail,
                Level::Platform,
                Field::Email,
                0,
            );
        }
    }
    required_str(
        Some(password),
        vec![key("password")],
        Field::Password,
        &mut sink,
    );
    sink.finish()
}
