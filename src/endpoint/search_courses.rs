//! `GET courses/search-course`: courses whose title matches the keywords.
//!
//! This endpoint's home: its code table, its planners (typed, and from raw JSON), and the
//! planning of its `Client` method(s) from the JavaScript's arguments. Its key and method are its
//! line in the registry (`src/endpoint.rs`); its reply type is in `src/reply.rs` (shared).

use super::prelude::*;

/// No documented codes: errors are recognised by their msg only.
pub(crate) const CODES: Codes = (&[], Basis::Unknown);

impl Planner {
    /// `GET courses/search-course?title=<keywords>`.
    pub fn search_courses(&self, title: &str) -> Result<Request<CourseList>, Error> {
        self.search_courses_value(&Value::from(title))
    }

    /// [`Planner::search_courses`] from raw JSON.
    pub(crate) fn search_courses_value(
        &self,
        title: &impl JsonView,
    ) -> Result<Request<CourseList>, Error> {
        let endpoint = Endpoint::SearchCourses;
        self.check(
            endpoint,
            validate::validate_search_courses(title, self.opts()),
        )?;
        let title = title.as_str().unwrap_or_default();
        self.request(endpoint, "courses/search-course", &[("title", title)], None)
    }
}

/// `searchCourses`: courses whose title matches the keywords.
pub(crate) fn plan_js(api: &Planner, a: &Option<String>, _: &Option<String>) -> Result<Request<CourseList>, Error> {
    api.search_courses_value(&tree(Endpoint::SearchCourses, a)?)
}
