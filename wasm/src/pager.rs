//! A listing's pages (`lpm_client::paging`) as the package's `allUsers`/`allCourses` drive them:
//! the JS fetches each page and keeps the ids handed out (a JS `Set`); the core says, from the
//! page's counts, where the next page starts and when the listing ends or cannot go on.

use lpm_client::paging;
use lpm_client::Endpoint;

use wasm_bindgen::prelude::*;

use super::errors::Failure;

/// What follows the page of get-multi-user (or, `courses`, get-multi-course) fetched at `start`,
/// which held `len` records, `fresh` of them new, `seen` distinct ones handed out in all: the
/// next page's `start`, `undefined` when the list is read; throws the error that ends a listing
/// that cannot go on.
#[wasm_bindgen(js_name = afterPage)]
pub fn after_page(
    courses: bool,
    start: u32,
    len: u32,
    fresh: u32,
    seen: u32,
) -> Result<Option<u32>, String> {
    let endpoint = match courses {
        true => Endpoint::GetCourses,
        false => Endpoint::GetUsers,
    };
    paging::after_page(endpoint, start, len as usize, fresh as usize, seen as usize)
        .map_err(|e| Failure::Core(e).into_json())
}
