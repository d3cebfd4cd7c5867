//! Account creation, add-courses and login shapes.

use serde::{Deserialize, Serialize};

use super::{AddCourseStatus, CreateStatus, Extra};

/// One account to create (element of `users` in the create request). Strict: a key not listed
/// here is refused (`unknown_field`).
// Request shapes are flat and carry no extra map.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct NewUser {
    /// Display name (required).
    pub name: String,
    /// Login name, unique (required).
    pub username: String,
    /// E-mail address, unique (required).
    pub email: String,
    /// Password (required).
    pub password: String,
    /// Phone number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(type = "string | undefined"))]
    pub phone: Option<String>,
    /// City.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(type = "string | undefined"))]
    pub city: Option<String>,
    /// District.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(type = "string | undefined"))]
    pub district: Option<String>,
    /// Street.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(type = "string | undefined"))]
    pub street: Option<String>,
    /// Gender; the platform's UI uses `Nam` / `Nữ`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(type = "string | undefined"))]
    pub gender: Option<String>,
    /// Job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(type = "string | undefined"))]
    pub job: Option<String>,
}

impl core::fmt::Debug for NewUser {
    /// The password is never printed.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("NewUser")
            .field("name", &self.name)
            .field("username", &self.username)
            .field("email", &self.email)
            .field("password", &"<redacted>")
            .finish_non_exhaustive()
    }
}

/// Per-item outcome of account creation (element of `users` in the create response).
#[derive(Clone, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CreatedUser {
    /// Echo of the submitted name; absent when not sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Echo of the submitted username; absent when not sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// Echo of the submitted e-mail; absent when not sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Echo of the submitted password; absent when not sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
    /// Identifier of the new account; `null` when the item failed.
    #[serde(default)]
    #[cfg_attr(feature = "wasm", tsify(type = "string | null"))]
    pub user_id: Option<String>,
    /// Whether the account was created.
    #[shape(tally)]
    pub success: bool,
    /// Outcome (open set, platform spellings).
    pub status: CreateStatus,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

impl core::fmt::Debug for CreatedUser {
    /// The echoed password is never printed.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CreatedUser")
            .field("username", &self.username)
            .field("email", &self.email)
            .field("user_id", &self.user_id)
            .field("success", &self.success)
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

/// Per-account outcome of add-courses (element of `result`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct AddCourseOutcome {
    /// The account.
    pub user_id: String,
    /// Whether the account received the courses.
    #[shape(tally)]
    pub success: bool,
    /// Outcome (open set; `Success` is the one shown).
    pub status: AddCourseStatus,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Body of add-courses: account ids and course ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct AddCoursesInput {
    /// Account identifiers (1 to 100).
    pub users: Vec<String>,
    /// Course identifiers (at least one).
    pub courses: Vec<String>,
}
