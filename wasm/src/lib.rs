//! The npm packages' WebAssembly (`lpm-client`, and `lpm-client-bulk` with `--features bulk`):
//! wasm-bindgen exports over the core crate `lpm-client`, which only move values, and the wasm's
//! allocator. The package's JS (`pkg-templates/driver.ts`) performs the I/O the core asks for; every decision
//! (planning, retries, the create interval, checking answers) is the core's, and nothing here
//! knows a field of a record.
//!
//! Values cross as JSON text: the caller's values `JSON.stringify`-ed by the JS, read by the
//! crate's own JSON layer; answers as their bytes, checked here and `JSON.parse`d by the JS;
//! errors and issues written by `json::ser`. Measured against serde-wasm-bindgen in
//! `bench/boundary.mjs`.
//!
//! Built for wasm32 only (`scripts/build-pkg.sh`); natively the crate is empty, so the workspace's
//! native commands pass over it.
#![cfg(target_arch = "wasm32")]

#[cfg(feature = "bulk")]
mod bulk;
// `validate-only`: the validators entry's wasm (`lpm-client/validate`), without the client.
#[cfg(not(feature = "validate-only"))]
mod client;
#[cfg(not(feature = "validate-only"))]
mod convert;
// The validators' wasm uses only `errors::config`.
#[cfg_attr(feature = "validate-only", allow(dead_code))]
mod errors;
#[cfg(not(feature = "validate-only"))]
mod pager;
mod validators;

#[cfg(feature = "bench-exports")]
mod bench;

/// talc rather than std's dlmalloc: smaller and faster on the many small allocations of validation,
/// and it reuses freed memory across sizes (docs/performance.md).
#[cfg(not(target_feature = "atomics"))]
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
