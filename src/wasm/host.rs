//! Bindings to `io.js`: one fetch attempt, an abortable sleep, the clock.

use js_sys::Promise;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/io.js")]
extern "C" {
    #[wasm_bindgen(js_name = fetchOnce)]
    pub fn fetch_once(
        fetch: &JsValue,
        method: &str,
        url: &str,
        body: Option<String>,
        timeout_ms: f64,
        signal: &JsValue,
    ) -> Promise;

    pub fn sleep(ms: f64, signal: &JsValue) -> Promise;

    pub fn now() -> f64;

    #[wasm_bindgen(js_name = parseBody, catch)]
    pub fn parse_body(bytes: &js_sys::Uint8Array) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = toJson)]
    pub fn to_json(value: &JsValue) -> Option<String>;
}
