//! The user record returned by the read and search endpoints.

use serde::{Deserialize, Serialize};

use super::{CartStatus, Extra, Timestamp};

/// An account as the read and search endpoints return it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct User {
    /// Account identifier (`_id`).
    #[serde(rename = "_id")]
    pub id: String,
    /// When the account was created.
    pub created_at: Timestamp,
    /// Login name.
    pub username: String,
    /// E-mail addresses of the account.
    pub emails: Vec<UserEmail>,
    /// Profile; always has `name`.
    pub profile: Profile,
    /// Seller settings; shown for the caller's own account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_seller: Option<ForSeller>,
    /// Course enrolments. Optional in every reply with a user record, the lists (`getUsers`,
    /// `allUsers`) included: the contract promises them in none, so absent means "not sent", not
    /// "no courses"; `getUser(id)` is the call to ask for one account's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub my_courses: Option<Vec<Enrolment>>,
    /// Cart entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub my_cart: Option<Vec<CartItem>>,
    /// Balance; an empty object for the caller's own account. Inner fields are not shown by the contract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(type = "Record<string, unknown>"))]
    pub balance: Option<Extra>,
    /// Transaction identifiers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub my_transactions: Option<Vec<String>>,
    /// Fields the contract does not list, kept as received.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One e-mail address of an account.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct UserEmail {
    /// The address.
    pub address: String,
    /// Whether it was verified.
    pub verified: bool,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `profile` of a user record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    /// Display name.
    pub name: String,
    /// Phone number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// Avatar image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avatar: Option<Avatar>,
    /// Affiliate user type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aff_user_type: Option<String>,
    /// `tUid`; may be the empty string.
    #[serde(default, rename = "tUid", skip_serializing_if = "Option::is_none")]
    pub t_uid: Option<String>,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `profile.avatar`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Avatar {
    /// Image identifier.
    pub image_id: String,
    /// Image URL.
    pub image_link: String,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `forSeller` of the caller's own account.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ForSeller {
    /// Call distribution coefficient.
    pub call_distr_coeff: f64,
    /// Whether the seller gets calls.
    pub get_call: bool,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One course enrolment (`myCourses` item).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Enrolment {
    /// The enrolled course.
    pub course_id: String,
    /// When access began.
    pub activated_date: Timestamp,
    /// When access ends (typically 36,500 days after activation).
    pub expired_at: Timestamp,
    /// Where the learner stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_lesson: Option<CurrentLesson>,
    /// Per-lesson completion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson_status: Option<Vec<LessonStatus>>,
    /// Course finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish: Option<bool>,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `currentLesson` of an enrolment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CurrentLesson {
    /// Chapter identifier.
    pub chapter_id: String,
    /// Lesson identifier.
    pub lesson_id: String,
    /// Lesson slug.
    pub lesson_slug: String,
    /// Playback position.
    pub current_time: f64,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One item of `lessonStatus`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct LessonStatus {
    /// Lesson identifier.
    pub lesson_id: String,
    /// Lesson finished.
    pub finish: bool,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One item of `myCart`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CartItem {
    /// Course in the cart.
    pub course_id: String,
    /// Entry status (open set; `DELETED` is the one shown).
    pub status: CartStatus,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}
