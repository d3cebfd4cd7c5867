//! Spreadsheet headers to account fields, by the core's one alias table (`crate::columns`), for
//! the command line and the dashboard. The package's `mapColumns` calls this once per header:
//! strings cross with the glue every entry already has, so the export costs no new imports.

use wasm_bindgen::prelude::*;

/// The `NewUser` field `header` stands for, or `undefined`.
#[wasm_bindgen(js_name = columnOf, unchecked_return_type = "keyof NewUser | undefined")]
pub fn column_of(header: &str) -> JsValue {
    // A JS value, not an `Option<String>`: one result, no return area for the glue to read.
    crate::columns::column(header).map_or(JsValue::UNDEFINED, JsValue::from_str)
}
