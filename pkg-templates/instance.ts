// The wasm's instance, for the entries to initialise (a module of its own: lib.js does not export
// how) and for abi.ts, bundled into lib.js, to call: the exports of src/wasm/abi.rs. The wasm
// imports nothing.

/** The exports of src/wasm/abi.rs (the bulk ones: abi-bulk.ts). */
export interface Exports {
  memory: WebAssembly.Memory;
  lpm_args(len: number): number;
  lpm_result(): number;
  lpm_core_new(options: number, base: number): number;
  lpm_core_with_token(core: number, token: number): number;
  lpm_core_free(core: number): void;
  lpm_core_text(core: number, which: number): number;
  lpm_core_next_create_allowed_at(core: number, now: number, last: number): number;
  lpm_plan(core: number, method: number, a: number, b: number, options: number): number;
  lpm_pending_free(pending: number): void;
  lpm_pending_poll(pending: number, now: number, last: number): number;
  lpm_pending_handle(pending: number, now: number, status: number, retryAfterMs: number, jitter: number, timedOut: number): number;
  lpm_pending_decode(pending: number, status: number, body: number, utf8Known: number): number;
  lpm_pending_failure(pending: number, kind: number): number;
  lpm_pending_redact(pending: number, text: number): number;
  lpm_validate(kind: number, value: number, options: number): number;
  lpm_column_of(header: number): number;
  [bulk: string]: unknown;
}

export let w: Exports;

export type SyncInitInput = BufferSource | WebAssembly.Module;
export type InitInput = RequestInfo | URL | Response | SyncInitInput;

function start(instance: WebAssembly.Instance): Exports {
  return (w = instance.exports as unknown as Exports);
}

/** Instantiates the wasm from its bytes or compiled module, synchronously (Node, workerd); once:
 * later calls give the same instance's exports. */
export function initSync({ module }: { module: SyncInitInput }): Exports {
  if (w) return w;
  const m = module instanceof WebAssembly.Module ? module : new WebAssembly.Module(module);
  return start(new WebAssembly.Instance(m, {}));
}

/** Instantiates the wasm from a URL (fetched, compiled while it streams where the server sends
 * `application/wasm`), a Response, its bytes or its compiled module. */
export default async function init({ module_or_path }: { module_or_path: InitInput | Promise<InitInput> }): Promise<Exports> {
  if (w) return w;
  let source = await module_or_path;
  if (typeof source === 'string' || source instanceof URL || (typeof Request === 'function' && source instanceof Request)) source = await fetch(source);
  if (typeof Response === 'function' && source instanceof Response) {
    const r = source;
    if (typeof WebAssembly.instantiateStreaming === 'function' && r.headers.get('content-type') === 'application/wasm') {
      return start((await WebAssembly.instantiateStreaming(r, {})).instance);
    }
    source = await r.arrayBuffer();
  }
  return start(source instanceof WebAssembly.Module
    ? await WebAssembly.instantiate(source, {})
    : (await WebAssembly.instantiate(source as BufferSource, {})).instance);
}
