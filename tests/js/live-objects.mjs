// Counts the wasm's objects alive on the JS side: wasm-bindgen's glue registers each object it
// hands out (a Core, a Pending, a BulkJob) with a FinalizationRegistry and unregisters it when it is
// freed. Imported before the package, this spy sees both; `live()` is their difference, so a
// test can tell that a call freed its objects explicitly rather than leaving them to the
// garbage collector.
const Registry = globalThis.FinalizationRegistry;
let registered = 0;
let unregistered = 0;
globalThis.FinalizationRegistry = class extends Registry {
  register(target, held, token) {
    registered += 1;
    return super.register(target, held, token);
  }
  unregister(token) {
    const gone = super.unregister(token);
    if (gone) unregistered += 1;
    return gone;
  }
};

export const live = () => registered - unregistered;
