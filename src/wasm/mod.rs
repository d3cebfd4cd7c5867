//! The WebAssembly shell: `#[wasm_bindgen]` exports over the core, which only move values. The
//! package's JS (`pkg-templates/lib.ts`) performs the I/O the core asks for; every decision
//! (planning, retries, the create interval, checking answers) is the core's, and nothing here
//! knows a field of a record.
//!
//! Values cross as JSON text: the caller's values `JSON.stringify`-ed by the JS, read by the
//! crate's own JSON layer; answers as their bytes, checked here and `JSON.parse`d by the JS;
//! errors and issues written by `json::ser`. Measured against serde-wasm-bindgen in
//! `bench/boundary.mjs`.

#[cfg(feature = "bulk")]
mod bulk;
mod client;
mod columns;
mod convert;
mod errors;
mod validators;

#[cfg(feature = "bench-exports")]
mod bench;

/// Talc instead of std's dlmalloc: about 5 KB less wasm, and faster on the many small
/// allocations of validation.
#[cfg(not(target_feature = "atomics"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
