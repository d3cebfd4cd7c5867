//! `GET courses/get-multi-course`: a page of courses.
//!
//! This endpoint's home: its code table, its request (`ROUTE`: the path, and each parameter with
//! its rules and its place, which the one planner and the validators read) and its typed planner.
//! Its key, method, reply type and `Client` method(s) are its line in the registry
//! (`src/registry.rs`); its reply type is in `src/reply.rs` (shared).

use super::prelude::*;

/// No documented codes: errors are recognised by their msg only.
pub(crate) const CODES: Codes = (&[], Basis::Unknown);

/// The request: a page, `limit` 0..=100.
pub(crate) const ROUTE: Route = Route {
    path: "courses/get-multi-course",
    params: &[Param::START, Param::limit(0)],
};

impl Planner {
    /// `GET courses/get-multi-course`: `start` >= 0, `limit` 0..=100.
    pub fn get_courses(&self, start: u64, limit: u32) -> Result<Request<CourseList>, Error> {
        self.plan::<Value>(Endpoint::GetCourses, &[&start.into(), &limit.into()])
            .map(Request::cast)
    }
}
