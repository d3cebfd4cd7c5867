//! Serde models of every record of the contract and the platform notes.
//!
//! Field names on the wire are exactly the contract's. Optional fields are `Option` and omitted
//! when absent. Records that come *from* the server keep keys the contract does not list in an
//! `extra` map (`#[serde(flatten)]`): known keys still decode directly and only unknown keys are
//! buffered, so a record without extras costs nothing more, whereas keeping the raw JSON alongside
//! costs a second parse of every response (`cargo run --release --example bench_decode` compares
//! the two).
//! Request shapes (`NewUser`, `AddCoursesInput`) are strict and carry no extras.

mod account;
mod course;
mod open_enum;
mod user;

pub use account::{AddCourseOutcome, AddCoursesInput, CreatedUser, NewUser};
pub use course::{
    Affiliates, ContentItem, Course, CreditShared, DiscountTime, Doc, ImageMeta, ImageOriginal,
    ImageSet, ImageVariant, Price, Trailer, ValidCourse,
};
pub use open_enum::{AddCourseStatus, CartStatus, CourseType, CreateStatus, DocType, SourceType};
pub use user::{
    Avatar, CartItem, CurrentLesson, Enrolment, ForSeller, LessonStatus, Profile, User, UserEmail,
};

/// Keys a record carried that the contract does not list, kept as received.
pub type Extra = serde_json::Map<String, serde_json::Value>;

/// The keys of an envelope the platform does not publish (create-single-user's), kept as
/// received. The same map as [`Extra`], named apart for its TypeScript: an index signature, as
/// these keys are all such a reply carries.
pub type Unpublished = Extra;

/// An ISO 8601 UTC timestamp with milliseconds, kept as the server's string (no date library:
/// it would add size to the wasm and JS callers parse it with `new Date(..)` anyway).
pub type Timestamp = String;

/// TypeScript for the types above that are not derived. Decision: a record's extra map is no
/// index signature, so that a misspelt key fails to compile; its keys stay on the object and
/// `unlisted(record)` (pkg-templates/client.ts) types them `unknown`.
#[cfg(feature = "wasm")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TS_EXTRA: &str = r#"
/** The keys of a record that the contract does not list. They are on the object as received,
 * but not in its type, so that a misspelt key is a compile error: `unlisted(record)` reads them. */
export interface Extra {}
/** The keys of a reply the platform does not publish, kept as received (`unknown` until it does). */
export type Unpublished = Record<string, unknown>;
/** An ISO 8601 UTC timestamp with milliseconds (`2024-09-05T08:10:31.207Z`). */
export type Timestamp = string;
"#;
