// The wasm's instance, once per realm: the entries instantiate it (`start`), the rest asks
// whether it is in. Apart from core.ts so that the validators entry (lpm-client/validate), whose
// glue has only the validators, shares it with the package.
import { initSync } from './wasm/lpm_client.js';
import type { InitOutput } from './wasm/lpm_client.js';

let instance: InitOutput | undefined;
let loading: Promise<InitOutput> | undefined;

/** The entries' way to instantiate the wasm, once per realm (after another entry's, the first's
 * instance stays): `sync` from a compiled module or its bytes, `load` from a fetch, compiled
 * while it streams where the server sends `application/wasm` (from its bytes elsewhere);
 * `exports` the instance's so far. */
export const start = {
  get exports(): InitOutput | undefined {
    return instance;
  },
  sync(module: WebAssembly.Module | BufferSource): InitOutput {
    return (instance ||= initSync({ module }));
  },
  load(response: Promise<Response>): Promise<InitOutput> {
    return (loading ||= (async () => {
      if (instance) return instance;
      const r = await response;
      if (!r.ok) throw new Error(`lpm-client: the wasm could not be fetched: ${r.status} ${r.url}`);
      // Compiled while it streams where the server says it is wasm; then instantiated at once
      // (a compiled module instantiates synchronously in every browser, as in Node).
      const module = r.headers.get('content-type') === 'application/wasm' && typeof WebAssembly.compileStreaming === 'function'
        ? await WebAssembly.compileStreaming(r)
        : await WebAssembly.compile(await r.arrayBuffer());
      return (instance ||= initSync({ module }));
    })());
  },
};

/** Whether the wasm is in; else, the load under way (`lpm-client/lazy`), if any. */
export const loaded = (): boolean => instance !== undefined;
export const whenLoaded = (): Promise<unknown> | undefined => loading;
