//! Crossing the boundary as JSON text.

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// A Rust value as a plain JS value (objects, arrays, strings, numbers, booleans, null).
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| JsValue::from_str(&e.to_string()))?;
    js_sys::JSON::parse(&text)
}

/// A JS value as JSON, the way `JSON.stringify` sees it (`undefined` is `null`). `None` when it
/// cannot be written as JSON (a cycle, a BigInt, NaN or an infinity anywhere in it).
pub fn from_js(value: &JsValue) -> Option<Value> {
    if value.is_undefined() {
        return Some(Value::Null);
    }
    serde_json::from_str(&super::host::to_json(value)?).ok()
}

/// Reads `obj[key]`, `undefined` when `obj` is not an object.
pub fn get(obj: &JsValue, key: &str) -> JsValue {
    if !obj.is_object() {
        return JsValue::UNDEFINED;
    }
    js_sys::Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}
