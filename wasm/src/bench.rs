//! Exports for `bench/boundary.mjs` only (crate feature `bench-exports`, never in the published
//! package): the same work done with each way of crossing the JS↔wasm boundary, so the choice
//! between JSON text and serde-wasm-bindgen objects rests on measurement.
//!
//! - Decoding a get-multi-course body (bytes in, the same for every variant) and handing the
//!   `CourseList` to JS as (a) JSON text parsed by `JSON.parse` (`convert::to_js`),
//!   (b) serde-wasm-bindgen objects, JSON-compatible (`null` for `None`, plain objects for maps),
//!   (b2) serde-wasm-bindgen with only `serialize_maps_as_objects` (absent `None`s are
//!   `undefined`), (r) the body as received, `JSON.parse`d, after the decode checked it (what the
//!   client does now), plus the decode alone for reference.
//! - Validating a create-multi-user batch received as (a) a JS value `JSON.stringify`-ed here and
//!   read by serde_json (what `convert::from_js` does), (b) a JS value read by
//!   `serde_wasm_bindgen::from_value`, (c) JSON text the caller stringified on the JS side, plus
//!   reading (c) without validating, for reference. The issues go back the same way in each
//!   (`to_js`): only the input crossing differs.

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use lpm_client::plan::Planner;
use lpm_client::reply::CourseList;
use lpm_client::validate::{self, ValidateOptions};

use super::convert::to_js;

fn js_err(e: impl core::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

fn decode(body: &[u8]) -> Result<CourseList, JsValue> {
    Planner::new("https://bench.example.com")
        .and_then(|api| api.with_token("bench-token"))
        .and_then(|api| api.get_courses(0, 100))
        .and_then(|req| req.decode(200, body))
        .map_err(js_err)
}

/// Decode only; returns the number of courses (the core's share of every decode variant).
#[wasm_bindgen(js_name = benchDecodeOnly, skip_typescript)]
pub fn bench_decode_only(body: &[u8]) -> Result<u32, JsValue> {
    Ok(decode(body)?.courses.len() as u32)
}

/// Decode (to check the body), then hand JS the body as received: `JSON.parse` of the bytes (what
/// the client does since it stopped serializing the typed reply back).
#[wasm_bindgen(js_name = benchDecodeReceived, skip_typescript)]
pub fn bench_decode_received(body: &[u8]) -> Result<JsValue, JsValue> {
    decode(body)?;
    js_sys::JSON::parse(core::str::from_utf8(body).map_err(js_err)?)
}

/// Decode, then the typed reply as JSON text → `JSON.parse` (`convert::to_js`).
#[wasm_bindgen(js_name = benchDecodeJson, skip_typescript)]
pub fn bench_decode_json(body: &[u8]) -> Result<JsValue, JsValue> {
    Ok(to_js(&decode(body)?))
}

/// The gate alone (what the client runs before JS parses the bytes, told the body is UTF-8 as
/// the client's ASCII pass tells it); returns 1.
#[wasm_bindgen(js_name = benchCheckOnly, skip_typescript)]
pub fn bench_check_only(body: &[u8]) -> Result<u32, JsValue> {
    Planner::new("https://bench.example.com")
        .and_then(|api| api.with_token("bench-token"))
        .and_then(|api| api.get_courses(0, 100))
        .and_then(|req| {
            lpm_client::decode::check_reply(&req.plan(), 200, body, lpm_client::check::Utf8::Valid)
        })
        .map(|_| 1)
        .map_err(js_err)
}

/// Decode, then serde-wasm-bindgen with `Serializer::json_compatible()`.
#[wasm_bindgen(js_name = benchDecodeSwb, skip_typescript)]
pub fn bench_decode_swb(body: &[u8]) -> Result<JsValue, JsValue> {
    decode(body)?
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(JsValue::from)
}

/// Decode, then serde-wasm-bindgen with `serialize_maps_as_objects(true)` only.
#[wasm_bindgen(js_name = benchDecodeSwbObjects, skip_typescript)]
pub fn bench_decode_swb_objects(body: &[u8]) -> Result<JsValue, JsValue> {
    decode(body)?
        .serialize(&serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true))
        .map_err(JsValue::from)
}

fn validate(items: &Value) -> Result<JsValue, JsValue> {
    Ok(to_js(
        &validate::validate_create_users(items, ValidateOptions::default()).issues,
    ))
}

/// Validate a batch received as a JS value: `JSON.stringify` called from wasm, then serde_json.
#[wasm_bindgen(js_name = benchValidateJson, skip_typescript)]
pub fn bench_validate_json(items: JsValue) -> Result<JsValue, JsValue> {
    let text = js_sys::JSON::stringify(&items)
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| js_err("not JSON"))?;
    let value: Value = serde_json::from_str(&text).map_err(js_err)?;
    validate(&value)
}

/// Validate a batch received as a JS value read by serde-wasm-bindgen.
#[wasm_bindgen(js_name = benchValidateSwb, skip_typescript)]
pub fn bench_validate_swb(items: JsValue) -> Result<JsValue, JsValue> {
    let value: Value = serde_wasm_bindgen::from_value(items)?;
    validate(&value)
}

/// Reading only, for reference: JSON text from the JS side parsed by serde_json, not validated;
/// returns the number of items (the input share of `benchValidateText`).
#[wasm_bindgen(js_name = benchReadText, skip_typescript)]
pub fn bench_read_text(text: &str) -> Result<u32, JsValue> {
    let value: Value = serde_json::from_str(text).map_err(js_err)?;
    Ok(value.as_array().map_or(0, |a| a.len() as u32))
}

/// Validate a batch the caller already turned into JSON text on the JS side.
#[wasm_bindgen(js_name = benchValidateText, skip_typescript)]
pub fn bench_validate_text(text: &str) -> Result<JsValue, JsValue> {
    let value: Value = serde_json::from_str(text).map_err(js_err)?;
    validate(&value)
}
