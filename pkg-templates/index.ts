/// <reference lib="esnext.disposable" preserve="true" />
// Browsers and bundlers: fetch and instantiate the wasm beside this file (compiled while it
// streams where the server sends `application/wasm`), then export the API. Once per realm:
// after another entry (the node one, in Node) the instance is there.
import start from './lib.js';

if (!start.exports) await start.load(fetch(new URL('./wasm/lpm_client_bg.wasm', import.meta.url)));

export * from './lib.js';
