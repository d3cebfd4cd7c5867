// lpm-client/validate in Node, Deno and Bun: the validators' wasm instantiated synchronously from
// the file beside this one (validate-lib.ts).
import { readFileSync } from 'node:fs';
import start from './validate-lib.js';

start.sync(readFileSync(new URL('./wasm/lpm_validate_bg.wasm', import.meta.url)));

export * from './validate-lib.js';
