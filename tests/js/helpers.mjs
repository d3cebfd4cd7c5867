// Shared helpers of the node:test suite: the package as a user imports it (the `node` export of
// the built pkg/), emulator set-up, a counting fetch, and rejection checks.
import assert from 'node:assert/strict';
import { startEmulator, DEMO } from './emulator.mjs';

export * as lpm from '../../pkg/node.js';
export { startEmulator, DEMO };

/** Seeded ids the tests rely on (from the emulator's demo seed; checked in endpoints.test.mjs). */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A valid account-creation item with a unique username/e-mail. */
let serial = 0;
export function newUser(tag = 'u') {
  serial += 1;
  const id = `${tag}${process.pid % 10000}x${serial}`.replace(/[^a-zA-Z0-9]/g, '').slice(0, 20);
  return { name: `Test ${id}`, username: id, email: `${id}@example.test`, password: 'secret-123' };
}

/** A fetch that counts its calls and records the URLs it was given. */
export function countingFetch(inner = globalThis.fetch) {
  const f = async (url, init) => {
    f.calls += 1;
    f.urls.push(url);
    f.methods.push(init && init.method);
    return inner(url, init);
  };
  f.calls = 0;
  f.urls = [];
  f.methods = [];
  f.reset = () => { f.calls = 0; f.urls = []; f.methods = []; };
  return f;
}

/** A fetch-shaped response object (what FetchLike must resolve with). */
export function fakeResponse(status, body, headers = {}) {
  return {
    status,
    headers: new Headers(headers),
    arrayBuffer: async () => new TextEncoder().encode(body).buffer,
  };
}

/**
 * Awaits `promise`, asserts it rejects with an instance of `Class` (and `LpmError`), checks the
 * listed properties, and returns the error.
 */
export async function rejectsWith(promise, Class, props = {}, lpm) {
  let err;
  try {
    const v = await promise;
    assert.fail(`expected ${Class.name}, resolved with ${JSON.stringify(v).slice(0, 300)}`);
  } catch (e) {
    err = e;
  }
  if (!(err instanceof Class)) {
    throw new assert.AssertionError({
      message: `expected ${Class.name}, got ${err && err.constructor && err.constructor.name}: ${err && err.message} ${JSON.stringify(err)}`,
    });
  }
  if (lpm) assert.ok(err instanceof lpm.LpmError, 'is an LpmError');
  assert.ok(err instanceof Error, 'is an Error');
  for (const [k, v] of Object.entries(props)) {
    assert.deepEqual(err[k], v, `${Class.name}.${k}`);
  }
  return err;
}

/** Starts an emulator and returns it with a `fault(...)` shortcut and `reset()`. */
export async function emulator(args = []) {
  const emu = await startEmulator(args);
  emu.fault = (body) => emu.control('POST', 'faults', body);
  emu.reset = (seed) => emu.control('POST', 'reset', seed ? { seed } : undefined);
  emu.state = () => emu.control('GET', 'state');
  emu.pendingFaults = async () => (await emu.control('GET', 'faults')).faults;
  return emu;
}

