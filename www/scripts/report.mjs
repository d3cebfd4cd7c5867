// Printed by `npm run build`: the size of what the browser downloads (raw and gzip), split into
// what every screen loads (lpm-client) and what the bulk screen adds (lpm-client-bulk, loaded by a
// dynamic import), and the cold load to a usable sign-in measured in headless Chromium (median of
// 5 cold loads: scripts/coldload.mjs).
// The cold-load part needs Debian's chromium and playwright-core (scripts/setup.sh --browser);
// without them it says so and prints the sizes only.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { coldLoadLine } from "./coldload.mjs";

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist");
const files = [];
const walk = (d) => {
  for (const f of readdirSync(d)) {
    const p = path.join(d, f);
    if (f.startsWith(".")) continue; // .vite/manifest.json: read below, not served to users
    if (statSync(p).isDirectory()) walk(p);
    else files.push(p);
  }
};
walk(dist);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
let raw = 0;
let gz = 0;
console.log("dashboard size (dist/):");
for (const f of files.sort()) {
  const body = readFileSync(f);
  const g = gzipSync(body, { level: 9 }).length;
  raw += body.length;
  gz += g;
  console.log(`  ${path.relative(dist, f).padEnd(40)} ${kb(body.length).padStart(10)} raw ${kb(g).padStart(10)} gzip`);
}
console.log(`  ${"total".padEnd(40)} ${kb(raw).padStart(10)} raw ${kb(gz).padStart(10)} gzip`);

// The two bundles, from Vite's manifest: the entry's static closure (every screen), and what the
// dynamic imports add (lpm-client-bulk: the bulk screen, grants to more than 100 accounts).
const manifest = JSON.parse(readFileSync(path.join(dist, ".vite/manifest.json"), "utf8"));
function closure(keys, seen = new Set()) {
  for (const k of keys) {
    const c = manifest[k];
    if (!c || seen.has(c.file)) continue;
    seen.add(c.file);
    for (const f of [...(c.css ?? []), ...(c.assets ?? [])]) seen.add(f);
    closure(c.imports ?? [], seen);
  }
  return seen;
}
const entry = Object.keys(manifest).filter((k) => manifest[k].isEntry);
const initial = closure(entry);
const gzipOf = (files) => [...files].reduce((n, f) => n + gzipSync(readFileSync(path.join(dist, f)), { level: 9 }).length, 0);
console.log(`every screen (index.html + lpm-client): ${kb(gzipOf(initial) + gzipSync(readFileSync(path.join(dist, "index.html")), { level: 9 }).length)} gzip`);
// What each dynamic import of the initial chunks adds (lpm-client-bulk: the bulk screen and grants
// to more than 100 accounts; the Overview with its chart library).
const chunkOf = new Map(Object.entries(manifest).map(([k, c]) => [c.file, k]));
const dynamic = [...new Set([...initial].flatMap((f) => manifest[chunkOf.get(f)]?.dynamicImports ?? []))];
for (const k of dynamic) {
  const adds = [...closure([k])].filter((f) => !initial.has(f));
  console.log(`${k.includes("pkg-bulk") ? "the bulk screen" : `dynamic import ${k.replace(/^src\//, "")}`} adds: ${kb(gzipOf(adds))} gzip`);
}

try {
  await import("playwright-core");
} catch {
  console.log("cold load: skipped (playwright-core not installed; run scripts/setup.sh --browser)");
  process.exit(0);
}
try {
  console.log(await coldLoadLine(dist));
} catch (e) {
  console.log(`cold load: skipped (${e.message.split("\n")[0]})`);
}
