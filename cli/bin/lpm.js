#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { main } from '../src/main.js';

// Decision: the package's wasm runs on V8's baseline compiler (Liftoff) only. Its optimising
// tier recompiles the hot functions on background threads, ~150 ms of CPU on a 10,000-row import
// (cli/bench/import.mjs, measured with and without), for code that runs in short bursts a chunk
// apart. Set before any command loads the package (commands are imported when they run).
setFlagsFromString('--liftoff-only');

process.exitCode = await main(process.argv.slice(2));
