//! # lpm-client
//!
//! The typed client core for the management API of an online-course platform: models of every
//! record, per-endpoint `respCode` decoding, validation for forms, request planning and response
//! decoding. Plain Rust with no I/O: you send the planned [`Request`] with any HTTP client and
//! hand the status and body back to [`Request::decode`]. The npm package's WebAssembly is a thin
//! crate over this one (`wasm/` in the repository).
//!
//! The one feature, `wasm`, adds no code: the models' TypeScript declarations (tsify and
//! wasm-bindgen's custom sections in a wasm32 build), which the npm package's crate turns on.
//!
//! ```
//! use lpm_client::{Planner, NewUser};
//!
//! let api = Planner::new("https://school.example.com").unwrap().with_token("t0k3n-0123").unwrap();
//! let req = api.get_users(0, 100).unwrap();
//! assert_eq!(req.redacted_url(),
//!     "https://school.example.com/manage/api/users/get-multi-user?token=<redacted>&start=0&limit=100");
//! let body = br#"{"respCode":"00","users":[],"msg":"Success"}"#;
//! let page = req.decode(200, body).unwrap();
//! assert!(page.users.is_empty());
//! ```

pub mod bulk;
pub mod call;
pub mod check;
pub mod codes;
pub mod columns;
pub mod decode;
pub mod endpoint;
pub mod error;
pub mod interval;
pub mod json;
pub mod model;
pub mod options;
pub mod paging;
pub mod plan;
pub mod redact;
pub mod registry;
pub mod reply;
pub mod retry;
mod route;
pub mod rules;
pub mod secret;
pub mod text;
pub mod validate;

pub use codes::{Basis, Category, CodeInfo, MsgCounts, Reason};
pub use endpoint::{
    AddCoursesReply, CourseReply, CreateCounts, CreateUsersReply, GrantCounts, RegisterReply,
    UserList,
};
pub use endpoint::{Endpoint, Method};
pub use error::{
    ApiError, ConfigError, DecodeError, Error, HttpError, TokenProblem, ValidationError,
};
pub use model::*;
pub use plan::{Planner, Request, UserPath};
pub use reply::{CourseList, LoginReply, LoginTokenReply, RawReply, UserReply};
pub use secret::Token;
pub use validate::{Issue, Lang, Level, PathSegment, Report, ValidateOptions};

/// The README's Rust example, compiled and run by `cargo test --doc` so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
