// One cold start, run in a fresh process by run.mjs: import a client, then its first
// validateCreateUsers of the 100-account batch. Prints JSON timings measured inside this process.
//
//   node bench/peers/cold.mjs lpm|validate|zod|valibot|none <pkg dir>
// (`validate`: the package's validators-only entry, lpm-client/validate.)
import { newUsers } from '../inputs.mjs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [which, pkgDir] = process.argv.slice(2);
const modules = {
  lpm: () => pathToFileURL(path.join(pkgDir, 'node.js')).href,
  validate: () => pathToFileURL(path.join(pkgDir, 'validate-node.js')).href,
  zod: () => new URL('./zod-client.mjs', import.meta.url).href,
  valibot: () => new URL('./valibot-client.mjs', import.meta.url).href,
};
const items = newUsers();

const t0 = performance.now();
const client = modules[which] ? await import(modules[which]()) : null;
const t1 = performance.now();
const issues = client ? client.validateCreateUsers(items) : [];
const t2 = performance.now();
// `sinceStart`: from the process's time origin to the first validation's answer.
process.stdout.write(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, totalMs: t2 - t0, sinceStart: t2, issues: issues.length }));
