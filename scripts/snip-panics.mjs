// Replaces the Rust panic and formatting machinery in the package's wasm with `unreachable`: what
// `panic_immediate_abort` would do with a rebuilt std (which needs rust-src, not available here).
// A panic in the wasm is a defect that traps either way (panic = "abort": std's hook writes to a
// stderr wasm32 does not have, then traps); the JS turns a trap into an `internal` LpmError. What
// goes is std's hook, its payloads and all of core::fmt (about 4.7 KB of wasm, 2.3 KB gzip), and
// the data only they read (panics' source paths and messages, fmt's digit table: 0.5 KB gzip).
//
// Usage: node scripts/snip-panics.mjs <wasm with names (wasm-bindgen --keep-debug)> <wasm-dis>
// Rewrites the file in place. Fails when a formatting function is called from anywhere but the
// panic machinery (a `format!`, `to_string()` or `{}` on a wasm path): that code would trap, so
// the build names it instead. Then run wasm-opt, which drops what only the snipped code used.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leb, readLeb } from './wasm-leb.mjs';

const [file, wasmDis] = process.argv.slice(2);

/** Where a panic starts: reaching one is a defect, and it traps. */
const PANIC = [
  /^core(\[\w+\])?::panicking::/,
  /^std(\[\w+\])?::panicking::/,
  /^core(\[\w+\])?::slice::index::slice_\w*fail/,
  /^core(\[\w+\])?::str::slice_error_fail/,
  /^core(\[\w+\])?::(option|result)::(unwrap|expect)_failed/,
  /^alloc(\[\w+\])?::raw_vec::(handle_error|capacity_overflow)/,
  /^alloc(\[\w+\])?::alloc::handle_alloc_error/,
  /^std(\[\w+\])?::alloc::/,
  /^std(\[\w+\])?::sys::backtrace::__rust_end_short_backtrace/,
  /^__rustc(\[\w+\])?::__rust_alloc_error_handler/,
  /^__(rdl|rg)_oom/,
];
/** The formatting machinery, used only by panics' messages (which the check below holds). */
const FORMAT = [
  /^core(\[\w+\])?::fmt::/,
  /^<core(\[\w+\])?::fmt::/,
  /as core(\[\w+\])?::fmt::(Display|Debug|Write)>::/,
  /as core(\[\w+\])?::panic::PanicPayload>::/,
  // What a serde visitor expects, written into a Formatter: only an error's message asks.
  /as serde(_core)?(\[\w+\])?::de::Visitor>::expecting/,
  /^core(\[\w+\])?::ptr::drop_in_place::<std(\[\w+\])?::panicking::/,
];
/** wasm-bindgen's runtime that only its generated glue called: the package drives the wasm through
 * its own exports (src/wasm/abi.rs), but the function table keeps the closures' shims alive. */
const UNREACHED = [
  /^wasm_bindgen(\[\w+\])?::convert::closures::/,
  /^__externref_/,
];

const b = readFileSync(file);
let p = 8;
const u32 = () => {
  const [r, next] = readLeb(b, p);
  p = next;
  return r;
};

// Sections: the number of imported functions, the name section, the code section.
let imported = 0;
let names;
let code;
let data;
while (p < b.length) {
  const headerAt = p;
  const id = b[p++];
  const size = u32();
  const start = p;
  const end = start + size;
  if (id === 2) {
    for (let n = u32(); n > 0; n--) {
      for (let k = 0; k < 2; k++) {
        const len = u32(); // (not `p += u32()`: p would be read before the call moves it)
        p += len;
      }
      const kind = b[p++];
      if (kind === 0) { imported++; u32(); }
      else if (kind === 1) { p++; if (b[p++] & 1) { u32(); } u32(); }
      else if (kind === 2) { if (b[p++] & 1) { u32(); } u32(); }
      else if (kind === 3) p += 2;
      else if (kind === 4) { p++; u32(); }
    }
  } else if (id === 0) {
    const len = u32();
    if (b.subarray(p, p + len).toString() === 'name') {
      p += len;
      while (p < end) {
        const sub = b[p++];
        const subSize = u32();
        const subEnd = p + subSize;
        if (sub === 1) {
          names = new Map();
          for (let n = u32(); n > 0; n--) {
            const index = u32();
            const len = u32();
            names.set(index, b.subarray(p, p + len).toString());
            p += len;
          }
        }
        p = subEnd;
      }
    }
  } else if (id === 10) {
    code = { headerAt, start, end };
  } else if (id === 11) {
    data = { start, end };
  }
  p = end;
}
if (!names || !code) throw new Error(`${file}: no function names or no code (build with wasm-bindgen --keep-debug)`);

