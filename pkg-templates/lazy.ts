/// <reference lib="esnext.disposable" preserve="true" />
// Browsers and bundlers, without a top-level await: the page renders while the wasm is fetched
// and instantiated beside it (compiled while it streams where the server sends
// `application/wasm`). `await ready()` before using a client or a validator; a Standard Schema
// validation made before then waits for it, anything else throws a ConfigError (`notLoaded`).
import start from './lib.js';

if (!start.exports) {
  // Its failure is `ready()`'s to report (and each use's), not an unhandled rejection here.
  start.load(fetch(new URL('./wasm/lpm_client_bg.wasm', import.meta.url))).catch(() => {});
}

export * from './lib.js';
