//! The course record and its parts.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{CourseType, DocType, Extra, SourceType, Timestamp};

/// A course as the course endpoints return it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Course {
    /// Course identifier (`_id`).
    #[serde(rename = "_id")]
    pub id: String,
    /// Reference code.
    pub ref_id: String,
    /// Title.
    pub title: String,
    /// URL slug.
    pub slug: String,
    /// Approved for sale.
    pub approval: bool,
    /// Course type (open set: SALE, UPCOMMING, ...).
    #[serde(rename = "type")]
    pub course_type: CourseType,
    /// Label (free text; the contract lists no values).
    pub label: String,
    /// Headline.
    pub headline: String,
    /// Description, HTML.
    pub description: String,
    /// Requirements, HTML.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requirement: Option<String>,
    /// Combos the course is part of (element shape not shown by the contract).
    #[cfg_attr(feature = "wasm", tsify(type = "unknown[]"))]
    pub in_combo: Vec<Value>,
    /// What the learner gets; an element may be `{}`.
    pub purpose: Vec<ContentItem>,
    /// Who the course is for; an element may be `{}`.
    #[serde(rename = "target_audience")]
    pub target_audience: Vec<ContentItem>,
    /// Tags (element shape not shown by the contract).
    #[cfg_attr(feature = "wasm", tsify(type = "unknown[]"))]
    pub tag: Vec<Value>,
    /// Category identifiers.
    pub category: Vec<String>,
    /// Instructor identifiers.
    pub instructor: Vec<String>,
    /// Topic identifier.
    pub topic: String,
    /// Chapter identifiers.
    pub chapters: Vec<String>,
    /// Created.
    pub created_at: Timestamp,
    /// Last updated.
    pub updated_at: Timestamp,
    /// Trailer video.
    pub trailer: Trailer,
    /// Pricing.
    pub price: Price,
    /// Affiliate settings; may be `{}`.
    pub affiliates: Affiliates,
    /// Credit sharing.
    #[serde(rename = "credit_shared")]
    pub credit_shared: CreditShared,
    /// Detail image set.
    #[serde(
        rename = "image_detail",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub image_detail: Option<ImageSet>,
    /// Primary image set.
    #[serde(
        rename = "image_primary",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub image_primary: Option<ImageSet>,
    /// Documents attached to the course.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub docs: Option<Vec<Doc>>,
    /// Fields the contract does not list, kept as received.
    #[serde(flatten)]
    pub extra: Extra,
}

/// An element of `purpose` or `target_audience`: `{content}` or an empty object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct ContentItem {
    /// The text; absent when the element is `{}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `trailer`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Trailer {
    /// Upload path, embed URL, or the third-party host's video number.
    pub source: String,
    /// How `source` is to be read (open set).
    pub source_type: SourceType,
    /// Source name.
    pub source_name: String,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `price`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct Price {
    /// Price (VND); 0 occurs.
    pub original: f64,
    /// Discount switch; `null` occurs.
    #[serde(default)]
    #[cfg_attr(feature = "wasm", tsify(type = "boolean | null"))]
    pub discount_enable: Option<bool>,
    /// Private discount switch; `null` occurs.
    #[serde(default)]
    #[cfg_attr(feature = "wasm", tsify(type = "boolean | null"))]
    pub use_private_discount: Option<bool>,
    /// Private discount price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_discount_price: Option<f64>,
    /// Private discount window, or `{}` (both fields absent).
    pub private_discount_time: DiscountTime,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `price.private_discount_time`: `{start, end}` or an empty object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct DiscountTime {
    /// Start of the window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Timestamp>,
    /// End of the window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<Timestamp>,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `affiliates`: every field optional; the object may be empty.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[cfg_attr(feature = "wasm", tsify(hashmap_as_object))]
pub struct Affiliates {
    /// Affiliate programme on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enable: Option<bool>,
    /// Use private settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_private: Option<bool>,
    /// Use the basic discount percent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_basic_discount_percent: Option<bool>,
    /// Basic discount percent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basic_discount_percent: Option<f64>,
    /// Use the basic payout percent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_basic_payout_percent: Option<bool>,
    /// Payout per level name (`L1`, ...); may be empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basic_payout_value: Option<BTreeMap<String, f64>>,
    /// Payout percents (shape not shown by the contract); may be empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm", tsify(type = "Record<string, unknown>"))]
    pub basic_payout_percent: Option<Extra>,
    /// Basic discount price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basic_discount_price: Option<f64>,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `credit_shared`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct CreditShared {
    /// Credit sharing on.
    pub enable: bool,
    /// Use the private value.
    pub use_private_value: bool,
    /// The value.
    pub value: f64,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// An image set (`image_detail`, `image_primary`). Members are optional: a set may be partial
/// while thumbnails are still being made (a decision of ours; the contract lists all three).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct ImageSet {
    /// The uploaded original.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original: Option<ImageOriginal>,
    /// 160-pixel thumbnail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thumbnail160: Option<ImageVariant>,
    /// Preview size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<ImageVariant>,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `original` member of an image set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct ImageOriginal {
    /// Storage path.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// MIME type.
    #[serde(rename = "type")]
    pub mime_type: String,
    /// File extension.
    pub extension: String,
    /// Pipeline metadata.
    pub meta: ImageMeta,
    /// Public URL.
    pub url: String,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `thumbnail160` / `preview` member of an image set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct ImageVariant {
    /// Pipeline metadata.
    pub meta: ImageMeta,
    /// Public URL.
    pub url: String,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// `meta` of an image.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ImageMeta {
    /// Pipeline path.
    pub pipe_path: String,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One item of `docs`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Doc {
    /// Title.
    pub title: String,
    /// Document type (open set: VIDEO, PDF, ...).
    #[serde(rename = "type")]
    pub doc_type: DocType,
    /// Source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// How `source` is to be read (open set).
    pub source_type: SourceType,
    /// Source name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_name: Option<String>,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}

/// An item of `validCourses` in the add-courses response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, lpm_derive::Shape)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct ValidCourse {
    /// Course identifier.
    #[serde(rename = "_id")]
    pub id: String,
    /// Title.
    pub title: String,
    /// Fields the contract does not list.
    #[serde(flatten)]
    pub extra: Extra,
}