const matches = (res, name) => res.some((re) => re.test(name));
const snip = (name) => matches(PANIC, name) || matches(FORMAT, name) || matches(UNREACHED, name);

// The check: no function outside the snipped set calls a formatting function directly.
/** Every `i32.const` of the functions kept: the data addresses their code can reach directly. */
const keptConsts = new Set();
const dir = mkdtempSync(join(tmpdir(), 'snip-'));
try {
  execFileSync(wasmDis, [file, '-o', join(dir, 'm.wat')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const wat = readFileSync(join(dir, 'm.wat'), 'utf8');
  const nameOf = (s) => (s.startsWith('"') ? JSON.parse(s) : s);
  const fnRe = /^ \(func \$("(?:[^"\\]|\\.)*"|\S+)/gm;
  const starts = [...wat.matchAll(fnRe)];
  const bad = [];
  starts.forEach((m, i) => {
    const caller = nameOf(m[1]);
    if (snip(caller)) return;
    const body = wat.slice(m.index, i + 1 < starts.length ? starts[i + 1].index : wat.length);
    for (const c of body.matchAll(/\(i32\.const (-?\d+)\)/g)) keptConsts.add(Number(c[1]) >>> 0);
    for (const c of body.matchAll(/\(call \$("(?:[^"\\]|\\.)*"|[^\s)]+)/g)) {
      const callee = nameOf(c[1]);
      if (matches(FORMAT, callee) && !matches(PANIC, callee)) bad.push(`${caller} calls ${callee}`);
    }
  });
  if (bad.length > 0) {
    console.error('snip-panics: formatting on a wasm path (use the crate\'s own writers, not core::fmt):');
    for (const line of [...new Set(bad)]) console.error(`  ${line}`);
    process.exit(1);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// Rewrite the code section with the snipped bodies as `unreachable`.
p = code.start;
const count = u32();
const bodies = [Buffer.from(leb(count))];
let snipped = 0;
for (let i = 0; i < count; i++) {
  const size = u32();
  const name = names.get(imported + i) ?? '';
  if (snip(name)) {
    snipped++;
    bodies.push(Buffer.from([3, 0, 0x00, 0x0b])); // no locals; unreachable; end
  } else {
    bodies.push(Buffer.from(leb(size)), b.subarray(p, p + size));
  }
  p += size;
}
if (![...names.values()].some((n) => /::panicking::panic_fmt$/.test(n))) {
  throw new Error(`${file}: core::panicking::panic_fmt not found: the names changed, update scripts/snip-panics.mjs`);
}
const zeroed = zeroDeadData();
const section = Buffer.concat(bodies);
writeFileSync(file, Buffer.concat([
  b.subarray(0, code.headerAt), Buffer.from([10, ...leb(section.length)]), section, b.subarray(code.end),
]));
console.log(`snip-panics: ${snipped} panic, formatting and unreached glue functions replaced by unreachable, ${zeroed} bytes of their data zeroed`);

/**
 * Zeroes the data only the snipped code read: the source paths of panic locations, core's
 * index-panic messages, and the two-digit table of core::fmt's integer formatting. wasm-opt then
 * drops the zeros (memory starts zeroed). A string that a kept function's code points at (an
 * `i32.const` of its address) is left alone: then something else reads it.
 */
function zeroDeadData() {
  if (!data) return 0;
  const DEAD = [
    // Location::file of a panic: this crate's and its dependencies' sources, and std's.
    /(?:\/rustc\/[0-9a-f]+\/library|\/[\w.-]+(?:\/[\w.+-]+)*|src)\/[\w\/.-]*\.rs/g,
    /slice index starts at | but ends at |index out of bounds: the len is | but the index is |range (?:start|end) index | out of range for slice of length /g,
    /00010203040506070809(?:[0-9]{2}){90}/g,
  ];
  let n = 0;
  p = data.start;
  for (let count = u32(); count > 0; count--) {
    const flags = u32();
    let at = 0;
    if (flags === 0 && b[p] === 0x41) {
      p++;
      at = u32(); // i32.const <address> end (LEB128 signed; data sits far below 2^31)
      if (b[p++] !== 0x0b) return n;
    } else if (flags !== 1) {
      return n; // another layout: leave the data alone
    }
    const len = u32();
    const text = b.subarray(p, p + len).toString('latin1');
    for (const re of DEAD) {
      for (const m of text.matchAll(re)) {
        if (keptConsts.has(at + m.index)) continue;
        b.fill(0, p + m.index, p + m.index + m[0].length);
        n += m[0].length;
      }
    }
    p += len;
  }
  return n;
}
