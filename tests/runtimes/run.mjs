// Node, Deno and Bun: imports the installed package as a user's ESM code does and prints the
// exercise's summary as JSON on the last line. Arguments: <emulator url> <token>.
import * as lpm from 'lpm-client';
import { exercise } from './exercise.mjs';

const args = globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2);
const summary = await exercise(lpm, { baseUrl: args[0], token: args[1] });
console.log(JSON.stringify(summary));
