//! How an endpoint's request is made from its parameters, as data: each endpoint's module in
//! `src/endpoint/` writes its [`Route`], which the one planner (`Planner::plan`, above) and the
//! one checker (`Route::report`, in `src/rules/`) read.

/// The largest `limit` the list endpoints take, and the most items a bulk call takes.
pub const MAX_PAGE: u32 = 100;

/// How an endpoint's request is made from its parameters: its line of data (in its module in
/// `src/endpoint/`), which [`Planner::plan`] reads, and validation ([`Route::report`]) too.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Route {
    /// The path after the API prefix (a [`To::Segment`] parameter is appended to it).
    pub(crate) path: &'static str,
    /// The parameters, in the order the typed planner takes them (and the JS passes them).
    pub(crate) params: &'static [Param],
}

/// One parameter of an endpoint: its name (the member of a parameters object or of the body,
/// the query parameter, the last key of its issues' path), its rules and its place.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Param {
    pub(crate) name: &'static str,
    pub(crate) check: Check,
    pub(crate) to: To,
}

impl Param {
    /// A page's `start`: an integer >= 0, 0 when absent (always sent: get-multi-user requires it).
    pub(crate) const START: Param = Param {
        name: "start",
        check: Check::Int(0, None),
        to: To::Int(0),
    };

    /// A page's `limit`: an integer in `min..=100`, 100 when absent.
    pub(crate) const fn limit(min: u32) -> Param {
        Param {
            name: "limit",
            check: Check::Int(min, Some(MAX_PAGE)),
            to: To::Int(MAX_PAGE),
        }
    }
}

/// Where a parameter goes in the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum To {
    /// The path's last segment, percent-encoded.
    Segment,
    /// A query parameter (a string), left out when blank.
    Query,
    /// An integer query parameter, with its value when absent.
    Int(u32),
    /// A member of the JSON body, as the caller wrote it.
    Body,
    /// The JSON body, as the caller wrote it.
    Whole,
}

/// The rules of a parameter (the issues are `src/rules/params.rs`'s, labelled by its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Check {
    /// The accounts of a bulk create ([`crate::rules::validate_create_users`]).
    Accounts,
    /// One account ([`crate::rules::validate_create_user`]).
    Account,
    /// An optional integer in `min..=max` (`None`: no maximum).
    Int(u32, Option<u32>),
    /// A string that is not blank; an `email` is also a plausible address (platform level).
    Text,
    /// An optional string; at least one of the endpoint's must be given (`email`, `username`).
    Either,
    /// An account or course id (path `[]`, whatever the parameter's name).
    Id,
    /// A list of ids: 1 to `max` (`None`: no maximum), `users` of accounts, `courses` of courses.
    Ids(Option<u32>),
}
