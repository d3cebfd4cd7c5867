// Loads one entry of the installed package and prints what it exports, as JSON on the last line.
// Run from a project that installed the tarball, one entry per process (both entries share the
// bindings module, whose second init would be a no-op, so one process could not test both):
//   node entry.mjs node      import('lpm-client') — the "node" condition, sync instantiation
//   node entry.mjs default   the "default" file (browsers, bundlers), with fetch serving file: URLs
//   node entry.mjs require   require('lpm-client'): works only if the node entry has no top-level
//                            await, i.e. it really instantiates synchronously (Node with require(esm))
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const which = process.argv[2];
const require = createRequire(path.join(process.cwd(), 'package.json'));
let mod;
if (which === 'node') {
  mod = await import('lpm-client');
} else if (which === 'require') {
  mod = require('lpm-client');
} else if (which === 'default') {
  // What a browser does for `new URL('./wasm/…', import.meta.url)`: fetch it. Node's fetch has no
  // file: scheme, so serve those from disk (with the wasm MIME type, for instantiateStreaming).
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = input instanceof URL ? input : new URL(String(input instanceof Request ? input.url : input));
    if (url.protocol !== 'file:') return realFetch(input, init);
    return new Response(readFileSync(url), { headers: { 'content-type': 'application/wasm' } });
  };
  const pkgDir = path.dirname(require.resolve('lpm-client/package.json'));
  const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  mod = await import(pathToFileURL(path.join(pkgDir, pkg.exports['.'].default)).href);
} else {
  console.error('usage: node entry.mjs node|default|require');
  process.exit(2);
}

// A smoke call through the wasm: validation, a client, an error class.
const issues = mod.validateCreateUsers([{ name: 'Nguyễn Văn An', username: 'nguyenvanan', email: 'not-an-email', password: 'matkhau123' }]);
if (!Array.isArray(issues) || !issues.some((i) => i.code === 'invalid_email')) throw new Error(`validateCreateUsers: unexpected ${JSON.stringify(issues)}`);
const client = new mod.Client({ baseUrl: 'https://school.example.com/' });
if (client.baseUrl !== 'https://school.example.com') console.error(`note: baseUrl normalised to ${client.baseUrl}`);
let configError;
try {
  new mod.Client({ baseUrl: 'https://school.example.com', maxRetries: 'x' });
} catch (e) {
  configError = e;
}
if (!(configError instanceof mod.ConfigError) || !(configError instanceof mod.LpmError)) throw new Error(`expected a ConfigError, got ${configError}`);
client.free();

console.log(JSON.stringify(Object.keys(mod).filter((k) => k !== 'default' && k !== '__esModule' && k !== 'module.exports').sort()));
