//! `GET courses/get-single-course/<id>`: one course by id.
//!
//! This endpoint's home: its code table, its planners (typed, and from raw JSON), and the
//! planning of its `Client` method(s) from the JavaScript's arguments. Its key and method are its
//! line in the registry (`src/endpoint.rs`); its reply type is here.

use super::prelude::*;
use serde::{Deserialize, Serialize};

use crate::model::Course;
use crate::reply::Reply;

/// No documented codes: errors are recognised by their msg only.
pub(crate) const CODES: Codes = (&[], Basis::Unknown);

/// One course (get-single-course).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct CourseReply {
    /// The course.
    pub course: Course,
    /// The envelope's msg.
    #[serde(default)]
    pub msg: String,
}
impl Reply for CourseReply {}

impl Planner {
    /// `GET courses/get-single-course/<id>`.
    pub fn get_course(&self, id: &str) -> Result<Request<CourseReply>, Error> {
        self.get_course_value(&Value::from(id))
    }

    /// [`Planner::get_course`] from raw JSON.
    pub(crate) fn get_course_value(
        &self,
        id: &impl JsonView,
    ) -> Result<Request<CourseReply>, Error> {
        let endpoint = Endpoint::GetCourse;
        let seg = self.id_segment(endpoint, id)?;
        self.request(
            endpoint,
            &cat(&["courses/get-single-course/", &seg]),
            &[],
            None,
        )
    }
}

/// `getCourse`: one course by id.
pub(crate) fn plan_js(api: &Planner, a: &Option<String>, _: &Option<String>) -> Result<Request<CourseReply>, Error> {
    api.get_course_value(&tree(Endpoint::GetCourse, a)?)
}
