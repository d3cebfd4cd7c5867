//! Crossing the boundary as JSON text: `JSON.stringify` / `JSON.parse` on the JS side, the
//! crate's own JSON layer (`crate::json`) on ours, so the wasm carries no serde_json.

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// JSON text as a JS value (`null` should the text not parse, which ours always does).
pub fn parse_js(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap_or(JsValue::NULL)
}

/// A Rust value as a plain JS value (objects, arrays, strings, numbers, booleans, null).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    parse_js(&crate::json::ser::to_string(value))
}

/// The JSON text the package's JS wrote for a caller's value (`toJson` in lib.js: `undefined`
/// is `"null"`), or `None` when the value cannot be written as JSON (a cycle, a BigInt, NaN or
/// an infinity anywhere in it).
pub fn json_text(value: &JsValue) -> Option<String> {
    value.as_string()
}

/// Reads `obj[key]`, `undefined` when `obj` is not an object.
pub fn get(obj: &JsValue, key: &str) -> JsValue {
    if !obj.is_object() {
        return JsValue::UNDEFINED;
    }
    js_sys::Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}
