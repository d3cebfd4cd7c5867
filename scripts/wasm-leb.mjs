// The wasm binary format's unsigned LEB128 integers, read and written, for the scripts that edit
// a built module (snip-panics.mjs).

/** The integer at `b[at]`, and the offset after it. */
export function readLeb(b, at) {
  let r = 0;
  let s = 0;
  let x;
  do {
    x = b[at++];
    r += (x & 0x7f) * 2 ** s;
    s += 7;
  } while (x & 0x80);
  return [r, at];
}

/** The bytes of `n`. */
export function leb(n) {
  const out = [];
  do {
    let x = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) x |= 0x80;
    out.push(x);
  } while (n);
  return out;
}
