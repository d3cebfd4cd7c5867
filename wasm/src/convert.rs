//! Crossing the boundary as JSON text: `JSON.stringify` / `JSON.parse` on the JS side, the
//! crate's own JSON layer (`lpm_client::json`) on ours, so the wasm carries no serde_json. What the
//! core answers (issues, error data) is JSON text the JS parses (a planned call's request is read
//! through `Pending`'s getters); nothing here builds a JS object.

#[cfg(feature = "bench-exports")]
use wasm_bindgen::prelude::*;

/// A Rust value as a plain JS value, built by `JSON.parse` (the boundary benchmark's
/// alternative; the package's exports return the text itself).
#[cfg(feature = "bench-exports")]
pub fn to_js<T: serde::Serialize + ?Sized>(value: &T) -> JsValue {
    js_sys::JSON::parse(&lpm_client::json::ser::to_string(value)).unwrap_or(JsValue::NULL)
}
