//! Bindings to `io.js`: what the wasm asks of JavaScript (reading a caller's value as JSON).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/io.js")]
extern "C" {
    #[wasm_bindgen(js_name = toJson)]
    pub fn to_json(value: &JsValue) -> Option<String>;
}
