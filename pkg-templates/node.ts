// Node 18+: instantiate the wasm synchronously from the file beside this one.
import { readFileSync } from 'node:fs';
import start from './lib.js';

start.sync(readFileSync(new URL('./wasm/lpm_client_bg.wasm', import.meta.url)));

export * from './lib.js';
// Replaces lib.js's placeholder, which tells other runtimes that a file store needs Node.
export { fileStore, fileJournal } from './file-store.js';
