#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { main } from '../src/main.js';

// Decision: the package's wasm stays on V8's baseline compiler (Liftoff) unless a function runs
// for very long. The optimising tier recompiles the hot functions on background threads: ~150 ms
// of CPU on a 10,000-row import (cli/bench/import.mjs, measured with and without), for code that
// runs in short bursts a chunk apart. A tiering budget (a production flag, where --liftoff-only
// is a testing one) ~1,000 times the default; set before any command loads the package
// (commands are imported when they run).
setFlagsFromString('--wasm-tiering-budget=2000000000');

process.exitCode = await main(process.argv.slice(2));
