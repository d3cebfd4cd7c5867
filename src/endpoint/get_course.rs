//! `GET courses/get-single-course/<id>`: one course by id.
//!
//! This endpoint's home: its code table, its request (`ROUTE`: the path, and each parameter with
//! its rules and its place, which the one planner and the validators read) and its typed planner.
//! Its key, method, reply type and `Client` method(s) are its line in the registry
//! (`src/registry.rs`); its reply type is here.

use super::prelude::*;
use serde::{Deserialize, Serialize};

use crate::model::Course;
use crate::reply::Reply;

/// No documented codes: errors are recognised by their msg only.
pub(crate) const CODES: Codes = (&[], Basis::Unknown);

/// One course (get-single-course).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct CourseReply {
    /// The course.
    pub course: Course,
    /// The envelope's msg.
    #[serde(default)]
    pub msg: String,
}
impl Reply for CourseReply {}

/// The request: the id as the path's last segment.
pub(crate) const ROUTE: Route = Route {
    path: "courses/get-single-course/",
    params: &[Param {
        name: "id",
        check: Check::Id,
        to: To::Segment,
    }],
};

impl Planner {
    /// `GET courses/get-single-course/<id>`.
    pub fn get_course(&self, id: &str) -> Result<Request<CourseReply>, Error> {
        self.plan(Endpoint::GetCourse, &[&Value::from(id)])
            .map(Request::cast)
    }
}
