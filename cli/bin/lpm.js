#!/usr/bin/env node
// @ts-check
import { setFlagsFromString } from 'node:v8';
import { main } from '../src/main.js';

// Decision: the package's wasm stays on V8's baseline compiler (Liftoff) unless a function runs
// for very long. The optimising tier recompiles the hot functions on background threads, CPU an
// import does not win back for code that runs in short bursts a chunk apart (cli/bench/import.mjs,
// figures in docs/performance.md). A tiering budget (a production flag, where --liftoff-only
// is a testing one) ~1,000 times the default; set before any command loads the package
// (commands are imported when they run).
setFlagsFromString('--wasm-tiering-budget=2000000000');
// Decision: the young generation keeps its first size. What a command reads (a sheet's rows, the
// engine's results) lives to its end, so each scavenge promotes it, and V8 answers such survival
// by doubling the young generation to its largest, reserved for nothing; held, the peak RSS of a
// large sheet stays within its goal for a little more CPU (docs/performance.md). The growth
// factor is read each time the young generation would grow, so it applies when set here.
setFlagsFromString('--semi-space-growth-factor=1');

process.exitCode = await main(process.argv.slice(2));
