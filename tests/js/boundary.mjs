// The wasm's own exports driven directly (tests of the boundary itself, bench/ab.mjs's gate rows).
/**
 * The wasm's exports (`w`, from the package's lib.js: its default export gives them) driven as pkg-templates/abi.ts drives
 * them, for tests of the boundary itself: `put(...parts)` writes the arguments (texts or bytes;
 * `undefined`: absent) and gives their lengths, `result(status)` the text result (or nothing), or
 * throws the error's data as the glue does.
 */
export function boundary(w) {
  const enc = new TextEncoder();
  const dec = new TextDecoder('utf-8', { ignoreBOM: true });
  const put = (...parts) => {
    const bytes = parts.map((p) => (typeof p === 'string' ? enc.encode(p) : p));
    let at = w.lpm_args(bytes.reduce((n, b) => n + (b ? b.length : 0), 0));
    return bytes.map((b) => {
      if (b === undefined) return -1;
      new Uint8Array(w.memory.buffer).set(b, at);
      at += b.length;
      return b.length;
    });
  };
  const text = () => {
    const [at, len] = new Uint32Array(w.memory.buffer, w.lpm_result(), 2);
    return dec.decode(new Uint8Array(w.memory.buffer, at, len));
  };
  const result = (status) => {
    if (status < 0) throw text();
    return status > 0 ? text() : undefined;
  };
  return { put, result };
}
