// Vercel's Edge runtime, as Next.js's Edge route handlers and middleware run in it (the
// `edge-light` condition): compiling wasm from bytes at run time is not allowed there, and a
// fetch of a file beside the bundle is not served under Turbopack, so the module is imported
// precompiled with the `?module` suffix that Next.js (webpack and Turbopack) and Vercel give
// that meaning.
import module from './wasm/lpm_client_bg.wasm?module';
import start from './lib.js';

// Next.js's Edge sandbox (`next build`, `next start`) compiles the module in its host's realm:
// the glue tells a module from bytes by `instanceof`, which fails across realms, and would
// compile it again. Its prototype made this realm's, it instantiates as it is.
if (!(module instanceof WebAssembly.Module)) Object.setPrototypeOf(module, WebAssembly.Module.prototype);
start.sync(module);

export * from './lib.js';
