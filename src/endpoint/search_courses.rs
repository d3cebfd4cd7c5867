//! `GET courses/search-course`: courses whose title matches the keywords.
//!
//! This endpoint's home: its code table, its request (`ROUTE`: the path, and each parameter with
//! its rules and its place, which the one planner and the validators read) and its typed planner.
//! Its key, method, reply type and `Client` method(s) are its line in the registry
//! (`src/registry.rs`); its reply type is in `src/reply.rs` (shared).

use super::prelude::*;

/// No documented codes: errors are recognised by their msg only.
pub(crate) const CODES: Codes = (&[], Basis::Unknown);

/// The request: `title`, the keywords, not blank.
pub(crate) const ROUTE: Route = Route {
    path: "courses/search-course",
    params: &[Param {
        name: "title",
        check: Check::Text,
        to: To::Query,
    }],
};

impl Planner {
    /// `GET courses/search-course?title=<keywords>`.
    pub fn search_courses(&self, title: &str) -> Result<Request<CourseList>, Error> {
        self.plan(Endpoint::SearchCourses, &[&Value::from(title)])
            .map(Request::cast)
    }
}
