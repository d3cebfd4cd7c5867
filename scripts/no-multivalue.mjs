// Drops `multivalue` from the target_features section of a wasm (in place), so that wasm-bindgen
// returns strings and results through its return area rather than as multi-value results.
// Why: Node 20's V8 compiles a JS-to-wasm wrapper with TurboFan for each export signature with
// more than one result (its generic wrapper does not take them), ~0.3 ms each when the module is
// compiled: ~17 signatures made `new WebAssembly.Module` of the package's wasm ~3.5 ms, most of a
// new process's import. Rust's wasm32 target enables the feature by default (std is built with
// it), so -Ctarget-feature=-multivalue does not remove it from the linked module.
//
//   node scripts/no-multivalue.mjs file.wasm
import { readFileSync, writeFileSync } from 'node:fs';
import { leb as lebBytes, readLeb } from './wasm-leb.mjs';

const file = process.argv[2];
const b = readFileSync(file);
let i = 8;
const leb = () => {
  const [r, next] = readLeb(b, i);
  i = next;
  return r;
};
const uleb = (n) => Buffer.from(lebBytes(n));
const name = (bytes) => Buffer.concat([uleb(bytes.length), bytes]);
const parts = [b.subarray(0, 8)];
let dropped = false;
while (i < b.length) {
  const start = i;
  const id = b[i++];
  const end = leb() + i;
  if (id === 0) {
    const n = leb();
    const section = b.subarray(i, i + n);
    i += n;
    if (section.toString() === 'target_features') {
      const keep = [];
      for (let k = leb(); k > 0; k--) {
        const prefix = b[i++];
        const len = leb();
        const feature = b.subarray(i, i + len);
        i += len;
        if (feature.toString() === 'multivalue') dropped = true;
        else keep.push(Buffer.from([prefix]), name(feature));
      }
      const body = Buffer.concat([name(section), uleb(keep.length / 2), ...keep]);
      parts.push(Buffer.from([0]), uleb(body.length), body);
      i = end;
      continue;
    }
  }
  parts.push(b.subarray(start, end));
  i = end;
}
writeFileSync(file, Buffer.concat(parts));
if (!dropped) console.error('no-multivalue: the module did not list multivalue');
