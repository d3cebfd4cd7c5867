// Cloudflare Workers (workerd): compiling wasm from bytes at run time is forbidden there, so the
// module is imported precompiled. Wrangler (and any bundler rule for Workers) turns this `.wasm`
// import into a WebAssembly.Module, which is instantiated here without compiling.
import module from './wasm/lpm_client_bg.wasm';
import start from './lib.js';

start.sync(module);

export * from './lib.js';
