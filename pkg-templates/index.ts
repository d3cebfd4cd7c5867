/// <reference lib="esnext.disposable" preserve="true" />
// Browsers and bundlers: fetch and instantiate the wasm beside this file, then export the API.
import init from './instance.js';

await init({ module_or_path: new URL('./wasm/lpm_client_bg.wasm', import.meta.url) });

export * from './lib.js';
