//! `GET courses/get-multi-course`: a page of courses.
//!
//! This endpoint's home: its code table, its planners (typed, and from raw JSON), and the
//! planning of its `Client` method(s) from the JavaScript's arguments. Its key and method are its
//! line in the registry (`src/endpoint.rs`); its reply type is in `src/reply.rs` (shared).

use super::prelude::*;

/// No documented codes: errors are recognised by their msg only.
pub(crate) const CODES: Codes = (&[], Basis::Unknown);

impl Planner {
    /// `GET courses/get-multi-course`: `start` >= 0, `limit` 0..=100.
    pub fn get_courses(&self, start: u64, limit: u32) -> Result<Request<CourseList>, Error> {
        self.get_courses_value::<Value>(&start.into(), &limit.into())
    }

    /// [`Planner::get_courses`] from raw JSON; `null` start or limit means 0 and 100.
    pub(crate) fn get_courses_value<J: JsonView>(
        &self,
        start: &J,
        limit: &J,
    ) -> Result<Request<CourseList>, Error> {
        let endpoint = Endpoint::GetCourses;
        let (s, l) = self.page(endpoint, PageKind::Courses, start, limit)?;
        self.request(
            endpoint,
            "courses/get-multi-course",
            &[("start", &s), ("limit", &l)],
            None,
        )
    }
}

/// `getCourses`: `start` defaults to 0, `limit` (0..100) to 100.
pub(crate) fn plan_js(api: &Planner, a: &Option<String>, _: &Option<String>) -> Result<Request<CourseList>, Error> {
    let page = params_in(Endpoint::GetCourses, a)?;
    api.get_courses_value(member(&page, "start"), member(&page, "limit"))
}
