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
mod client;
mod convert;
mod errors;
mod validators;

#[cfg(feature = "bench-exports")]
mod bench;

/// Size classes with free lists (`wasm-alloc/`) instead of std's dlmalloc: O(1) on the many small
/// allocations of validation, and a smaller wasm than dlmalloc or talc (docs/performance.md).
#[cfg(not(target_feature = "atomics"))]
#[global_allocator]
static ALLOC: lpm_wasm_alloc::SizeClasses = lpm_wasm_alloc::SizeClasses::new();
