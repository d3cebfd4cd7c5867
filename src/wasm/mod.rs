//! The WebAssembly shell: `#[wasm_bindgen]` exports over the core, and the I/O loop (fetch,
//! timeout, retries, abort, the create-interval guard). Every method delegates to the core for
//! planning and decoding; nothing here knows a field of a record.
//!
//! Values cross the boundary as JSON text (`JSON.stringify` / `JSON.parse` on the JS side,
//! serde_json on ours): measured against serde-wasm-bindgen in `bench/boundary.mjs`.

mod client;
mod convert;
mod errors;
mod host;
mod validators;

#[cfg(feature = "bench-exports")]
mod bench;

/// Talc instead of std's dlmalloc: about 5 KB less wasm, and faster on the many small
/// allocations of validation.
#[cfg(not(target_feature = "atomics"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
