// lpm-client/validate in Cloudflare Workers: the validators' wasm imported precompiled, as
// workerd.ts does the package's.
import module from './wasm/lpm_validate_bg.wasm';
import start from './validate-lib.js';

start.sync(module);

export * from './validate-lib.js';
