// lpm-client/validate in browsers and bundlers: fetch and instantiate the validators' wasm beside
// this file, then export the validators (validate-lib.ts).
import start from './validate-lib.js';

if (!start.exports) await start.load(fetch(new URL('./wasm/lpm_validate_bg.wasm', import.meta.url)));

export * from './validate-lib.js';
