// A failure inside the wasm (a trap: here, memory exhausted) rejects the call with a typed
// LpmError of kind `internal`, never an uncaught exception, and the client stays usable for calls
// that fit. Own file: it fills the wasm memory of this process's instance to near its 4 GiB
// maximum (address space only; untouched pages cost no RAM).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import start from '../../pkg/lib.js';
import { lpm, rejectsWith } from './helpers.mjs';

const TOKEN = 'trap-test-token-0123456789';
const ok = '{"respCode":"00","msg":"Success","users":[]}';

/** A 2xx body of `n` bytes that fits get-multi-user (its padding in an unknown key). */
function body(n) {
  if (n <= 64) return new TextEncoder().encode(ok);
  const bytes = new Uint8Array(n).fill(0x78);
  const head = new TextEncoder().encode('{"respCode":"00","msg":"Success","users":[],"x":"');
  bytes.set(head);
  bytes.set(new TextEncoder().encode('"}'), bytes.length - 2);
  return bytes;
}
const client = (n, extra = {}) => new lpm.Client({
  baseUrl: 'http://127.0.0.1:9', token: TOKEN, ...extra,
  fetch: async () => ({ status: 200, headers: new Headers(), arrayBuffer: async () => body(n).buffer }),
});

test('a wasm trap (memory exhausted) rejects with an internal LpmError; the client stays usable', async () => {
  const uncaught = [];
  const onUncaught = (e) => uncaught.push(e);
  process.on('uncaughtException', onUncaught);
  try {
    assert.deepEqual((await client(0).getUsers()).users, []);
    // Leave the allocator 16 MiB below the 4 GiB maximum (65536 pages of 64 KiB).
    const { memory } = start.exports;
    const target = 65536 - 256;
    while (memory.buffer.byteLength / 65536 < target) memory.grow(Math.min(4096, target - memory.buffer.byteLength / 65536));
    // 32 MiB with the bound off: copying it into the wasm traps.
    const big = client(32 << 20, { maxResponseBytes: 0 });
    for (let i = 0; i < 3; i += 1) {
      const e = await rejectsWith(big.getUsers(), lpm.LpmError, { kind: 'internal' }, lpm);
      assert.ok(e.cause instanceof WebAssembly.RuntimeError, String(e.cause));
      assert.match(e.message, /the client failed .*did not complete/);
      assert.deepEqual((await big.getUsers({ start: 0, limit: 1 }).catch((x) => x)).kind, 'internal', 'the same big answer fails again');
      assert.deepEqual((await client(0).getUsers()).users, [], 'a call that fits still works');
    }
    // With the default bound the same body never reaches the wasm.
    await rejectsWith(client(40 << 20).getUsers(), lpm.ResponseTooLargeError, { maxResponseBytes: 32 << 20 }, lpm);
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(uncaught, []);
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});
