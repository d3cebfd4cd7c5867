//! `POST courses/add-multi-course-to-multi-user`: grants courses to 1 to 100 accounts.
//!
//! This endpoint's home: its code table, its planners (typed, and from raw JSON), and the
//! planning of its `Client` method(s) from the JavaScript's arguments. Its key and method are its
//! line in the registry (`src/endpoint.rs`); its reply type is in `src/reply.rs`.

use super::prelude::*;

/// This endpoint's codes (`Basis::Notes`).
pub(crate) const CODES: Codes = (
    &[
        ("02", None, Reason::NoBody),
        ("03", None, Reason::NoUsersArray),
    ],
    Basis::Notes,
);

impl Planner {
    /// `POST courses/add-multi-course-to-multi-user`: 1 to 100 accounts, at least one course.
    pub fn add_courses_to_users(
        &self,
        input: &AddCoursesInput,
    ) -> Result<Request<AddCoursesReply>, Error> {
        self.add_courses_to_users_value(
            &Value::from(input.users.clone()),
            &Value::from(input.courses.clone()),
        )
    }

    /// [`Planner::add_courses_to_users`] of ids the bulk engine has already checked one by one and
    /// across its input (1..=100 accounts, no repeat; a usable course list): not validated again.
    pub(crate) fn add_courses_checked(
        &self,
        users: &[&str],
        courses: &[String],
    ) -> Result<Request<AddCoursesReply>, Error> {
        let list = |ids: &mut dyn Iterator<Item = &str>| {
            let mut out = String::from("[");
            for (i, id) in ids.enumerate() {
                if i > 0 {
                    out.push(',');
                }
                crate::json::push_str(&mut out, id);
            }
            out.push(']');
            out
        };
        let users = list(&mut users.iter().copied());
        let courses = list(&mut courses.iter().map(String::as_str));
        self.request(
            Endpoint::AddCoursesToUsers,
            "courses/add-multi-course-to-multi-user",
            &[],
            Some(object(&[("users", &users), ("courses", &courses)])),
        )
    }

    /// [`Planner::add_courses_to_users`] from raw JSON.
    pub(crate) fn add_courses_to_users_value<J: JsonView>(
        &self,
        users: &J,
        courses: &J,
    ) -> Result<Request<AddCoursesReply>, Error> {
        let endpoint = Endpoint::AddCoursesToUsers;
        self.check(
            endpoint,
            validate::validate_add_courses(users, courses, self.opts()),
        )?;
        let body = object(&[("users", &users.to_json()), ("courses", &courses.to_json())]);
        self.request(
            endpoint,
            "courses/add-multi-course-to-multi-user",
            &[],
            Some(body),
        )
    }
}

/// `addCoursesToUsers`: grants courses to 1 to 100 accounts. Never retried.
pub(crate) fn plan_js(api: &Planner, a: &Option<String>, _: &Option<String>) -> Result<Request<AddCoursesReply>, Error> {
    let input = params_in(Endpoint::AddCoursesToUsers, a)?;
    api.add_courses_to_users_value(member(&input, "users"), member(&input, "courses"))
}
