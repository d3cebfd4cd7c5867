/// <reference lib="esnext.disposable" preserve="true" />
// Browsers and bundlers: fetch and instantiate the wasm beside this file (compiled while it
// streams where the server sends `application/wasm`), then export the API.
import start from './lib.js';

// Once per realm: after another entry (the node one, in Node) the instance is there.
if (!start()) {
  const r = await fetch(new URL('./wasm/lpm_client_bg.wasm', import.meta.url));
  start(typeof WebAssembly.instantiateStreaming === 'function' && r.headers.get('content-type') === 'application/wasm'
    ? (await WebAssembly.instantiateStreaming(r, {})).instance
    : (await WebAssembly.instantiate(await r.arrayBuffer(), {})).instance);
}

export * from './lib.js';
