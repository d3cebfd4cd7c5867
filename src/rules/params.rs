//! The rules of the other inputs: paging, search, ids, add-courses, login. Each endpoint's
//! parameters and their rules are its [`Route`] (its module in `src/endpoint/`); one function
//! ([`Route::report`]) checks them all, for the planner and for the validators (`crate::validate`).

use super::*;
use crate::route::{Check, Param, Route};

impl Route {
    /// The issues of an endpoint's parameters' values (in its route's order).
    pub(crate) fn report<J: JsonView>(&self, values: &[&J], opts: ValidateOptions) -> Report {
        report_params(self.params, values, opts)
    }
}

/// The issues of the values of `params` (an endpoint's, in its route's order).
pub(crate) fn report_params<J: JsonView>(
    params: &[Param],
    values: &[&J],
    opts: ValidateOptions,
) -> Report {
    let mut sink = Sink::new(opts);
    // Whether an `Either` parameter is given (`None`: the endpoint has none).
    let mut either = None;
    for (param, &v) in params.iter().zip(values) {
        check_param(param, v, &mut either, &mut sink);
    }
    if either == Some(false) {
        let code = IssueCode::EmailOrUsernameRequired;
        sink.push(Vec::new(), code, Level::Contract, Field::Email, 0);
    }
    sink.finish()
}

/// Checks the value of one parameter as its [`Check`] says; `either` becomes whether an `Either`
/// parameter so far is given.
pub(crate) fn check_param<J: JsonView>(
    param: &Param,
    v: &J,
    either: &mut Option<bool>,
    sink: &mut Sink,
) {
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
