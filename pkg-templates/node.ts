// Node 18+ (and Deno, Bun, and the server side of frameworks that bundle it): instantiate the
// wasm synchronously from its bytes, which this file carries. Decision: the bytes are inlined
// (base64) rather than read from the file beside it: server bundlers (Next.js's webpack and
// Turbopack, Vite's `ssr.noExternal`) rewrite or drop a `new URL(…, import.meta.url)` file read,
// and a browser never loads this entry, so only servers pay for the inlined bytes.
import { Buffer } from 'node:buffer';
import start from './lib.js';
import wasm from './wasm-bytes.js';

start.sync(Buffer.from(wasm, 'base64'));

export * from './lib.js';
// Replaces lib.js's placeholder, which tells other runtimes that a file store needs Node.
export { fileStore, fileJournal } from './file-store.js';
